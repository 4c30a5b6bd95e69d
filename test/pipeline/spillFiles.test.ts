/** Spill files (pipeline/spillFiles.ts): what is appended reads back line for line, however long a line is. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SegmentReader, SpillFile } from "../../src/pipeline/spillFiles.js";

const dir = mkdtempSync(join(tmpdir(), "looplens-spill-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a spill file's segments", () => {
  it("read back line for line: short lines, lines across chunk ends, and lines of several chunks", () => {
    const file = new SpillFile(join(dir, "lines.ndjson"));
    const mib = 1 << 20;
    // Read in 1 MiB chunks: lines that end just before, at and after a chunk's end, and 3.5 MiB long.
    const lines = ["a", "é".repeat(mib / 2 - 2), "b".repeat(mib), "c", "d".repeat(Math.floor(3.5 * mib)), "ü€".repeat(300_000), "", "e"];
    const start = file.length;
    for (const line of lines) file.append(line);
    file.flush();
    const reader = new SegmentReader();
    try {
      const read = [...reader.lines({ path: file.path, start, end: file.length })];
      expect(read.map((line) => line.length)).toEqual(lines.map((line) => line.length));
      expect(read).toEqual(lines);
      // A segment that starts after the first lines.
      const second = Buffer.byteLength(lines[0]!) + 1 + Buffer.byteLength(lines[1]!) + 1;
      expect([...reader.lines({ path: file.path, start: second, end: file.length })]).toEqual(lines.slice(2));
    } finally {
      reader.close();
      file.close();
    }
  });
});
