/**
 * The summary of a report (reporters/model.ts `Summary`): files and lines as read, and runs, calls,
 * compactions and findings over the runs shown, replayed and live alike, with the Gateway logs'
 * share. Replayed runs are counted one at a time as a pass meets them, or, for the runs an analysis
 * spilled, as their segments counted them when they were written (no run is read back for it).
 */
import type { FindingLevel, LiveFinding, ReplayedRun } from "../core/findings.js";
import { runsWithFindings, type LiveRunList } from "../core/liveRuns.js";
import type { ReportModel, SpilledRuns, Summary } from "../reporters/model.js";
import { addRunLevels, countFindings, countRun, countRunLevels, levelsOf, noRunLevels, type RunLevelCounts } from "./levelCounts.js";
import { RunsUsageTotals, type RunsUsage } from "./runsUsage.js";

/** What the summary counts of replayed runs. */
export class ReplayedTally {
  runs = 0;
  calls = 0;
  compactions = 0;
  levels: RunLevelCounts = noRunLevels();
  private readonly usageTotals = new RunsUsageTotals();

  get usage(): RunsUsage {
    return this.usageTotals.value();
  }

  add(run: Pick<ReplayedRun, "calls" | "compactions" | "usage" | "usageOnFlagged" | "usageAfterStop"> & { readonly findings: Iterable<{ readonly level: FindingLevel }> }): void {
    this.runs++;
    this.calls += run.calls;
    this.compactions += run.compactions;
    countRun(this.levels, run.findings);
    this.usageTotals.add(run);
  }

  /** The spilled runs of an analysis, as their segments counted them (or runs a cache hit left unread: runWindow.ts). */
  addSpilled(spilled: Pick<SpilledRuns, "runs" | "calls" | "compactions" | "counts"> & Partial<Pick<SpilledRuns, "usage">>): void {
    this.runs += spilled.runs;
    this.calls += spilled.calls;
    this.compactions += spilled.compactions;
    this.levels = addRunLevels(this.levels, spilled.counts);
    this.usageTotals.addAll(spilled.usage);
  }
}

type SummaryInput = Pick<ReportModel, "files" | "unusable" | "lines" | "transcript" | "diagnosticsTotal">;

/** Counts over replayed and live runs alike; `live` says how much of it came from Gateway logs. */
export function summarize(data: SummaryInput, replayed: ReplayedTally, live: { readonly runs: LiveRunList; readonly findings: readonly LiveFinding[] } | undefined): Summary {
  const counts = addRunLevels(replayed.levels, noRunLevels());
  let runCount = replayed.runs;
  let calls = replayed.calls;
  let compactions = replayed.compactions;
  // Live runs count among runs with findings; their findings are counted from the live list below.
  // A book knows its live runs' totals: then only its runs with findings are read (the others may be on disk).
  const totals = live?.runs.totals;
  if (live && totals) {
    runCount += live.runs.length;
    calls += totals.calls;
    compactions += totals.compactions;
    for (const run of runsWithFindings(live.runs)) countRunLevels(counts.runsWith, run.findings);
  } else if (live) {
    for (const run of live.runs) {
      runCount++;
      calls += run.calls;
      compactions += run.compactions;
      countRunLevels(counts.runsWith, run.findings);
    }
  }
  if (live) countFindings(counts.findings, live.findings);
  const transcript = data.transcript;
  const usage = replayed.usage;
  return {
    files: data.files.length,
    filesNotRead: data.unusable.length,
    runs: runCount,
    calls,
    compactions,
    findings: counts.findings,
    runsWith: counts.runsWith,
    lines: { ...data.lines },
    transcripts: { copiesSkipped: transcript.copies, duplicatesSkipped: transcript.duplicates, reconstructedCalls: transcript.reconstructedCalls },
    diagnostics: data.diagnosticsTotal,
    // Live runs record no usage: the replayed runs' alone (absent when none recorded any).
    ...(usage.runs > 0 && { usage }),
    ...(live
      ? {
          live: {
            runs: live.runs.length,
            findings: levelsOf(live.findings),
            outsideRuns: live.findings.filter((finding) => finding.run === null).length,
          },
        }
      : {}),
  };
}
