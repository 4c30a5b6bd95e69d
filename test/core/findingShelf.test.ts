/**
 * A long run's findings go on the shelf as it makes them (core/findingShelf.ts): an open run holds
 * fewer than a batch of them at any time, and once handed out lists every finding, in order, as a
 * replay without a shelf does. The shelf here is an array (the pipeline's is a file: shelvedFindings.ts).
 */
import { describe, expect, it } from "vitest";
import type { FindingShelf, ShelvedFindings } from "../../src/core/findingShelf.js";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { createHashing } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer, type ReplayOptions } from "../../src/core/replay.js";
import { repeat, textResult, type EventLine } from "../helpers/events.js";
import { configWith, identityDigest, toLoopEvents } from "../helpers/replay.js";

const BATCH = 8;

/** A shelf in memory that counts what was put on it. */
class ArrayShelf implements FindingShelf<ReplayedFinding> {
  readonly batch = BATCH;
  readonly puts: number[] = [];

  open(): ShelvedFindings<ReplayedFinding> {
    const items: ReplayedFinding[] = [];
    return {
      put: (findings) => {
        this.puts.push(findings.length);
        items.push(...findings);
      },
      list: (rest) => [...items, ...rest],
    };
  }
}

/** Replays `lines`; `most`: the most findings the run `watched` held between events. */
function replay(lines: readonly EventLine[], options: ReplayOptions, watched?: string): { runs: ReplayedRun[]; settled: ReplayedRun[]; most: number } {
  const preparer = new EventPreparer(createHashing(identityDigest));
  const settled: ReplayedRun[] = [];
  const replayer = new Replayer(() => configWith(), undefined, { ...options, onSettled: (run) => settled.push(run) });
  let most = 0;
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
    if (watched !== undefined) most = Math.max(most, replayer.peek(watched)?.findings.length ?? 0);
  }
  return { runs: replayer.finish(), settled, most };
}

const findingsOf = (runs: readonly ReplayedRun[]) => runs.map((run) => [...run.findings]);

describe("a replayer with a finding shelf", () => {
  // 200 identical calls: a finding on each from the tenth on.
  const stuck: EventLine[] = [{ type: "run_start", run: "stuck" }, ...repeat(200, "stuck", "read", { path: "/same" }, textResult("same"))];
  const short: EventLine[] = [{ type: "run_start", run: "short" }, ...repeat(12, "short", "read", { path: "/other" }, textResult("other"), "s")];

  it("holds fewer than a batch of an open run's findings, and hands out all of them in order", () => {
    const shelf = new ArrayShelf();
    const held = replay(stuck, {});
    const shelved = replay(stuck, { shelf }, "stuck");
    expect(held.runs[0]!.findings.length).toBeGreaterThan(BATCH * 10);
    expect(shelved.most).toBeLessThan(BATCH);
    expect(shelf.puts.every((n) => n === BATCH)).toBe(true);
    expect(findingsOf(shelved.runs)).toEqual(findingsOf(held.runs));
  });

  it("lists a run settled by its final end from the shelf too, and leaves runs of fewer findings as arrays", () => {
    const lines: EventLine[] = [...short, ...stuck, { type: "run_end", run: "short", final: true }, { type: "run_end", run: "stuck", final: true }];
    const shelf = new ArrayShelf();
    const held = replay(lines, {});
    const shelved = replay(lines, { shelf });
    expect(shelved.settled.map((run) => run.run)).toEqual(["short", "stuck"]);
    expect(findingsOf(shelved.settled)).toEqual(findingsOf(held.settled));
    expect(Array.isArray(shelved.settled[0]!.findings)).toBe(true);
  });
});
