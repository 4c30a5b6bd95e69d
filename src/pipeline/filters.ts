/**
 * Filters (cli.md "Selecting and writing"): which runs and findings of a finished report are shown.
 * A pure function of the report and the parsed filters, applied before any reporter, so every
 * format shows the same selection; the summary counts what was selected and says what was hidden.
 *
 * - Run filters: `--run`, `--session`, `--agent`, `--since`/`--until` keep whole runs. A run matches
 *   `--agent ID` when its agent id is ID (or a sub-agent of it, `ID/…`), or when ID names the kind
 *   of agent that recorded it (`openclaw`, `claude-code`, `codex`, `gemini-cli`, `openhands`). When
 *   no run matches, `--agent` selects nothing away: it is a what-if replay under ID's override.
 * - `--since`/`--until` compare a run's start time (its first dated event); a run whose input dates
 *   nothing cannot be placed in the window and is left out (the summary counts those apart).
 * - Finding filters: `--tool`, `--detector` keep the findings that match; their runs stay.
 * - `--top N` lists the N worst runs, worst first, after the others: the summary still counts every
 *   selected run.
 */
import { type Finding, type LiveFinding, type LiveRun, type ReplayedRun, type RunReport } from "../core/findings.js";
import { worstOf } from "../core/worstFirst.js";
import { agentKindOf, AGENT_KINDS } from "../adapters/registry.js";
import type { FilterSummary, ReportFilters, ReportModel } from "../reporters/model.js";
import { replayedInOrder } from "../reporters/model.js";
import { allRunsOf, reportOfRuns } from "./report.js";
import { spilledRuns, UnitRuns, type SpillOptions } from "./runSpill.js";

export type { ReportFilters };

/** The kind of agent that recorded an input of each format (agents.md; Gateway logs are OpenClaw's). */
export { AGENT_KINDS };

export function hasFilters(filters: ReportFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

type RunTest = (run: { readonly run: string | null; readonly session: string | null; readonly agent: string | null; readonly file: string; readonly startedAt?: string | null }) => boolean;

type Files = ReadonlyArray<{ readonly file: string; readonly format: string }>;

/** `formatOf`: the format of the input a run was read from. */
function agentTest(formatOf: (file: string) => string | undefined, agent: string): RunTest {
  return (run) => run.agent === agent || (run.agent?.startsWith(`${agent}/`) ?? false) || agentKindOf(formatOf(run.file) ?? "") === agent;
}

/** The run-level tests but `--agent`'s. */
function otherRunTests(filters: ReportFilters): RunTest[] {
  const tests: RunTest[] = [];
  const among = (values: readonly string[] | undefined, pick: (run: Parameters<RunTest>[0]) => string | null) => {
    if (values === undefined || values.length === 0) return;
    const wanted = new Set(values);
    tests.push((run) => wanted.has(pick(run) ?? ""));
  };
  among(filters.run, (run) => run.run);
  among(filters.session, (run) => run.session);
  if (filters.since !== undefined || filters.until !== undefined) tests.push((run) => inWindow(run.startedAt ?? null, filters));
  return tests;
}

/** The run-level tests the filters ask for (an empty list keeps every run); `runs` is gone through once at most. */
function runTests(files: Files, filters: ReportFilters, runs: Iterable<RunReport>): { tests: RunTest[]; agentMatchedNoRun: boolean } {
  const tests = otherRunTests(filters);
  let agentMatchedNoRun = false;
  if (filters.agent !== undefined) {
    const formats = new Map(files.map((f) => [f.file, f.format]));
    const test = agentTest((file) => formats.get(file), filters.agent);
    if (some(runs, test)) tests.push(test);
    else agentMatchedNoRun = true;
  }
  return { tests, agentMatchedNoRun };
}

/**
 * The run filters as tests of one run at a time, for `sweep`, which meets its runs as they are
 * replayed: `others` keeps the runs that the filters but `--agent` keep, `agent` is `--agent`'s test
 * (undefined without it). `--agent` selects nothing away when it matches no run of the whole input,
 * which only the end of the input tells: the caller keeps both selections until then.
 */
export function streamedRunTests(filters: ReportFilters, formatOf: (file: string) => string | undefined): { others: RunTest; agent: RunTest | undefined } {
  const tests = otherRunTests(filters);
  return { others: (run) => tests.every((test) => test(run)), agent: filters.agent !== undefined ? agentTest(formatOf, filters.agent) : undefined };
}

function some<T>(items: Iterable<T>, test: (item: T) => boolean): boolean {
  for (const item of items) if (test(item)) return true;
  return false;
}

function inWindow(startedAt: string | null, { since, until }: ReportFilters): boolean {
  if (startedAt === null) return false;
  const at = Date.parse(startedAt);
  return (since === undefined || at >= Date.parse(since)) && (until === undefined || at <= Date.parse(until));
}

function findingTest(filters: ReportFilters): (finding: Finding) => boolean {
  const tools = filters.tool !== undefined && filters.tool.length > 0 ? new Set(filters.tool) : undefined;
  const detectors = filters.detector !== undefined && filters.detector.length > 0 ? new Set<string>(filters.detector) : undefined;
  return (finding) => (tools === undefined || tools.has(finding.tool)) && (detectors === undefined || detectors.has(finding.detector));
}

/** A run with only the findings that pass (the same object when all do). */
function keepFindings<R extends RunReport>(run: R, keep: (finding: Finding) => boolean): R {
  const findings = run.findings.filter(keep);
  return findings.length === run.findings.length ? run : { ...run, findings };
}

const findingCount = (report: ReportModel) => report.summary.findings.total;

/**
 * The report as the filters select it (`selected`: what the summary counts and `--fail-on` judges)
 * and as it is shown (`shown`: the `--top` runs of it, with the summary of the selection); the same
 * report twice when no filter is given.
 */
export function filterReport(report: ReportModel, filters: ReportFilters, spill?: SpillOptions): { readonly selected: ReportModel; readonly shown: ReportModel } {
  if (!hasFilters(filters)) return { selected: report, shown: report };
  // Live runs are made as they are read (liveRuns.ts): made once here, for the tests and the selection.
  const liveAll = [...(report.live?.runs ?? [])];
  // Filters select among every run. Spilled runs (runSpill.ts) are read back one at a time as they
  // are tested, and only the selected ones are kept: reading them all back first, `--since` over the
  // bench's 680 MB state folder peaked at 225 MB for a window that selected none (now 159 MB).
  const { tests, agentMatchedNoRun } = runTests(report.files, filters, allRunsOf(replayedInOrder(report), liveAll));
  const runKept = (run: Parameters<RunTest>[0]) => tests.every((test) => test(run));
  const keep = findingTest(filters);
  const dates = filters.since !== undefined || filters.until !== undefined;
  let runs = 0;
  let undated = 0;
  const tested = (run: RunReport) => {
    runs++;
    if (dates && (run.startedAt ?? null) === null) undated++;
    return runKept(run);
  };
  // A spilled report's selection is spilled again (`spill`): a window that selects most runs of a
  // large state folder held them all (`--since` over a third of the bench's 680 MB folder: 177 MB).
  const kept = new UnitRuns(report.spilled ? spill : undefined);
  for (const run of replayedInOrder(report)) if (tested(run)) kept.add(keepFindings(run, keep));
  const segment = kept.finish();
  const replayed = kept.runs;
  const liveRuns = liveAll.filter(tested).map((run) => keepFindings(run, keep));
  const keptLive = new Set(liveRuns.map((run) => run.run));
  // A finding logged outside any run has no run to select: it stays only while no run filter is given.
  const liveFinding = (f: LiveFinding) => keep(f) && (f.run === null ? tests.length === 0 : keptLive.has(f.run));
  const live = report.live && { runs: liveRuns, findings: report.live.findings.filter(liveFinding) };
  const selected = reportOfRuns(report, replayed, live, segment && spilledRuns([segment]));

  const listed = filters.top !== undefined ? topRuns(selected, filters.top) : selected;
  const summary: FilterSummary = {
    by: filterWords(filters),
    runsHidden: runs - selected.summary.runs,
    runsUndated: undated,
    findingsHidden: findingCount(report) - findingCount(selected),
    ...(filters.top !== undefined ? { listed: { runs: listed.replayed.length + (listed.live?.runs.length ?? 0), of: selected.summary.runs } } : {}),
    ...(agentMatchedNoRun ? { agentMatchedNoRun } : {}),
  };
  const withNote = { ...selected.summary, filtered: summary };
  return { selected: { ...selected, summary: withNote }, shown: { ...listed, summary: withNote } };
}

/** `--top N`: the N worst runs, worst first (replayed and live runs ranked together). */
function topRuns(report: ReportModel, top: number): ReportModel {
  // Runs read back from disk one at a time: only the `top` worst so far are held.
  const order = worstOf(allRunsOf(replayedInOrder(report), report.live?.runs), top);
  const replayed = order.filter((run): run is ReplayedRun => run.source === undefined);
  const liveRuns = order.filter((run): run is LiveRun => run.source === "log");
  const liveIds = new Set(liveRuns.map((run) => run.run));
  const live = report.live && { runs: liveRuns, findings: report.live.findings.filter((f) => f.run !== null && liveIds.has(f.run)) };
  const listed = reportOfRuns(report, replayed, live);
  return { ...listed, summary: report.summary };
}

/** The filters as given, for the summary (only those given). */
function filterWords(filters: ReportFilters): FilterSummary["by"] {
  const by: Record<string, unknown> = {};
  for (const key of ["run", "session", "agent", "tool", "detector", "since", "until", "top"] as const) {
    const value = filters[key];
    if (value !== undefined && (!Array.isArray(value) || value.length > 0)) by[key] = value;
  }
  return by as FilterSummary["by"];
}
