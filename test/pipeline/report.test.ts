/**
 * How often the report model (src/pipeline/report.ts) reads the runs an analysis spilled to disk:
 * none for the summary, one walk per output, the facts gathered by that walk; a selection by
 * filters reads the notes the spill kept of each run (runNotes.ts), not the runs, and costs one pass
 * more only when there are none (a cache hit's spilled runs).
 */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeInputs, type Analysis, type AnalysisOptions } from "../../src/pipeline/analysis.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import { buildReport, type ConfigOfRuns } from "../../src/pipeline/report.js";
import { SegmentFactsNote } from "../../src/pipeline/spillFacts.js";
import { blocksOf } from "../../src/pipeline/runNotes.js";
import { withSpillFolder } from "../../src/pipeline/spillFiles.js";
import { REPORTERS } from "../../src/reporters/index.js";
import type { ReportFilters, SpilledRuns } from "../../src/reporters/model.js";
import { analysisOfRuns } from "../helpers/inProcess.js";
import { configHeader, renderFormat, reportModel, shownRuns } from "../helpers/reportModel.js";

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
    // A fake segment notes nothing: facts asked ahead walk the runs (the real spill's are below).
    noted: undefined,
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

  it("without notes, filters select in one pass while the model is built; the walk that writes reads once more", () => {
    const { analysis, reads } = spilledAnalysis();
    const report = reportModel(analysis, { filters: { run: ["r1", "r4"] }, all: true, failOn: "warning" });
    expect(reads()).toBe(1);
    expect(report.summary).toMatchObject({ runs: 2, findings: { total: 1 }, filtered: { runsHidden: 4 } });
    expect(shownRuns(report).map((r) => r.run)).toEqual(["r1", "r4"]);
    expect(report.facts().gate.failing).toEqual({ findings: 1, runs: 1 });
    expect(reads()).toBe(2);
  });
});

async function analyse(paths: string[], options: AnalysisOptions): Promise<Analysis> {
  const resolver = await createConfigResolver({});
  return analyzeInputs(paths, await loadXxhashDigest(), (agent, profile) => resolver.effectiveFor(agent, profile).config, options);
}

/** The analysis with every read-back of its spilled runs counted. */
function counted(analysis: Analysis): { analysis: Analysis; reads: () => number } {
  let reads = 0;
  const spilled = analysis.spilled!;
  // Counted when a walk begins (a generator that is never walked reads nothing).
  function* inOrder(kept: readonly ReplayedRun[]) {
    reads++;
    yield* spilled.inOrder(kept);
  }
  return { analysis: { ...analysis, spilled: { ...spilled, inOrder, noted: spilled.noted, notes: spilled.notes } }, reads: () => reads };
}

/** Filters that select some of the analysis's runs or findings, each kind of filter once (values taken from its runs). */
function filtersOf(analysis: Analysis): ReportFilters[] {
  const runs = [...analysis.spilled!.inOrder(analysis.runs)];
  const findings = runs.flatMap((r) => [...r.findings]);
  const dated = runs.map((r) => r.startedAt).filter((at): at is string => typeof at === "string").sort();
  const withFindings = runs.filter((r) => r.findings.length > 0);
  return [
    { tool: [findings[0]!.tool] },
    { detector: [findings.at(-1)!.detector] },
    { since: dated[Math.floor(dated.length / 2)]! },
    { agent: withFindings[0]!.agent! },
    { run: [withFindings[0]!.run, runs[1]!.run], session: [withFindings[0]!.session ?? ""] },
    { top: 3 },
  ];
}

describe("spilled runs read back by each output", () => {
  it("every format reads a spilled run back once, and writes what it writes of runs held in memory", async () => {
    const paths = ["fixtures", "test/data"];
    const held = await analyse(paths, {});
    await withSpillFolder(async (dir) => {
      const spilling = await analyse(paths, { spill: { dir: dir!, plainRunsInMemory: 0, findingsInMemory: 0 } });
      // Runs with findings in several files went to disk: what junit and ndjson count ahead is theirs.
      expect(spilling.spilled!.counts.findings.total).toBeGreaterThan(10);
      expect(spilling.spilled!.noted).toBeDefined();
      for (const format of Object.keys(REPORTERS.analyze)) {
        for (const request of [{ all: true }, { failOn: "critical" as const }]) {
          const { analysis, reads } = counted(spilling);
          expect(renderFormat(format, analysis, request), format).toBe(renderFormat(format, held, request));
          expect({ format, reads: reads() }).toEqual({ format, reads: 1 });
        }
        // Filtered: the selection counts from the runs' notes, the walk that writes reads the runs once.
        for (const filters of filtersOf(spilling)) {
          for (const request of [{ filters, all: true }, { filters, failOn: "critical" as const }]) {
            const { analysis, reads } = counted(spilling);
            expect(renderFormat(format, analysis, request), format).toBe(renderFormat(format, held, request));
            expect({ format, filters, reads: reads() }).toEqual({ format, filters, reads: 1 });
          }
        }
      }
    });
  });
});

describe("a header that names the agent overrides the runs used", () => {
  it("reads the spilled runs' notes for their agents, not the runs", async () => {
    await withSpillFolder(async (dir) => {
      const spilling = await analyse(["fixtures"], { spill: { dir: dir!, plainRunsInMemory: 0, findingsInMemory: 0 } });
      const agents = new Set<string | null>();
      const config: ConfigOfRuns = { readsRuns: true, add: (run) => void agents.add(run.agent), summary: () => configHeader() };
      const { analysis, reads } = counted(spilling);
      buildReport(analysis, { version: "0.0.0-test", config });
      expect(reads()).toBe(0);
      expect([...agents]).toEqual([...new Set([...spilling.spilled!.inOrder(spilling.runs)].map((run) => run.agent))]);
    });
  });
});

describe("facts ahead of the runs", () => {
  /** Runs of two files, their findings out of input order, spilled as one noted segment after r0. */
  function noted(order: "sorted" | "unsorted" | "unsorted across levels"): { analysis: Analysis; reads: () => number } {
    const { analysis } = spilledAnalysis();
    const at = (r: ReplayedRun, file: string, lines: number[], level: ReplayedFinding["level"]): ReplayedRun => ({
      ...r,
      file,
      findings: lines.map((line) => ({ ...([...r.findings][0] ?? [...run(0, true).findings][0]!), run: r.run, file, line, level })),
    });
    const kept = [at(run(0, true), FILE, [5], "warning")];
    const critical = at(run(1, true), FILE, order === "sorted" ? [20, 30] : [30, 20], "critical");
    // Line 30 at one level, then line 20 at another: two blocks of a note, out of order between them.
    const first = order === "unsorted across levels" ? { ...critical, findings: [...critical.findings].map((f, i) => (i === 1 ? { ...f, level: "abort" as const } : f)) } : critical;
    const onDisk = [first, at(run(2, false), "other.jsonl", [], "warning"), at(run(3, true), FILE, [40], "abort")];
    const note = new SegmentFactsNote();
    for (const r of onDisk) note.add(r.file, blocksOf(r.findings));
    const levels = { warning: 0, critical: 0, abort: 0 };
    for (const r of onDisk) for (const f of r.findings) levels[f.level]++;
    let reads = 0;
    const spilled: SpilledRuns = {
      ...analysis.spilled!,
      runs: onDisk.length,
      counts: { runsWith: { warning: 0, critical: 1, abort: 1 }, findings: { ...levels, total: 3 } },
      noted: (held) => [...held, note.finish()],
      *inOrder(held) {
        reads++;
        yield* held;
        yield* onDisk;
      },
    };
    const files = [...analysis.files, { file: "other.jsonl", format: "events" }];
    return { analysis: { ...analysis, files, runs: kept, spilled }, reads: () => reads };
  }

  it.each(["sorted", "unsorted", "unsorted across levels"] as const)("are counted from what the spill noted (findings %s), as a walk counts them", (order) => {
    for (const failOn of [undefined, "critical", "abort"] as const) {
      const { analysis, reads } = noted(order);
      const ahead = reportModel(analysis, failOn && { failOn }).ahead();
      expect(reads()).toBe(0);
      const { gate, files, findingsInInputOrder } = reportModel(analysis, failOn && { failOn }).facts();
      expect(reads()).toBe(1);
      expect({ gate: ahead.gate, files: ahead.files, findingsInInputOrder: ahead.findingsInInputOrder }).toEqual({ gate, files, findingsInInputOrder });
      expect(findingsInInputOrder).toBe(order === "sorted");
    }
  });
});
