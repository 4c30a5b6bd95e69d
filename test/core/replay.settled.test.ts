/**
 * Runs closed by a `final` run end are handed out at once (ReplayOptions.onSettled), in order of
 * first appearance, and what is handed out plus what `finish()` returns is what a replay holding
 * every run to the end gives.
 */
import { describe, expect, it } from "vitest";
import type { ReplayedRun } from "../../src/core/findings.js";
import { createHashing } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { repeat, type EventLine } from "../helpers/events.js";
import { configWith, identityDigest, toLoopEvents } from "../helpers/replay.js";

function replayStreaming(lines: readonly EventLine[]): { settled: ReplayedRun[]; atFinish: ReplayedRun[]; settledBeforeEnd: number[] } {
  const preparer = new EventPreparer(createHashing(identityDigest));
  const settled: ReplayedRun[] = [];
  const settledBeforeEnd: number[] = [];
  const config = configWith();
  const replayer = new Replayer(() => config, undefined, { onSettled: (run) => void settled.push(run) });
  for (const [index, event] of toLoopEvents(lines).entries()) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
    settledBeforeEnd[index] = settled.length;
  }
  return { settled, atFinish: replayer.finish(), settledBeforeEnd };
}

function replayHolding(lines: readonly EventLine[]): ReplayedRun[] {
  const preparer = new EventPreparer(createHashing(identityDigest));
  const config = configWith();
  const replayer = new Replayer(() => config);
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
  }
  return replayer.finish();
}

const end = (run: string, final = true): EventLine => ({ type: "run_end", run, ...(final ? { final: true } : {}) });

describe("runs handed out as they settle", () => {
  it("hands out a run at its final run end, and one that waits behind an open run later", () => {
    const lines = [
      ...repeat(12, "a", "read", { p: 1 }, "same", "a"),
      ...repeat(2, "b", "read", { p: 2 }, "x", "b"),
      end("b"), // b is over, but a (which appeared first) is not: b waits
      ...repeat(1, "a", "read", { p: 3 }, "y", "a2-"),
      end("a"),
      ...repeat(1, "c", "read", { p: 4 }, "z", "c"),
    ];
    const { settled, atFinish, settledBeforeEnd } = replayStreaming(lines);
    expect(settled.map((run) => run.run)).toEqual(["a", "b"]);
    expect(atFinish.map((run) => run.run)).toEqual(["c"]);
    // b was not handed out before a's end; both left at it
    expect(settledBeforeEnd[lines.indexOf(lines.find((l) => l.type === "run_end" && l.run === "a")!)]).toBe(2);
    expect(settledBeforeEnd[lines.findIndex((l) => l.type === "run_end" && l.run === "b")]).toBe(0);
    expect([...settled, ...atFinish]).toEqual(replayHolding(lines));
    expect(settled[0]!.findings.length).toBeGreaterThan(0);
  });

  it("holds runs ended without `final` (input run ends may be followed by the same run again)", () => {
    const lines = [...repeat(3, "a", "read", { p: 1 }, "same", "a"), end("a", false), ...repeat(9, "a", "read", { p: 1 }, "same", "b")];
    const { settled, atFinish } = replayStreaming(lines);
    expect(settled).toEqual([]);
    expect(atFinish).toEqual(replayHolding(lines));
    expect(atFinish[0]!.calls).toBe(12);
  });

  it("gives the held replay's runs on many random interleavings", () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 40; trial++) {
      const lines: EventLine[] = [];
      const open: string[] = [];
      let runs = 0;
      for (let step = 0; step < 200; step++) {
        if (open.length === 0 || next() < 0.15) open.push(`r${runs++}`);
        const run = open[Math.floor(next() * open.length)]!;
        if (next() < 0.2) {
          lines.push(end(run));
          open.splice(open.indexOf(run), 1);
        } else lines.push(...repeat(1, run, "read", { p: Math.floor(next() * 3) }, "same", `${run}-${step}-`));
      }
      const { settled, atFinish } = replayStreaming(lines);
      expect([...settled, ...atFinish]).toEqual(replayHolding(lines));
    }
  });
});
