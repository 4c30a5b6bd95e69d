/**
 * Turns handed to replay unprepared (core/replay.ts `Replayer.turn`, what reading does for analyze:
 * pipeline/reading.ts `Delivery.turn`) replay as the same turns prepared and pushed: the same runs,
 * usage and all, whether the turn's run is the last event's, another run, a closed one or a new one.
 */
import { describe, expect, it } from "vitest";
import type { LoopEvent, TurnEvent } from "../../src/core/events.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { call, repeat, result, textResult, type EventLine } from "../helpers/events.js";
import { configWith, hashing, toLoopEvents } from "../helpers/replay.js";

const turn = (run: string, key: string, total: number, extra: EventLine = {}): EventLine => ({ type: "turn", run, turn: key, usage: { total, cost: total / 100 }, ...extra });

/** Every event prepared and pushed, or (`unprepared`) the turns handed to `turn` as reading hands them. */
function replay(events: readonly LoopEvent[], unprepared: boolean) {
  const preparer = new EventPreparer(hashing);
  const replayer = new Replayer(() => configWith({ warningThreshold: 3, criticalThreshold: 5 }));
  for (const event of events) {
    if (unprepared && event.type === "turn") {
      replayer.turn(event as TurnEvent);
      continue;
    }
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared, event);
  }
  return replayer.finish();
}

describe("turns handed to replay unprepared", () => {
  it("give the runs, their usage and their agents that the same turns prepared give", () => {
    const events = toLoopEvents([
      // Run a's turns follow its calls (the common case: its run is the last event's, open); its first names its agent.
      ...repeat(6, "a", "read", { path: "x" }, textResult("same")),
      turn("a", "1", 10, { ts: "2026-01-01T00:00:00Z", agent: "dev" }),
      // Run b opens on a turn that names its agent first, then calls; a turn of run a comes between.
      turn("b", "1", 100, { agent: "ops", session: "s" }),
      call("b", "b1", "exec", { cmd: "ls" }),
      turn("a", "2", 20),
      result("b", "b1", "exec", textResult("ok")),
      turn("b", "2", 200),
      // Run c is ended, then a turn names it again.
      { type: "run_start", run: "c" },
      call("c", "c1", "read", {}),
      turn("c", "1", 1000),
      { type: "run_end", run: "c" },
      turn("c", "2", 2000),
    ]);
    const prepared = replay(events, false);
    const unprepared = replay(events, true);
    expect(unprepared).toEqual(prepared);
    // What the runs say (so that the comparison is not of two empty reports).
    expect(unprepared.map((run) => [run.run, run.agent, run.usage?.total, run.usage?.turns, run.findings.length > 0])).toEqual([
      ["a", "dev", 30, 2, true],
      ["b", "ops", 300, 2, false],
      ["c", null, 3000, 2, false],
    ]);
    expect(unprepared[0]!.usageOnFlagged).toMatchObject({ turns: 1, total: 10 });
  });
});
