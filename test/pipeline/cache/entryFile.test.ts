/**
 * Entries (entryFile.ts) as records of a pack: read back exactly from their place (in chunks, or whole
 * in one buffer), and any damage (truncation anywhere, one flipped bit, a missing or extra line, a
 * pack cut short) told before the body is used.
 */
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadByteHasher, type ByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { CorruptEntry, encodeEntry, openEntry } from "../../../src/pipeline/cache/entryFile.js";
import { readEntry } from "./storedEntries.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
let hasher: ByteHasher;
beforeAll(async () => {
  dir = tempDir("looplens-entries-");
  hasher = await loadByteHasher();
});

const opened: number[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

/** An entry's bytes, as encoded. */
function encoded(stamp: string, body: Iterable<string | Uint8Array>): Buffer {
  const pieces: Buffer[] = [];
  const length = encodeEntry(stamp, body, hasher, (bytes) => void pieces.push(Buffer.from(bytes)));
  const whole = Buffer.concat(pieces);
  expect(whole.length).toBe(length);
  return whole;
}

let files = 0;
/** `bytes` in a file after other bytes (an entry is found in the middle of its pack), and where: the descriptor, offset and length. */
function placed(bytes: Buffer, length = bytes.length): { fd: number; offset: number; length: number } {
  const path = join(dir, `pack-${files++}`);
  const before = Buffer.from("R the end of the entry before\n#0123456789abcdef\n");
  writeFileSync(path, Buffer.concat([before, bytes]));
  const fd = openSync(path, "r");
  opened.push(fd);
  return { fd, offset: before.length, length };
}

/** The body's first line and the rest, as an entry reads them back; throws CorruptEntry. */
function readBack(bytes: Buffer, length?: number): { stamp: string; first: string; rest: string } {
  const { fd, offset, length: at } = placed(bytes, length);
  const entry = openEntry(fd, offset, at, hasher, 0);
  if (!entry) throw new CorruptEntry("cannot open");
  return readEntry(entry);
}

const LINES = ["S summary", ...Array.from({ length: 3000 }, (_, i) => `{"run":"r${i}","text":"${"é".repeat(i % 700)}"}`)];

describe("cache entries", () => {
  it("are read back as written, across read chunks (a body of 2 MB)", () => {
    const bytes = encoded('{"stamp":1}', LINES);
    expect(bytes.length).toBeGreaterThan(3 * 2 ** 20 / 2);
    expect(readBack(bytes)).toEqual({ stamp: '{"stamp":1}', first: "S summary", rest: `${LINES.slice(1).join("\n")}\n` });
  });

  it("are their stamp line, their lines and the hash of those lines, byte for byte, whatever the lines' lengths and characters", () => {
    // Lines around the encoding buffer's bounds (1 MB: a line of over a third of it is encoded on its own), surrogate pairs and lone ones.
    const lines = ["S 😀 a pair", "lone \ud800 and \udfff", "x".repeat(100_000), "€".repeat(320_000), "x".repeat(349_000), "é".repeat(349_600), "y".repeat(400_000), "", "z".repeat(1_500_000), ...LINES.slice(1, 400)];
    for (const stamp of ['{"stamp":"s"}', `{"long":"${"p".repeat(400_000)}"}`]) {
      const body = Buffer.from(lines.map((line) => `${line}\n`).join(""));
      const expected = Buffer.concat([Buffer.from(`${stamp}\n`), body, Buffer.from(`#${hasher.hash(body)}\n`)]);
      expect(encoded(stamp, lines).equals(expected)).toBe(true);
    }
  });

  it("are told corrupt when truncated anywhere, a bit flipped, or a line added or lost", () => {
    const whole = encoded('{"stamp":2}', ["S one", "R two", "R three"]);
    const stampEnd = whole.indexOf(10) + 1;
    const damaged: Array<[string, Buffer]> = [];
    for (let length = stampEnd; length < whole.length; length += 3) damaged.push([`truncated to ${length}`, whole.subarray(0, length)]);
    for (let at = stampEnd; at < whole.length - 1; at++) {
      const copy = Buffer.from(whole);
      copy[at] = copy[at]! ^ 0x04;
      damaged.push([`bit flipped at ${at}`, copy]);
    }
    damaged.push(["a line added", Buffer.concat([whole, Buffer.from("R four\n")])]);
    damaged.push(["a line lost", Buffer.concat([whole.subarray(0, stampEnd), whole.subarray(whole.indexOf(10, stampEnd) + 1)])]);
    for (const [what, bytes] of damaged) expect(() => readBack(bytes), what).toThrow(CorruptEntry);
    // The pack cut short: the index promises more bytes than the file has.
    for (const cut of [stampEnd + 2, whole.length - 10, whole.length - 1]) expect(() => readBack(whole.subarray(0, cut), whole.length), `pack cut at ${cut}`).toThrow(CorruptEntry);
    expect(readBack(whole).rest).toBe("R two\nR three\n");
  });

  it("without a stamp line at their place cannot be opened", () => {
    const { fd, offset } = placed(Buffer.from("no newline at all"));
    expect(openEntry(fd, offset, 17, hasher, 0)).toBeUndefined();
    expect(openEntry(fd, offset + 100, 17, hasher, 0)).toBeUndefined();
  });

  it("take bytes as they are among the lines, and are read back whole in one buffer, damage told the same", () => {
    // Bytes with no newline of their own and a '#' line, then a last line: as a kept output is written (reportCache.ts).
    const bytes = Buffer.from(`# a heading\n${"ü".repeat(700_000)}\nno newline at the end`);
    const whole = encoded('{"stamp":3}', ['{"meta":1}', bytes, "tail"]);
    const read = (entryBytes: Buffer, length?: number): { first: string; rest: string } => {
      const { fd, offset, length: at } = placed(entryBytes, length);
      const { first, rest } = openEntry(fd, offset, at, hasher, 0)!.readWhole();
      return { first, rest: rest.toString("utf8") };
    };
    expect(read(whole)).toEqual({ first: '{"meta":1}', rest: `${bytes.toString("utf8")}tail\n` });
    expect(readBack(whole).rest).toBe(`${bytes.toString("utf8")}tail\n`);
    for (const at of [whole.indexOf(10) + 3, Math.floor(whole.length / 2), whole.length - 20]) {
      const copy = Buffer.from(whole);
      copy[at] = copy[at]! ^ 0x04;
      expect(() => read(copy), `bit flipped at ${at}`).toThrow(CorruptEntry);
    }
    expect(() => read(whole.subarray(0, whole.length - 30))).toThrow(CorruptEntry);
    expect(() => read(whole.subarray(0, whole.length - 30), whole.length), "pack cut short").toThrow(CorruptEntry);
  });

  it("keep a stamp line longer than a read chunk", () => {
    const stamp = JSON.stringify({ paths: Array.from({ length: 40_000 }, (_, i) => `/a/long/path/to/session-${i}.jsonl`) });
    const bytes = encoded(stamp, ["S x"]);
    expect(readBack(bytes)).toEqual({ stamp, first: "S x", rest: "" });
    expect(() => readBack(bytes.subarray(0, 500_000), bytes.length), "cut inside the stamp").toThrow(CorruptEntry);
  });
});
