/**
 * A grown file's appended part (sources.ts `plainFileFrom`, read when a cached or watched file
 * resumes): lines from where the old part ended, and a file gone since it was seen is an InputError
 * (`cannot read PATH: …`) like any read of it — watch tells such a file as gone; a raw file-system error
 * here was printed as an internal error (watch.faults.cli.test.ts met it when a file was deleted under
 * a resumed read).
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/adapters/io/lineSource.js";
import { plainFileFrom } from "../../../src/adapters/io/sources.js";
import { tempDir } from "../../helpers/tempDir.js";

async function linesOf(path: string, start: number, completeLines = false): Promise<string[]> {
  const lines: string[] = [];
  await plainFileFrom(path, start, completeLines).forEachRawLine((bytes, begin, end) => void lines.push(Buffer.from(bytes.subarray(begin, end)).toString("utf8")));
  return lines;
}

describe("plainFileFrom", () => {
  it("reads the lines after the old end, up to the last newline when asked", async () => {
    const file = join(tempDir("looplens-appended-"), "s.jsonl");
    writeFileSync(file, '{"a":1}\n');
    appendFileSync(file, '{"b":2}\n{"c":3}\n{"d":');
    expect(await linesOf(file, 8, true)).toEqual(['{"b":2}', '{"c":3}']);
    expect(await linesOf(file, 8)).toEqual(['{"b":2}', '{"c":3}', '{"d":']);
  });

  it("a file gone since it was seen is an InputError that names it, not a raw ENOENT", () => {
    const file = join(tempDir("looplens-appended-"), "gone.jsonl");
    writeFileSync(file, '{"a":1}\n');
    rmSync(file);
    for (const completeLines of [false, true]) {
      let thrown: unknown;
      try {
        plainFileFrom(file, 8, completeLines);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InputError);
      expect((thrown as Error).message).toBe(`cannot read ${file}: no such file or directory`);
    }
  });
});
