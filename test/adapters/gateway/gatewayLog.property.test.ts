/** The Gateway-log adapter in process: accounting holds for any mix of lines, and output stays in line order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory } from "../../../src/adapters/adapter.js";
import { gatewayLogAdapter } from "../../../src/adapters/gateway/gatewayLog.js";
import { classify } from "../../../src/adapters/gateway/messages.js";
import { LiveAttribution } from "../../../src/adapters/gateway/liveAttribution.js";
import { textSource } from "../../../src/adapters/io/sources.js";
import type { LiveEvent } from "../../../src/core/liveEvents.js";

const tslog = (subsystem: string, message: string) =>
  JSON.stringify({ "0": JSON.stringify({ subsystem }), "1": message, _meta: { logLevelName: "INFO", date: "2026-05-03T10:00:00.000Z" } });

const MESSAGES: ReadonlyArray<[string, string]> = [
  ["agent/embedded", "embedded run start: runId=r1"],
  ["agent/embedded", "embedded run start: runId=r2"],
  ["agent/embedded", "embedded run tool start: runId=r1 tool=exec"],
  ["agent/embedded", "embedded run tool start: runId=r2 tool=read"],
  ["agent/embedded", "embedded run done: runId=r1"],
  ["agent/embedded", "embedded run done: runId=r2"],
  ["agent/embedded", "auto-compaction succeeded for m; retrying prompt"],
  ["agents/loop-detection", "Loop warning: exec called 10 times with identical arguments"],
  ["agents/loop-detection", "Critical generic loop detected: read repeated 20 times"],
  ["agents/tools", "Loop warning for exec: WARNING: You have called exec 10 times with identical arguments."],
  ["agents/tools", "Blocking read due to critical loop: CRITICAL: attempted unavailable tool read 10 times."],
  ["diagnostic", "tool loop: tool=exec level=warning action=warn detector=generic_repeat count=10"],
  ["agents/post-compaction-guard", "post-compaction guard armed for 3 attempts"],
  ["agents/loop-detection", "Loop warning: exec called ten times"],
  ["gateway", "heartbeat ok"],
];

const line = fc.oneof(
  fc.constantFrom(...MESSAGES).map(([subsystem, message]) => tslog(subsystem, message)),
  fc.constantFrom(...MESSAGES).chain(([subsystem, message]) =>
    fc.nat({ max: message.length }).map((cut) => tslog(subsystem, message.slice(0, cut))),
  ),
  fc.string({ maxLength: 40 }).filter((s) => !s.includes("\n")),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

describe("Gateway-log adapter, any mix of lines", () => {
  it("never throws, accounts for every line, and emits live events in line order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 60 }), async (lines) => {
        const tally = new LineTally();
        const emitted: LiveEvent[] = [];
        const text = lines.join("\n");
        await gatewayLogAdapter.read(textSource("t.log", text), {
          tally,
          unit: new UnitHistory(["t.log"], false),
          options: {},
          emit: (event) => {
            emitted.push(event as LiveEvent);
            return { used: true };
          },
        });
        const { read, used, ignored, skipped } = tally.counts;
        // A final newline ends the last line rather than starting another one.
        expect(read).toBe(text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
        expect(used + ignored + skipped).toBe(read);
        const order = emitted.map((e) => e.line);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(emitted.length).toBeLessThanOrEqual(used);
      }),
      { numRuns: 200 },
    );
  });

  it("an event waiting for echoes holds back only a bounded queue", () => {
    const events: LiveEvent[] = [];
    const attribution = new LiveAttribution((event) => events.push(event));
    const at = (line: number, message: string) => ({ file: "t.log", line, ts: undefined, message });
    const feed = (line: number, subsystem: string, message: string) => attribution.handle(classify(subsystem, message), at(line, message));
    feed(1, "agent/embedded", "embedded run start: runId=quiet");
    feed(2, "agents/loop-detection", "Loop warning: exec called 10 times with identical arguments");
    feed(3, "agent/embedded", "embedded run start: runId=busy");
    for (let n = 4; n < 5000; n++) feed(n, "agent/embedded", "embedded run tool start: runId=busy tool=read");
    expect(events.length).toBeGreaterThan(800); // the open warning was settled early; the rest flowed
    expect(events.map((e) => e.line)).toEqual(events.map((_, i) => i + 1));
    attribution.finish();
    expect(events).toHaveLength(4999);
  });
});
