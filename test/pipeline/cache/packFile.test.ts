/**
 * Pack files (packFile.ts): entries appended one after another by one writer, each found back whole
 * at the place it was given; an entry whose body fails, or that is too long, is taken back out, and
 * a pack past its size is closed for a new one.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadByteHasher, type ByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { openEntry } from "../../../src/pipeline/cache/entryFile.js";
import { PackReaders, PackWriter, PACKS_FOLDER, type EntryPlace } from "../../../src/pipeline/cache/packFile.js";
import { readEntry } from "./storedEntries.js";
import { tempDir } from "../../helpers/tempDir.js";

let hasher: ByteHasher;
beforeAll(async () => {
  hasher = await loadByteHasher();
});

/** The entry at `place` as its stamp and body lines (after the first). */
function readAt(readers: PackReaders, place: EntryPlace): { stamp: string; first: string; rest: string } {
  return readEntry(openEntry(readers.fd(place.pack)!, place.offset, place.length, hasher, 0)!);
}

const body = (i: number) => [`S ${i}`, ...Array.from({ length: i % 50 }, (_, j) => `R ${"x".repeat((i * j) % 3000)}`)];

describe("pack files", () => {
  it("hold many entries one after another, each read back at its place, in one file", () => {
    const dir = tempDir("looplens-packs-");
    const writer = new PackWriter(dir, 1 << 30);
    const places = Array.from({ length: 300 }, (_, i) => writer.append(`{"stamp":${i}}`, body(i), hasher, Infinity)!);
    writer.close();
    expect(readdirSync(join(dir, PACKS_FOLDER))).toHaveLength(1);
    expect(places.every((place, i) => i === 0 || place.offset === places[i - 1]!.offset + places[i - 1]!.length)).toBe(true);
    const readers = new PackReaders(dir);
    places.forEach((place, i) => expect(readAt(readers, place)).toEqual({ stamp: `{"stamp":${i}}`, first: `S ${i}`, rest: body(i).slice(1).map((line) => `${line}\n`).join("") }));
    readers.closeAll();
  });

  it("take back an entry whose body failed or that is too long, and go on after it", () => {
    const dir = tempDir("looplens-packs-");
    const writer = new PackWriter(dir, 1 << 30);
    const first = writer.append('{"stamp":1}', ["S one"], hasher, Infinity)!;
    function* failing() {
      yield "S two";
      yield "x".repeat(3 << 20); // past the write buffer: some of it is in the file already
      throw new Error("the body failed");
    }
    expect(() => writer.append('{"stamp":2}', failing(), hasher, Infinity)).toThrow("the body failed");
    expect(writer.append('{"stamp":3}', ["S three", "y".repeat(5000)], hasher, 1000)).toBeUndefined();
    const last = writer.append('{"stamp":4}', ["S four"], hasher, Infinity)!;
    writer.close();
    expect(last.offset).toBe(first.offset + first.length);
    expect(statSync(join(dir, PACKS_FOLDER, last.pack)).size).toBe(last.offset + last.length);
    const readers = new PackReaders(dir);
    expect(readAt(readers, last)).toMatchObject({ stamp: '{"stamp":4}', first: "S four" });
    readers.closeAll();
  });

  it("begin a new pack past their size, and do not name a file outside the packs' folder", () => {
    const dir = tempDir("looplens-packs-");
    const writer = new PackWriter(dir, 10_000);
    const places = Array.from({ length: 40 }, (_, i) => writer.append(`{"stamp":${i}}`, [`S ${i}`, "z".repeat(1000)], hasher, Infinity)!);
    writer.close();
    const packs = readdirSync(join(dir, PACKS_FOLDER));
    expect(packs.length).toBeGreaterThanOrEqual(4);
    for (const pack of packs) expect(statSync(join(dir, PACKS_FOLDER, pack)).size).toBeLessThan(10_000 + 1100);
    const readers = new PackReaders(dir);
    places.forEach((place, i) => expect(readAt(readers, place).first).toBe(`S ${i}`));
    expect(readers.fd("../../etc/passwd.pack")).toBeUndefined();
    expect(readers.fd("gone.pack")).toBeUndefined();
    readers.closeAll();
    expect(readFileSync(join(dir, PACKS_FOLDER, places[0]!.pack), "utf8").startsWith('{"stamp":0}\nS 0\n')).toBe(true);
  });
});
