/** What a watch reads of a file being written (sources.ts `completeLines`): its complete lines only. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileSource } from "../../src/adapters/io/sources.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-complete-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(path: string, completeLines: boolean): Promise<Array<[string, boolean]>> {
  const source = await fileSource(path, { completeLines });
  const lines: Array<[string, boolean]> = [];
  await source.forEachLine((text, _n, terminated) => void lines.push([text.length > 20 ? `${text.slice(0, 8)}…(${text.length})` : text, terminated]));
  await source.forEachLine(() => undefined); // a second pass reads the same (sources may be read twice)
  source.release?.();
  return lines;
}

describe("complete lines only", () => {
  it("a small file: the trailing partial line is held; analyze would read it as cut off", async () => {
    const file = join(dir, "s.jsonl");
    writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":');
    expect(await linesOf(file, true)).toEqual([
      ['{"a":1}', true],
      ['{"a":2}', true],
    ]);
    expect((await linesOf(file, false)).at(-1)).toEqual(['{"a":', false]);
  });

  it("a file larger than one read: stops at the last newline, however far back it is", async () => {
    const file = join(dir, "big.jsonl");
    const line = `{"pad":"${"x".repeat(300_000)}"}`;
    writeFileSync(file, `${line}\n${line}\n${line}\n${"y".repeat(700_000)}`);
    expect(await linesOf(file, true)).toEqual([
      ['{"pad":"…(300010)', true],
      ['{"pad":"…(300010)', true],
      ['{"pad":"…(300010)', true],
    ]);
  });

  it("no newline yet: nothing; a compressed file and a .json document are read whole", async () => {
    writeFileSync(join(dir, "new.jsonl"), '{"type":"session"');
    expect(await linesOf(join(dir, "new.jsonl"), true)).toEqual([]);
    writeFileSync(join(dir, "old.jsonl.gz"), gzipSync('{"a":1}\n{"a":2}'));
    expect(await linesOf(join(dir, "old.jsonl.gz"), true)).toEqual([
      ['{"a":1}', true],
      ['{"a":2}', false],
    ]);
    writeFileSync(join(dir, "7.json"), '{"id":7}');
    expect(await linesOf(join(dir, "7.json"), true)).toEqual([['{"id":7}', false]]);
  });
});
