/**
 * How often the report model (src/pipeline/report.ts) reads the runs an analysis spilled to disk:
 * none for the summary, one walk per output, the facts gathered by that walk; a selection by
 * filters costs one pass more, made while the model is built.
 */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import type { Analysis } from "../../src/pipeline/analysis.js";
import type { SpilledRuns } from "../../src/reporters/model.js";
import { analysisOfRuns } from "../helpers/inProcess.js";
import { reportModel, shownRuns } from "../helpers/reportModel.js";

const FILE = "runs.jsonl";

function run(i: number, warned: boolean): ReplayedRun {
  const finding: ReplayedFinding = { run: `r${i}`, agent: "main", session: null, file: FILE, line: 10 * i + 5, call: 11, tool: "read", detector: "generic_repeat", level: "warning", count: 10, threshold: { name: "warningThreshold", value: 10 }, afterStop: false, message: "m", argsHash: "read:x" };
  return { run: `r${i}`, agent: "main", session: null, file: FILE, calls: 11, compactions: 0, findings: warned ? [finding] : [], firstStop: null, guardWindows: [], recordedVetoes: 0 };
}

/** Runs r0…r5, r0 and r1 held in memory, the others "spilled": every read of them counted. */
function spilledAnalysis(): { analysis: Analysis; reads: () => number } {
  const kept = [run(0, true), run(1, false)];
  const onDisk = [run(2, true), run(3, false), run(4, true), run(5, false)];
  let reads = 0;
  const spilled: SpilledRuns = {
    runs: onDisk.length,
    calls: onDisk.reduce((sum, r) => sum + r.calls, 0),
    compactions: 0,
    counts: { runsWith: { warning: 2, critical: 0, abort: 0 }, findings: { warning: 2, critical: 0, abort: 0, total: 2 } },
    *inOrder(held) {
      reads++;
      yield* held;
      yield* onDisk;
    },
  };
  return { analysis: { ...analysisOfRuns(kept, FILE, 60), spilled }, reads: () => reads };
}

describe("spilled runs read back by the report model", () => {
  it("the summary reads none; one walk writes the runs and gathers the facts", () => {
    const { analysis, reads } = spilledAnalysis();
    const report = reportModel(analysis, { failOn: "warning" });
    expect(report.summary).toMatchObject({ runs: 6, calls: 66, findings: { total: 3 } });
    expect(reads()).toBe(0);
    // Every run is handed out; the human formats list those with findings.
    expect([...report.runs].filter((entry) => entry.listed).map((entry) => entry.run.run)).toEqual(["r0", "r2", "r4"]);
    expect(report.facts()).toMatchObject({ listed: 3, hidden: 3, gate: { failing: { findings: 3, runs: 3 } } });
    expect(reads()).toBe(1);
  });

  it("facts asked first walk once for them, and the walk that writes reads again", () => {
    const { analysis, reads } = spilledAnalysis();
    const report = reportModel(analysis);
    expect(report.facts().listed).toBe(3);
    expect(report.facts().listed).toBe(3);
    expect(reads()).toBe(1);
    expect(shownRuns(report)).toHaveLength(6);
    expect(reads()).toBe(2);
  });

  it("filters select in one pass while the model is built; the walk that writes reads once more", () => {
    const { analysis, reads } = spilledAnalysis();
    const report = reportModel(analysis, { filters: { run: ["r1", "r4"] }, all: true, failOn: "warning" });
    expect(reads()).toBe(1);
    expect(report.summary).toMatchObject({ runs: 2, findings: { total: 1 }, filtered: { runsHidden: 4 } });
    expect(shownRuns(report).map((r) => r.run)).toEqual(["r1", "r4"]);
    expect(report.facts().gate.failing).toEqual({ findings: 1, runs: 1 });
    expect(reads()).toBe(2);
  });
});
