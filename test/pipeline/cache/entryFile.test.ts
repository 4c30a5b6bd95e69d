/**
 * Entries on disk (entryFile.ts): written whole or not at all, read back exactly (in chunks, or whole
 * in one buffer), and any damage (truncation anywhere, one flipped bit, a missing or extra line)
 * told before the body is used.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadByteHasher, type ByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { CorruptEntry, entryPath, makeFolder, openEntry, writeEntry } from "../../../src/pipeline/cache/entryFile.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
let hasher: ByteHasher;
beforeAll(async () => {
  dir = tempDir("looplens-entries-");
  hasher = await loadByteHasher();
});

/** The body's first line and the rest, as an entry reads them back; throws CorruptEntry. */
function readBack(path: string): { stamp: string; first: string; rest: string } {
  const entry = openEntry(path, hasher);
  if (!entry) throw new CorruptEntry("cannot open");
  const rest: Buffer[] = [];
  let first = "";
  try {
    entry.readBody((line) => {
      first = line;
      return (bytes) => void rest.push(Buffer.from(bytes));
    });
  } finally {
    entry.close();
  }
  return { stamp: entry.stamp, first, rest: Buffer.concat(rest).toString("utf8") };
}

const LINES = ["S summary", ...Array.from({ length: 3000 }, (_, i) => `{"run":"r${i}","text":"${"é".repeat(i % 700)}"}`)];

describe("cache entries", () => {
  it("are read back as written, across read chunks (a body of 2 MB)", () => {
    const path = entryPath(dir, "00112233aabbccdd");
    expect(path).toBe(join(dir, "entries", "00", "00112233aabbccdd.ndjson"));
    writeEntry(path, '{"stamp":1}', LINES, hasher);
    expect(readFileSync(path).length).toBeGreaterThan(3 * 2 ** 20 / 2);
    expect(readBack(path)).toEqual({ stamp: '{"stamp":1}', first: "S summary", rest: `${LINES.slice(1).join("\n")}\n` });
    expect(readdirSync(join(dir, "entries", "00"))).toEqual(["00112233aabbccdd.ndjson"]); // no temporary file left
  });

  it("are told corrupt when truncated anywhere, a bit flipped, or a line added or lost", () => {
    const path = entryPath(dir, "ffee000000000001");
    writeEntry(path, '{"stamp":2}', ["S one", "R two", "R three"], hasher);
    const whole = readFileSync(path);
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
    for (const [what, bytes] of damaged) {
      writeFileSync(path, bytes);
      expect(() => readBack(path), what).toThrow(CorruptEntry);
    }
    writeFileSync(path, whole);
    expect(readBack(path).rest).toBe("R two\nR three\n");
  });

  it("without a stamp line, or missing, cannot be opened", () => {
    const path = entryPath(dir, "ab00000000000000");
    makeFolder(join(dir, "entries", "ab"));
    writeFileSync(path, "no newline at all");
    expect(openEntry(path, hasher)).toBeUndefined();
    expect(openEntry(join(dir, "nothing-here"), hasher)).toBeUndefined();
  });

  it("take bytes as they are among the lines, and are read back whole in one buffer, damage told the same", () => {
    const path = entryPath(dir, "ee00000000000000");
    // Bytes with no newline of their own and a '#' line, then a last line: as a kept output is written (reportCache.ts).
    const bytes = Buffer.from(`# a heading\n${"ü".repeat(700_000)}\nno newline at the end`);
    writeEntry(path, '{"stamp":3}', ['{"meta":1}', bytes, "tail"], hasher);
    const read = (): { first: string; rest: string } => {
      const entry = openEntry(path, hasher)!;
      try {
        const { first, rest } = entry.readWhole();
        return { first, rest: rest.toString("utf8") };
      } finally {
        entry.close();
      }
    };
    expect(read()).toEqual({ first: '{"meta":1}', rest: `${bytes.toString("utf8")}tail\n` });
    expect(readBack(path).rest).toBe(`${bytes.toString("utf8")}tail\n`);
    const whole = readFileSync(path);
    for (const at of [whole.indexOf(10) + 3, Math.floor(whole.length / 2), whole.length - 20]) {
      const copy = Buffer.from(whole);
      copy[at] = copy[at]! ^ 0x04;
      writeFileSync(path, copy);
      expect(read, `bit flipped at ${at}`).toThrow(CorruptEntry);
    }
    writeFileSync(path, whole.subarray(0, whole.length - 30));
    expect(read).toThrow(CorruptEntry);
  });

  it("keep a stamp line longer than a read chunk", () => {
    const path = entryPath(dir, "cd00000000000000");
    const stamp = JSON.stringify({ paths: Array.from({ length: 40_000 }, (_, i) => `/a/long/path/to/session-${i}.jsonl`) });
    writeEntry(path, stamp, ["S x"], hasher);
    expect(readBack(path)).toEqual({ stamp, first: "S x", rest: "" });
  });
});
