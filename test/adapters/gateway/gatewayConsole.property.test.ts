/** Both forms of a Gateway log, in process: any sequence of records reads the same in each, and text-form accounting holds. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory } from "../../../src/adapters/adapter.js";
import { gatewayLogAdapter } from "../../../src/adapters/gateway/gatewayLog.js";
import { textSource } from "../../../src/adapters/io/sources.js";
import type { LiveEvent } from "../../../src/core/liveEvents.js";

/** [subsystem, or null for a captured console line whose text carries it, message] */
type Rec = [string | null, string];

const RECORDS: readonly Rec[] = [
  ["agent/embedded", "embedded run start: runId=r1 sessionId=s1"],
  ["agent/embedded", "embedded run start: runId=r2"],
  ["agent/embedded", "embedded run tool start: runId=r1 tool=exec"],
  ["agent/embedded", "embedded run tool start: runId=r2 tool=read"],
  ["agent/embedded", "embedded run done: runId=r1"],
  ["agent/embedded", "context overflow detected (attempt 1/3); attempting auto-compaction for m"],
  ["agent/embedded", "auto-compaction succeeded for m; retrying prompt"],
  ["agents/loop-detection", "Loop warning: exec called 10 times with identical arguments"],
  ["agents/loop-detection", "Critical generic loop detected: read repeated 20 times"],
  ["agents/tools", "Loop warning for exec: WARNING: You have called exec 10 times with identical arguments."],
  ["diagnostic", "tool loop: tool=exec level=warning action=warn detector=generic_repeat count=10"],
  ["agents/post-compaction-guard", "post-compaction guard armed for 3 attempts"],
  ["agents/loop-detection", "Loop warning: exec called ten times"],
  [null, "[tools] exec failed: Error: spawn ENOENT"],
  [null, "\u001b[31m[tools]\u001b[39m read failed: ENOENT"],
  [null, "[agents/loop-detection] Critical generic loop detected: exec repeated 20 times"],
  [null, "Gateway listening"],
  ["gateway", "heartbeat ok"],
];

const at = (i: number) => new Date(Date.UTC(2026, 5, 16, 0, 0, i)).toISOString();

const jsonLine = ([subsystem, message]: Rec, i: number) =>
  JSON.stringify({ "0": subsystem === null ? message : JSON.stringify({ subsystem }), ...(subsystem === null ? {} : { "1": message }), _meta: { logLevelName: "INFO", date: at(i) } });
const textLine = ([subsystem, message]: Rec, i: number) => `${at(i)} ${subsystem === null ? message : `[${subsystem}] ${message}`}`;

async function read(text: string): Promise<{ counts: LineTally["counts"]; events: LiveEvent[]; diagnostics: number[] }> {
  const tally = new LineTally();
  const events: LiveEvent[] = [];
  const emit = (event: unknown) => (events.push(event as LiveEvent), { used: true as const });
  await gatewayLogAdapter.read(textSource("t.log", text), { tally, unit: new UnitHistory(["t.log"], false), options: {}, emit });
  return { counts: tally.counts, events, diagnostics: tally.diagnostics.map((d) => d.line) };
}

describe("the text console form, any sequence of records", () => {
  it("reads exactly like the JSON form: same live events, counts and diagnosed lines", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...RECORDS), { maxLength: 40 }), async (rest) => {
        // Led by a record of the full shape, which tells the form (console text alone does not).
        const records = [RECORDS[0]!, ...rest];
        const json = await read(`${records.map(jsonLine).join("\n")}\n`);
        const text = await read(`${records.map(textLine).join("\n")}\n`);
        expect(text.events).toEqual(json.events);
        expect(text.counts).toEqual(json.counts);
        expect(text.diagnostics).toEqual(json.diagnostics);
      }),
      { numRuns: 150 },
    );
  });

  it("with continuation lines, garbage and blank lines: every line accounted for, continuations ignored", async () => {
    const line = fc.oneof(
      fc.constantFrom(...RECORDS).map((record) => ({ kind: "record" as const, record })),
      fc.constantFrom("    at f (x.js:1:1)", "  code: 'ENOENT',", "}").map((text) => ({ kind: "continuation" as const, text })),
      fc.constantFrom("garbage words", "{not json", "").map((text) => ({ kind: "other" as const, text })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), async (lines) => {
        // A record first: the file is then of the text form whatever follows.
        const all = [{ kind: "record" as const, record: RECORDS[0]! }, ...lines];
        const text = `${all.map((l, i) => (l.kind === "record" ? textLine(l.record, i) : l.text)).join("\n")}\n`;
        const { counts, events } = await read(text);
        expect(counts.read).toBe(all.length);
        expect(counts.used + counts.ignored + counts.skipped).toBe(counts.read);
        expect(counts.ignored).toBeGreaterThanOrEqual(all.filter((l) => l.kind === "continuation").length);
        const order = events.map((e) => e.line);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        for (const event of events) expect(all[event.line - 1]!.kind).toBe("record");
      }),
      { numRuns: 150 },
    );
  });
});
