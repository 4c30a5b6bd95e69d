/**
 * Bad bytes in Gemini recordings, as test/hostile/badLines.test.ts checks them for the other formats
 * (its per-format table needs a "gemini-cli" entry: these are the lines for it).
 */
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory } from "../../../src/adapters/adapter.js";
import { geminiCliAdapter } from "../../../src/adapters/gemini/geminiAdapter.js";
import { TOO_LONG_LINE, type LineSource } from "../../../src/adapters/io/lineSource.js";
import { analyzePaths } from "../../helpers/inProcess.js";
import { writeChat } from "./geminiRecording.js";

const BAD = Buffer.from([0xc3, 0x28]); // not UTF-8
export const GOOD_LINE = Buffer.from('{"sessionId":"s1","projectHash":"p1","startTime":"2026-01-01T00:00:00.000Z","lastUpdated":"2026-01-01T00:00:00.000Z","kind":"main"}');
export const BAD_BYTES_LINE = Buffer.concat([Buffer.from('{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":"a'), BAD, Buffer.from('"}')]);

describe("bad bytes in Gemini recordings", () => {
  it("a line with invalid UTF-8 in a string is used and noted; one with it outside strings is skipped", async () => {
    const path = writeChat(Buffer.concat([GOOD_LINE, Buffer.from("\n"), BAD_BYTES_LINE, Buffer.from("\n{"), BAD, Buffer.from("}\n")]), "utf8.jsonl");
    const analysis = await analyzePaths([path]);
    expect(analysis.files).toEqual([{ file: path, format: "gemini-cli" }]);
    expect(analysis.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
    expect(analysis.diagnostics).toEqual([
      { file: path, line: 2, reason: "invalid UTF-8 (replaced by U+FFFD)" },
      { file: path, line: 3, reason: "not valid JSON: invalid UTF-8" },
    ]);
  });

  it("an over-long line is skipped with its size, and reading goes on", async () => {
    const source: LineSource = {
      file: "big.jsonl",
      size: undefined,
      async forEachLine(handler) {
        handler(GOOD_LINE.toString(), 1, true);
        handler(TOO_LONG_LINE, 2, true, { tooLong: 300 * 2 ** 20 });
        handler(GOOD_LINE.toString(), 3, true);
      },
    };
    const tally = new LineTally();
    await geminiCliAdapter.read(source, { tally, unit: new UnitHistory([source.file], false), options: {}, emit: () => ({ used: true }) });
    expect(tally.counts.read).toBe(3);
    expect(tally.counts.skipped).toBe(1);
    expect(tally.diagnostics).toContainEqual({ file: "big.jsonl", line: 2, reason: `line too long (${300 * 2 ** 20} bytes, over the 32 MiB limit); not read (--max-line-bytes raises the limit)` });
  });
});
