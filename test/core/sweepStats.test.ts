/** Per-config sweep figures: verdicts, counts, median of first blocks, changes, label scores. */
import { describe, expect, it } from "vitest";
import type { FindingLevel, ReplayedFinding, ReplayedRun, RunStop } from "../../src/core/findings.js";
import { ConfigTally, bestConfig, medianOfCounts, runVerdict, verdictChange, type LabelScore, type Labels, type RunVerdict } from "../../src/core/sweepStats.js";

function finding(call: number, level: FindingLevel, afterStop: boolean): ReplayedFinding {
  return {
    run: "r",
    agent: null,
    session: null,
    file: "f.jsonl",
    line: call,
    call,
    tool: "t",
    detector: "generic_repeat",
    level,
    count: call,
    threshold: { name: "warningThreshold", value: 10 },
    afterStop,
    message: "",
    argsHash: "t:x",
  };
}

function run(name: string, findings: ReplayedFinding[], firstStop: RunStop | null, calls = 30): ReplayedRun {
  return { run: name, agent: null, session: null, file: "f.jsonl", calls, compactions: 0, findings, firstStop, guardWindows: [], recordedVetoes: 0 };
}

const healthy = (name: string) => run(name, [], null);
const warnedOnly = (name: string) => run(name, [finding(11, "warning", false)], null);
const blockedAt = (name: string, call: number, warnedBefore = true) =>
  run(name, [...(warnedBefore ? [finding(call - 1, "warning", false)] : []), finding(call, "critical", false), finding(call + 1, "warning", true)], { kind: "block", call });
const abortedAt = (name: string, call: number) => run(name, [finding(call, "abort", false)], { kind: "abort", call });

/** One config's tally of these verdicts, folded one at a time. */
function tallyOf(verdicts: readonly RunVerdict[], labels?: Labels): ConfigTally {
  const tally = new ConfigTally();
  for (const v of verdicts) tally.add(v, labels);
  return tally;
}
const configStats = (verdicts: readonly RunVerdict[]) => tallyOf(verdicts).stats();
const labelScore = (verdicts: readonly RunVerdict[], labels: Labels) => tallyOf(verdicts, labels).score();
const verdictChanges = (before: readonly RunVerdict[], after: readonly RunVerdict[]) => after.flatMap((now, i) => verdictChange(before[i]!.kind, now) ?? []);

/** The multiset of `values` as counts per value. */
function counts(values: readonly number[]): Map<number, number> {
  const map = new Map<number, number>();
  for (const v of values) map.set(v, (map.get(v) ?? 0) + 1);
  return map;
}

describe("run verdicts and config stats", () => {
  it("classifies each run by its first stop, else by a warning", () => {
    expect(runVerdict(healthy("a"))).toMatchObject({ kind: "ok", warned: false, stopCall: null });
    expect(runVerdict(warnedOnly("b"))).toMatchObject({ kind: "warned", warned: true, stopCall: null });
    expect(runVerdict(blockedAt("c", 20))).toMatchObject({ kind: "blocked", warned: true, stopCall: 20 });
    expect(runVerdict(abortedAt("d", 6))).toMatchObject({ kind: "aborted", warned: false, stopCall: 6 });
  });

  it("counts a warning only before the first stop", () => {
    // The only warning comes after the block: the run was not warned before it stopped.
    expect(runVerdict(blockedAt("c", 20, false)).warned).toBe(false);
  });

  it("counts runs warned, blocked and aborted, and the median call of the first blocks", () => {
    const runs = [healthy("a"), warnedOnly("b"), blockedAt("c", 20), blockedAt("d", 12, false), blockedAt("e", 30), abortedAt("f", 6)];
    expect(configStats(runs.map(runVerdict))).toEqual({ runs: 6, warned: 3, blocked: 3, aborted: 1, firstBlockMedianCall: 20 });
  });

  it("the median of no blocks is null", () => {
    expect(configStats([healthy("a"), abortedAt("b", 3)].map(runVerdict)).firstBlockMedianCall).toBeNull();
  });

  it("median: the middle value, the mean of the two middle ones for an even count", () => {
    expect(medianOfCounts(counts([]))).toBeNull();
    expect(medianOfCounts(counts([7]))).toBe(7);
    expect(medianOfCounts(counts([30, 10, 20]))).toBe(20);
    expect(medianOfCounts(counts([20, 11]))).toBe(15.5);
    expect(medianOfCounts(counts([4, 1, 3, 2]))).toBe(2.5);
    expect(medianOfCounts(counts([5, 5, 5, 9]))).toBe(5);
    expect(medianOfCounts(counts([5, 9, 9, 9]))).toBe(9);
    expect(medianOfCounts(counts([1, 1, 2, 2]))).toBe(1.5);
  });

  it("a tally of two parts merged equals the tally of all the runs", () => {
    const runs = [healthy("a"), warnedOnly("b"), blockedAt("c", 20), blockedAt("d", 12, false), blockedAt("e", 30), abortedAt("f", 6), blockedAt("g", 12)];
    const labels: Labels = { stuck: new Set(["c", "f"]), healthy: undefined };
    const whole = tallyOf(runs.map(runVerdict), labels);
    const parts = tallyOf(runs.slice(0, 3).map(runVerdict), labels);
    parts.merge(tallyOf(runs.slice(3).map(runVerdict), labels).counts());
    expect(parts.stats()).toEqual(whole.stats());
    expect(parts.score()).toEqual(whole.score());
    expect(whole.stats()).toEqual({ runs: 7, warned: 4, blocked: 4, aborted: 1, firstBlockMedianCall: 16 });
  });
});

describe("verdict changes between neighbouring configs", () => {
  it("lists runs whose verdict kind differs, not runs whose block merely moved", () => {
    const before = [blockedAt("a", 20), warnedOnly("b"), healthy("c")].map(runVerdict);
    const after = [blockedAt("a", 15), blockedAt("b", 14), warnedOnly("c")].map(runVerdict);
    expect(verdictChanges(before, after)).toEqual([
      { run: "b", file: "f.jsonl", from: "warned", to: "blocked" },
      { run: "c", file: "f.jsonl", from: "ok", to: "warned" },
    ]);
  });

  it("the first row has nothing to compare with", () => {
    expect(verdictChange(undefined, runVerdict(healthy("a")))).toBeUndefined();
  });
});

describe("labelled runs", () => {
  const verdicts = [blockedAt("stuck1", 20), healthy("stuck2"), blockedAt("ok1", 25), healthy("ok2"), blockedAt("other", 9)].map(runVerdict);

  it("scores precision and recall over the labelled runs", () => {
    const score = labelScore(verdicts, { stuck: new Set(["stuck1", "stuck2"]), healthy: new Set(["ok1", "ok2"]) });
    expect(score).toEqual({ precision: 0.5, recall: 0.5, stuckStopped: 1, stuck: 2, healthyStopped: 1, lateness: 20 + 31 });
  });

  it("without --expect-healthy every run not labelled stuck counts as healthy", () => {
    const score = labelScore(verdicts, { stuck: new Set(["stuck1"]), healthy: undefined });
    expect(score.healthyStopped).toBe(2);
    expect(score.precision).toBeCloseTo(1 / 3);
    expect(score.recall).toBe(1);
  });

  it("precision is null when nothing labelled stopped, recall when nothing is labelled stuck", () => {
    const score = labelScore([healthy("a"), healthy("b")].map(runVerdict), { stuck: new Set(), healthy: new Set(["a"]) });
    expect(score.precision).toBeNull();
    expect(score.recall).toBeNull();
  });

  it("the best config stops the most stuck runs, earliest, and no healthy run", () => {
    const s = (stuckStopped: number, healthyStopped: number, lateness: number): LabelScore => ({
      precision: null,
      recall: null,
      stuckStopped,
      stuck: 2,
      healthyStopped,
      lateness,
    });
    expect(bestConfig([s(1, 0, 40), s(2, 1, 20), s(2, 0, 35), s(2, 0, 30), s(2, 0, 30)])).toBe(3);
    expect(bestConfig([s(2, 1, 20), s(0, 0, 60)])).toBeUndefined();
  });
});
