/** The layouts OpenHands writes (documentRecords.ts): every line accounted for once, each record at its own line. */
import { describe, expect, it } from "vitest";
import { LineTally } from "../../../src/adapters/adapter.js";
import { textSource } from "../../../src/adapters/io/sources.js";
import { forEachRecord, type DocumentRecord } from "../../../src/adapters/openhands/documentRecords.js";

async function records(text: string) {
  const tally = new LineTally();
  const seen: Array<[number, string, boolean]> = [];
  await forEachRecord(textSource("x.json", text), tally, (record: DocumentRecord) => {
    seen.push([record.line, record.kind === "object" ? String(record.value.id) : record.reason, record.tallies]);
    if (record.tallies) tally.used();
  });
  return { seen, counts: tally.counts };
}

describe("OpenHands document layouts", () => {
  it("a pretty-printed array: one record per element at its first line, the other lines ignored", async () => {
    const text = JSON.stringify([{ id: 0, s: "a}]\"[{" }, { id: 1, n: { x: [1, 2] } }], null, 2);
    const { seen, counts } = await records(text);
    expect(seen).toEqual([[2, "0", true], [6, "1", true]]);
    expect(counts).toEqual({ read: text.split("\n").length, used: 2, ignored: text.split("\n").length - 2, skipped: 0 });
  });

  it("an array on one line tallies its line once; a pretty single object is one record", async () => {
    expect((await records('[{"id":1},{"id":2}]\n')).seen).toEqual([[1, "1", true], [1, "2", false]]);
    const single = await records(JSON.stringify({ id: 7, kind: "ActionEvent" }, null, 2));
    expect(single.seen).toEqual([[1, "7", true]]);
    expect(single.counts.read).toBe(4);
  });

  it("a bad element is reported and the next is still read; a cut-off document ends with a truncated record", async () => {
    const { seen } = await records('[\n  {"id": 1, oops},\n  5,\n  {"id": 2},\n  {"id": 3,\n');
    expect(seen).toEqual([
      [2, "not valid JSON", true],
      [3, "not a JSON object", true],
      [4, "2", true],
      [5, "truncated record (the file ends at line 5 before it closes)", true],
    ]);
  });
});

describe("OpenHands bad bytes (the cases test/hostile/badLines.test.ts runs per adapter)", () => {
  it("an over-long line is skipped with its size, and reading goes on", async () => {
    const { openhandsAdapter } = await import("../../../src/adapters/openhands/index.js");
    const { UnitHistory } = await import("../../../src/adapters/adapter.js");
    const { TOO_LONG_LINE } = await import("../../../src/adapters/io/lineSource.js");
    const good = '{"id":"e1","source":"user","llm_message":{"role":"user","content":[]},"kind":"MessageEvent"}';
    const source = {
      file: "big.jsonl",
      size: undefined,
      async forEachLine(handler: (text: string, line: number, terminated: boolean, problem?: { tooLong?: number }) => unknown) {
        handler(good, 1, true);
        handler(TOO_LONG_LINE, 2, true, { tooLong: 300 * 2 ** 20 });
        handler(good.replace("e1", "e2"), 3, true);
      },
    };
    const tally = new LineTally();
    await openhandsAdapter.read(source, { tally, unit: new UnitHistory([source.file], false), options: {}, emit: () => ({ used: true }) });
    expect(tally.counts).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
    expect(tally.diagnostics).toContainEqual({ file: "big.jsonl", line: 2, reason: `line too long (${300 * 2 ** 20} bytes, over the 32 MiB limit); not read (--max-line-bytes raises the limit)` });
  });
});
