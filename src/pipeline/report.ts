/**
 * From an analysis to the finished report model (src/reporters/model.ts), in one place: the
 * summary counts, the live section of Gateway logs and the replay-vs-live comparison are computed
 * here once, and every reporter only formats them.
 */
import type { LiveFinding, LiveRun, ReplayedRun, RunReport } from "../core/findings.js";
import { runsWithFindings, type LiveRunList } from "../core/liveRuns.js";
import { replayedInOrder, type ConfigSummary, type ReportModel, type SpilledRuns, type Summary } from "../reporters/model.js";
import type { Analysis } from "./analysis.js";
import { compareReplayWithLive } from "./comparison.js";
import { addRunLevels, countFindings, countRun, countRunLevels, levelsOf, noRunLevels } from "./levelCounts.js";

/** Gateway logs were among the inputs (or live events were read back from an events file). */
function readsGatewayLogs(analysis: Analysis): boolean {
  return analysis.files.some((f) => f.format === "gateway-log") || analysis.liveRuns.length > 0 || analysis.liveFindings.length > 0;
}

export function buildReport(analysis: Analysis, config: ConfigSummary, version: string): ReportModel {
  const spilled = analysis.spilled;
  const replayed = analysis.runs;
  // Lining replayed runs up with live ones reads the spilled ones back, one at a time.
  const live = readsGatewayLogs(analysis)
    ? { runs: analysis.liveRuns, findings: analysis.liveFindings, comparison: compareReplayWithLive(() => replayedInOrder({ replayed, spilled }), analysis.liveRuns) }
    : undefined;
  const base = {
    version,
    config,
    files: analysis.files,
    unusable: analysis.unusable,
    replayed,
    ...(spilled && { spilled }),
    lines: analysis.lines,
    transcript: analysis.transcript,
    diagnostics: analysis.diagnostics,
    diagnosticsTotal: analysis.diagnosticsTotal,
  };
  return { ...base, ...(live ? { live } : {}), summary: summarize(base, live) };
}

/**
 * The same report over a selection of its runs and live findings (filters.ts): the replay-vs-live
 * comparison and the summary are computed again over what was kept; what was read stays as it was.
 * `replayed` is every run kept as an object, `spilled` the selected runs written out.
 */
export function reportOfRuns(
  report: ReportModel,
  replayed: readonly ReplayedRun[],
  live: { readonly runs: LiveRunList; readonly findings: readonly LiveFinding[] } | undefined,
  spilled?: SpilledRuns,
): ReportModel {
  const selected = live ? { runs: live.runs, findings: live.findings, comparison: compareReplayWithLive(() => replayedInOrder({ replayed, spilled }), live.runs) } : undefined;
  const base = { ...report, replayed, ...(spilled && { spilled }) };
  delete (base as { live?: unknown }).live;
  if (!spilled) delete (base as { spilled?: unknown }).spilled;
  return { ...base, ...(selected ? { live: selected } : {}), summary: summarize(base, selected) };
}

/** Replayed runs, then live ones, one at a time: live runs are made as they are read (liveRuns.ts). */
export function* allRunsOf(replayed: Iterable<ReplayedRun>, live: Iterable<LiveRun> | undefined): Generator<RunReport> {
  yield* replayed;
  if (live) yield* live;
}

type SummaryInput = Pick<ReportModel, "files" | "unusable" | "replayed" | "spilled" | "lines" | "transcript" | "diagnosticsTotal">;

/** Counts over replayed and live runs alike; `live` says how much of it came from Gateway logs. */
function summarize(data: SummaryInput, liveReport: ReportModel["live"]): Summary {
  // Spilled runs are not read back: their segments counted what the summary needs of them (below).
  const counts = noRunLevels();
  let calls = data.spilled?.calls ?? 0;
  let compactions = data.spilled?.compactions ?? 0;
  let runCount = 0;
  // A book knows its live runs' totals: then only its runs with findings are read (the others may be on disk).
  const live = liveReport?.runs;
  const totals = live?.totals;
  for (const run of data.replayed) {
    runCount++;
    calls += run.calls;
    compactions += run.compactions;
    countRun(counts, run.findings);
  }
  // Live runs count among runs with findings; their findings are counted from the live list below.
  if (live && totals) {
    runCount += live.length;
    calls += totals.calls;
    compactions += totals.compactions;
    for (const run of runsWithFindings(live)) countRunLevels(counts.runsWith, run.findings);
  } else if (live) {
    for (const run of live) {
      runCount++;
      calls += run.calls;
      compactions += run.compactions;
      countRunLevels(counts.runsWith, run.findings);
    }
  }
  const liveFindings = liveReport?.findings;
  const transcript = data.transcript;
  if (liveFindings) countFindings(counts.findings, liveFindings);
  // Spilled runs are added as their segments counted them.
  const all = data.spilled ? addRunLevels(counts, data.spilled.counts) : counts;
  return {
    files: data.files.length,
    filesNotRead: data.unusable.length,
    runs: runCount + (data.spilled?.runs ?? 0),
    calls,
    compactions,
    findings: all.findings,
    runsWith: all.runsWith,
    lines: { ...data.lines },
    transcripts: { copiesSkipped: transcript.copies, duplicatesSkipped: transcript.duplicates, reconstructedCalls: transcript.reconstructedCalls },
    diagnostics: data.diagnosticsTotal,
    ...(liveFindings
      ? {
          live: {
            runs: liveReport!.runs.length,
            findings: levelsOf(liveFindings),
            outsideRuns: liveFindings.filter((finding) => finding.run === null).length,
          },
        }
      : {}),
  };
}

