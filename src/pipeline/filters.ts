/**
 * Filters (cli.md "Selecting and writing"): which runs and findings of a finished report are shown.
 * Applied while the report model is made (report.ts), before any reporter, so every format shows the
 * same selection; the summary counts what was selected and says what was hidden.
 *
 * - Run filters: `--run`, `--session`, `--agent`, `--since`/`--until` keep whole runs. A run matches
 *   `--agent ID` when its agent id is ID (or a sub-agent of it, `ID/…`), or when ID names the kind
 *   of agent that recorded it (`openclaw`, `claude-code`, `codex`, `gemini-cli`, `openhands`). When
 *   no run matches, `--agent` selects nothing away: it is a what-if replay under ID's override.
 * - `--since`/`--until` compare a run's start time (its first dated event); a run whose input dates
 *   nothing cannot be placed in the window and is left out (the summary counts those apart).
 * - Finding filters: `--tool`, `--detector` keep the findings that match; their runs stay.
 * - `--top N` lists the N worst runs, worst first (core/worstFirst.ts), after the others: the summary
 *   still counts every selected run, and `--fail-on` judges them all.
 */
import { type Finding, type LiveFinding, type LiveRun, type ReplayedRun, type RunReport } from "../core/findings.js";
import { FirstKept } from "../core/firstKept.js";
import { filteredList } from "../core/findingList.js";
import type { LiveRunList } from "../core/liveRuns.js";
import { compareRanks, rankOf, type Rank } from "../core/worstFirst.js";
import type { FilterSummary, Gate, ReportChoices, ReportFilters, Summary } from "../reporters/model.js";
import { GateTally } from "./gate.js";
import { ReplayedTally, summarize } from "./summary.js";
import { agentKindOf, AGENT_KINDS } from "../adapters/formatNames.js";
import { isRunNote, type RunNote } from "./runNotes.js";

export type { ReportFilters };

/** The kind of agent that recorded an input of each format (agents.md; Gateway logs are OpenClaw's). */
export { AGENT_KINDS };

/** A run a selection is offered: replayed, or a spilled one as its note tells it (runNotes.ts). */
type Offered = ReplayedRun | RunNote;

/** Replayed runs, then live ones, one at a time: live runs are made as they are read (liveRuns.ts). */
function* allRunsOf(replayed: Iterable<Offered>, live: Iterable<LiveRun>): Generator<Offered | LiveRun> {
  yield* replayed;
  yield* live;
}

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
function runTests(files: Files, filters: ReportFilters, runs: Iterable<Offered | LiveRun>): { tests: RunTest[]; agentMatchedNoRun: boolean } {
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

function findingTest(filters: ReportFilters): (finding: Pick<Finding, "tool" | "detector">) => boolean {
  const tools = filters.tool !== undefined && filters.tool.length > 0 ? new Set(filters.tool) : undefined;
  const detectors = filters.detector !== undefined && filters.detector.length > 0 ? new Set<string>(filters.detector) : undefined;
  return (finding) => (tools === undefined || tools.has(finding.tool)) && (detectors === undefined || detectors.has(finding.detector));
}

/** A run with only the findings that pass (the same object when all do); a note keeps whole blocks. */
function keepFindings<R extends RunReport | RunNote>(run: R, keep: (finding: Pick<Finding, "tool" | "detector">) => boolean): R {
  const findings = isRunNote(run) ? run.findings.filter(keep) : filteredList<Pick<Finding, "tool" | "detector">>(run.findings, keep);
  return findings.length === run.findings.length ? run : { ...run, findings };
}

type LiveInput = { readonly runs: LiveRunList; readonly findings: readonly LiveFinding[] };

/** What the filters selected, as the report shows it (report.ts). */
export interface Selected {
  /** The summary of the selection, with what the filters hid. */
  readonly summary: Summary;
  readonly live: LiveInput | undefined;
  /** `--top N`: the runs listed, worst first (the others are not shown). */
  readonly top?: readonly ReplayedRun[];
  /** Replayed runs selected. */
  readonly replayedRuns: number;
  /** The `--fail-on` tally of every run selected (`--top` shows fewer). */
  readonly gate: Gate;
}

/**
 * The filters applied to a report's runs in one pass (`offer` each replayed run, in order, then
 * `finish`); `pick` selects a run again when the report's runs are walked. Runs an analysis spilled
 * are offered as their notes (runNotes.ts), so that the walk that writes them is the only one that
 * reads them back; but `--top` keeps the runs it lists, so it is offered the runs themselves,
 * and its listed runs are not read again. Only `--agent` goes through the runs (or
 * notes) before the pass, until one matches.
 */
export class RunSelection {
  private readonly tests: RunTest[];
  private readonly agentMatchedNoRun: boolean;
  private readonly keep: (finding: Pick<Finding, "tool" | "detector">) => boolean;
  private readonly dates: boolean;
  private readonly liveAll: LiveRun[];
  private readonly replayed = new ReplayedTally();
  private readonly gate: GateTally;
  private readonly top: FirstKept<RunReport, Rank> | undefined;
  private runs = 0;
  private undated = 0;

  constructor(
    private readonly files: Files,
    private readonly filters: ReportFilters,
    replayed: () => Iterable<Offered>,
    private readonly live: LiveInput | undefined,
    private readonly choices: ReportChoices,
  ) {
    // Live runs are made as they are read (liveRuns.ts): made once here, for the tests and the selection.
    this.liveAll = [...(live?.runs ?? [])];
    const { tests, agentMatchedNoRun } = runTests(files, filters, allRunsOf(replayed(), this.liveAll));
    this.tests = tests;
    this.agentMatchedNoRun = agentMatchedNoRun;
    this.keep = findingTest(filters);
    this.dates = filters.since !== undefined || filters.until !== undefined;
    this.gate = new GateTally(choices);
    this.top = filters.top !== undefined ? new FirstKept(filters.top, compareRanks) : undefined;
  }

  /** The run as the filters select it (with only the findings that pass), or undefined. */
  pick<R extends RunReport | RunNote>(run: R): R | undefined {
    return this.tests.every((test) => test(run)) ? keepFindings(run, this.keep) : undefined;
  }

  private tested<R extends RunReport | RunNote>(run: R): R | undefined {
    this.runs++;
    if (this.dates && (run.startedAt ?? null) === null) this.undated++;
    return this.pick(run);
  }

  offer(run: Offered): void {
    const kept = this.tested(run);
    if (kept === undefined) return;
    this.replayed.add(kept);
    this.gate.add(kept);
    if (this.top === undefined) return;
    if (isRunNote(kept)) throw new Error("--top lists runs: it is offered runs, not their notes");
    this.top.offer(kept, rankOf(kept, this.choices.sort));
  }

  /** Runs that were not read, known to fall outside `--since`/`--until` (runWindow.ts): counted as hidden, as `offer` would have. */
  passOver(outside: { readonly runs: number; readonly undated: number }): void {
    this.runs += outside.runs;
    if (this.dates) this.undated += outside.undated;
  }

  /** `report`: the summary of every run (what the filters hid is counted against it). */
  finish(data: Parameters<typeof summarize>[0], report: Summary): Selected {
    const liveRuns: LiveRun[] = [];
    for (const run of this.liveAll) {
      const kept = this.tested(run);
      if (kept === undefined) continue;
      liveRuns.push(kept);
      if (kept.findings.length > 0) this.gate.add(kept);
    }
    const keptLive = new Set(liveRuns.map((run) => run.run));
    // A finding logged outside any run has no run to select: it stays only while no run filter is given.
    const liveFinding = (f: LiveFinding) => this.keep(f) && (f.run === null ? this.tests.length === 0 : keptLive.has(f.run));
    const live = this.live && { runs: liveRuns, findings: this.live.findings.filter(liveFinding) };
    const selected = summarize(data, this.replayed, live);
    const top = this.top && this.topRuns(live);
    const filtered: FilterSummary = {
      by: filterWords(this.filters),
      runsHidden: this.runs - selected.runs,
      runsUndated: this.undated,
      findingsHidden: report.findings.total - selected.findings.total,
      ...(top !== undefined ? { listed: { runs: top.replayed.length + (top.live?.runs.length ?? 0), of: selected.runs } } : {}),
      ...(this.agentMatchedNoRun ? { agentMatchedNoRun: true } : {}),
    };
    return {
      summary: { ...selected, filtered },
      live: top ? top.live : live,
      ...(top && { top: top.replayed }),
      replayedRuns: top ? top.replayed.length : this.replayed.runs,
      gate: this.gate.finish(),
    };
  }

  /** `--top N`: the N worst runs, worst first (replayed and live runs ranked together). */
  private topRuns(live: LiveInput | undefined): { readonly replayed: ReplayedRun[]; readonly live: LiveInput | undefined } {
    const top = this.top!;
    for (const run of live?.runs ?? []) top.offer(run, rankOf(run, this.choices.sort));
    const order = top.items();
    const liveRuns = order.filter((run): run is LiveRun => run.source === "log");
    const liveIds = new Set(liveRuns.map((run) => run.run));
    return {
      replayed: order.filter((run): run is ReplayedRun => run.source === undefined),
      live: live && { runs: liveRuns, findings: live.findings.filter((f) => f.run !== null && liveIds.has(f.run)) },
    };
  }
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
