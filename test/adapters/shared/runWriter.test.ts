/**
 * The run writer (shared/runWriter.ts): the one rule of run dating, runs without calls, final run
 * ends, foreign formats and the accounting of refused events, for every adapter at once.
 */
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory, type AdapterContext } from "../../../src/adapters/adapter.js";
import { LineEvents } from "../../../src/adapters/shared/lineEvents.js";
import type { Emitted } from "../../../src/adapters/shared/runFacts.js";
import { RunWriter } from "../../../src/adapters/shared/runWriter.js";
import type { LoopEvent } from "../../../src/core/events.js";
import type { LiveEvent } from "../../../src/core/liveEvents.js";

/** A context whose replay refuses every result (as one whose call it never saw). */
function context(closeRuns = false) {
  const events: LoopEvent[] = [];
  const tally = new LineTally();
  const ctx: AdapterContext = {
    tally,
    unit: new UnitHistory(["f"], false),
    options: { closeRuns },
    emit(event: LoopEvent | LiveEvent): Emitted {
      events.push(event as LoopEvent);
      return event.type === "tool_result" ? { used: false, reason: "matches no call" } : { used: true };
    },
  };
  return { ctx, events, tally };
}

const owner = () => ({ session: "s", agent: "a" });
const at = (line: number) => ({ file: "f", line });
const call = { id: "c1", tool: "read", args: { p: 1 }, form: "text" } as const;

describe("run writer", () => {
  it("dates a run by its start's time, once, on its next event; a start dates its run anew", () => {
    const { ctx, events } = context();
    const writer = new RunWriter(ctx, owner);
    writer.startRun("r", at(1), { time: "t1", announce: "ifSilent" });
    writer.call("r", at(2), call);
    writer.call("r", at(3), call);
    writer.startRun("r", at(4), { time: "t2", announce: "now" }); // the same run started again
    expect(events.map((event) => [event.line, event.ts])).toEqual([
      [2, "t1"],
      [3, undefined],
      [4, "t2"],
    ]);
  });

  it("dates a run without a dated start by its first dated line, not by later ones", () => {
    const { ctx, events } = context();
    const writer = new RunWriter(ctx, owner);
    writer.offerTime("r", "t1");
    writer.offerTime("r", "t2");
    writer.call("r", at(1), call);
    writer.offerTime("r", "t3");
    writer.call("r", at(2), call);
    writer.offerTime("other", "t4");
    writer.call("r", at(3), call); // a time offered for another run is not this one's
    expect(events.map((event) => event.ts)).toEqual(["t1", undefined, undefined]);
  });

  it("counts a run without calls with a lone run_start at its start, and only then", () => {
    const { ctx, events } = context();
    const writer = new RunWriter(ctx, owner);
    writer.startRun("quiet", at(1), { announce: "ifSilent" });
    writer.startRun("busy", at(2), { announce: "ifSilent" });
    writer.call("busy", at(3), call);
    writer.endFile();
    expect(events.map((event) => `${event.type} ${event.run} ${event.line}`)).toEqual(["run_start quiet 1", "tool_call busy 3"]);
  });

  it("ends the open run with a final run end under closeRuns, unless its name may recur", () => {
    const { ctx, events } = context(true);
    const writer = new RunWriter(ctx, owner, { mayRecur: (run) => run === "again" });
    writer.startRun("r1", at(1), { announce: "now" });
    writer.call("r1", at(2), call);
    writer.startRun("again", at(3), { announce: "now" });
    writer.startRun("r3", at(4), { announce: "now" });
    writer.endRun();
    const ends = events.filter((event) => event.type === "run_end");
    expect(ends.map((event) => [event.run, event.line, event.type === "run_end" && event.final])).toEqual([
      ["r1", 2],
      ["r3", 4],
    ].map(([run, line]) => [run, line, true]));
  });

  it("ends no run when the caller did not ask for it", () => {
    const { ctx, events } = context(false);
    const writer = new RunWriter(ctx, owner);
    writer.startRun("r1", at(1), { announce: "now" });
    writer.endRun();
    expect(events.some((event) => event.type === "run_end")).toBe(false);
  });

  it("puts a foreign format on every call, and none on OpenClaw's", () => {
    const { ctx, events } = context();
    new RunWriter(ctx, owner, { format: "codex" }).call("r", at(1), call);
    new RunWriter(ctx, owner).call("r", at(2), call);
    expect(events.map((event) => (event.type === "tool_call" ? event.format : "?"))).toEqual(["codex", undefined]);
  });

  it("says why replay refused an event at its place, naming where in the line it was", () => {
    const { ctx, tally } = context();
    const writer = new RunWriter(ctx, owner);
    const emitted = writer.result("r", { file: "f", line: 7, within: "history[2]" }, { id: "x", tool: undefined, outcome: { error: "e" }, form: "text" });
    expect(emitted.used).toBe(false);
    expect(tally.diagnostics).toEqual([{ file: "f", line: 7, reason: "history[2]: matches no call" }]);
    expect(tally.counts.read).toBe(0); // the line is its owner's to count
  });
});

describe("line events", () => {
  it("counts a line once its last event was handed over: used when any was used, else ignored", () => {
    const tally = new LineTally();
    const mixed = new LineEvents(tally);
    mixed.expect();
    mixed.settle({ used: false, reason: "no call" }); // handed over before the line's next event was expected
    mixed.expect();
    mixed.seal();
    expect(tally.counts.read).toBe(0);
    mixed.settle({ used: true });
    const refused = new LineEvents(tally);
    refused.expect();
    refused.seal();
    refused.settle({ used: false, reason: "no call" });
    expect(tally.counts).toEqual({ read: 2, used: 1, ignored: 1, skipped: 0 });
  });
});
