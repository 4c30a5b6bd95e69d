/** How results are linked to calls (inputs.md §1: "`id` links a result to its call"). */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/core/config.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { createHashing } from "../../../src/core/hashing.js";
import { EventPreparer } from "../../../src/core/prepare.js";
import { Replayer } from "../../../src/core/replay.js";

const at = (line: number) => ({ file: "f.jsonl", line, run: "r1" });

function prepare(events: readonly LoopEvent[]) {
  const preparer = new EventPreparer(createHashing((text) => text));
  return events.map((event) => preparer.prepare(event));
}

describe("result linking", () => {
  it("does not give a duplicate result (its id already answered) to an id-less call of the same tool", () => {
    const dispositions = prepare([
      { type: "tool_call", ...at(1), tool: "read", args: { path: "a" } },
      { type: "tool_call", ...at(2), id: "c2", tool: "read", args: { path: "b" } },
      { type: "tool_result", ...at(3), tool: "read", result: "b" }, // no id: the newest pending read, c2
      { type: "tool_result", ...at(4), id: "c2", tool: "read", result: "b" }, // c2 again: a duplicate
    ]);
    const third = dispositions[2]!;
    expect(third.used && third.prepared.type === "outcome" && third.prepared.call).toBe(2);
    expect(dispositions[3]).toEqual({ used: false, reason: 'result (id "c2") matches no call of run "r1"; not replayed' });
  });

  it("never links a result with an id to an id-less call, and never appends it as an extra record", () => {
    // Three id-less calls, each followed by a result with an id no call has: not replayed, so "read"
    // was called (and recorded) exactly 3 times before the 4th.
    const events: LoopEvent[] = [];
    for (let i = 0; i < 3; i++) {
      events.push({ type: "tool_call", ...at(2 * i + 1), tool: "read", args: { path: "a" } });
      events.push({ type: "tool_result", ...at(2 * i + 2), id: `x${i}`, tool: "read", result: "same" });
    }
    events.push({ type: "tool_call", ...at(7), tool: "read", args: { path: "a" } });
    const replayer = new Replayer(() => ({ ...DEFAULT_CONFIG, enabled: true, warningThreshold: 3, criticalThreshold: 10 }));
    const dispositions = prepare(events);
    expect(dispositions.filter((d) => !d.used)).toHaveLength(3);
    for (const disposition of dispositions) if (disposition.used) replayer.push(disposition.prepared);
    const findings = replayer.finish().flatMap((run) => [...run.findings]);
    expect(findings.map((f) => [f.call, f.detector, f.level, f.count])).toEqual([[4, "generic_repeat", "warning", 3]]);
  });
});
