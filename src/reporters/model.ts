/**
 * The finished report: what every output format is a pure function of (as eslint's formatters are of
 * their results). The pipeline builds it once, after the filters (src/pipeline/report.ts): the
 * summary, the live section, the finding rows and their plain words, the replay-vs-live comparison,
 * the worst runs (one ranking: core/worstFirst.ts) and the `--fail-on` tally are made there, so that
 * no reporter selects, groups, ranks or counts: each only writes.
 *
 * Runs are many and may wait on disk (pipeline/runSpill.ts), so they are not a list: `runs` hands
 * them out one at a time, each as a `ReportRun` with its rows, and every walk of it reads them once.
 * Facts over all of them (`ReportFacts`) are gathered during the first complete walk: a reporter that
 * writes them after its runs (table, markdown, json, the CI formats) reads each run once; html, which
 * needs its ranking before it draws, asks for `facts()` first and walks no more. The few facts junit
 * (suite counts) and ndjson (its order) write before their runs are `ahead()`: counted from what the
 * spill noted of the runs it wrote out (pipeline/spillFacts.ts), so that those runs are read back
 * once, by the walk that writes them.
 *
 * How a new per-run fact (a start and end time, a prompt, a model, a cost) reaches every format:
 * 1. It is a field of `ReplayedRun` (core/findings.ts), set where runs are made (core/replay.ts,
 *    from what the adapters put on the events), and of `LiveRun` if Gateway logs tell it.
 * 2. If runs without findings have it, it is one of the fields a plain spilled run keeps
 *    (pipeline/runSpill.ts `plainRecord`/`plainRun`): otherwise it is lost past the memory budget.
 * 3. If it is worked out from other facts (a cost from usage and prices: core/runCost.ts), it is
 *    worked out once, in `ReportRun` (pipeline/reportRuns.ts), never by a reporter; a total over
 *    runs is a `Summary` field (pipeline/summary.ts) or a `ReportFacts` one (pipeline/reportFacts.ts),
 *    and a per-row figure a `FindingRow` one (pipeline/findingRows.ts).
 * 4. Each reporter writes it: json `runDocument`, table `runHeader`, markdown `runSection`, html
 *    `drawnRun`, junit `testcase`, sarif and gitlab from the row; the snapshot of `check`
 *    (snapshot.ts) only if it is a replay result worth pinning.
 */
import type { Diagnostic, FindingLevel, LineCounts, LiveFinding, LiveRun, ReplayedFinding, ReplayedRun, RunStop, TranscriptCounts } from "../core/findings.js";
import type { LiveRunList } from "../core/liveRuns.js";
import type { DetectorName } from "../core/detectors.js";
import type { RunOutcome } from "../core/runIdentity.js";

import type { Rank, RunOrder } from "../core/worstFirst.js";
import type { Comparison } from "./comparison.js";
import type { ConfigSummary } from "./reportConfig.js";
import type { FindingGroup } from "./findingGroups.js";
import type { RunsUsage } from "../pipeline/runsUsage.js";
import type { SegmentFacts } from "../pipeline/spillFacts.js";
import type { RunNote } from "../pipeline/runNotes.js";

export type LevelCounts = Readonly<Record<FindingLevel, number>> & { readonly total: number };

export interface Summary {
  readonly files: number;
  /** Input files not read at all (their reasons are diagnostics). */
  readonly filesNotRead: number;
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly findings: LevelCounts;
  /** Runs with a finding at each level (machine outputs say `critical` for a block: cli.md). */
  readonly runsWith: { readonly warning: number; readonly critical: number; readonly abort: number };
  readonly lines: LineCounts;
  /** Transcript entries not replayed again (rewritten copies, entries several files held) and calls rebuilt from results alone. */
  readonly transcripts: { readonly copiesSkipped: number; readonly duplicatesSkipped: number; readonly reconstructedCalls: number };
  readonly diagnostics: number;
  /** What the runs' model turns used (pipeline/runsUsage.ts); absent when no run recorded usage. */
  readonly usage?: RunsUsage;
  /** The Gateway-log share of the counts above (present when a log was read). */
  readonly live?: {
    readonly runs: number;
    readonly findings: LevelCounts;
    /** Live findings logged while no run was open. */
    readonly outsideRuns: number;
  };
  /** What the filters hid (filters.ts); absent without filters. */
  readonly filtered?: FilterSummary;
}

/** The filters of a report (cli.md "Selecting and writing"; applied by src/pipeline/filters.ts). */
export interface ReportFilters {
  readonly run?: readonly string[];
  readonly session?: readonly string[];
  readonly agent?: string;
  readonly tool?: readonly string[];
  readonly detector?: readonly DetectorName[];
  /** ISO dates, inclusive. */
  readonly since?: string;
  readonly until?: string;
  readonly top?: number;
}

/** What the filters (`--run`, `--agent`, `--since`, `--top`, …) hid: present only when some were given. */
export interface FilterSummary {
  /** The filters given. */
  readonly by: ReportFilters;
  /** Runs left out by the run filters. */
  readonly runsHidden: number;
  /** Runs whose input dates nothing (so `--since`/`--until` cannot place them; left out). */
  readonly runsUndated: number;
  /** Findings left out: in runs left out, or not matching `--tool`/`--detector`. */
  readonly findingsHidden: number;
  /** `--top N`: the runs listed, of the runs selected (which the summary counts). */
  readonly listed?: { readonly runs: number; readonly of: number };
  /** `--agent ID` matched no run: nothing was left out for it (ID's override replayed every run). */
  readonly agentMatchedNoRun?: boolean;
}

/** One table row: repeated verdicts of one pattern collapsed (pipeline/findingRows.ts), and its plain words. */
export interface FindingRow<F extends LiveFinding | ReplayedFinding = LiveFinding | ReplayedFinding> extends FindingGroup<F> {
  /** The row in plain words (explanation.ts): `command_status(commandId=build-42) returned "running" unchanged 10 times; warns at 10`. */
  readonly explanation: string;
  /** The same with the threshold named (`warns at warningThreshold=10`), for tables too narrow to show its column. */
  readonly explanationNamed: string;
}

/** Who a run was (issue 34 §4): `null` where the input recorded nothing (json writes the nulls; the human formats leave the part out). */
export interface RunIdentity {
  /** The run's first and last dated entries (ISO; the human formats show local time), and the milliseconds between. */
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly durationMs: number | null;
  /** The first user prompt on one line, control and escape sequences stripped; `null` too under `--no-prompts`. */
  readonly prompt: string | null;
  readonly channel: string | null;
  readonly model: string | null;
  readonly outcome: RunOutcome | null;
}

/** A replayed run as every format writes it: the run, its rows, and what the live runtime did to it. */
export interface ReportRun {
  readonly run: ReplayedRun;
  /** Who the run was (its time, prompt, channel, model, outcome): made once (reporters/runIdentity.ts). */
  readonly identity: RunIdentity;
  /** Its findings as rows, in order of first appearance (one per verdict under `--verbose`). */
  readonly rows: readonly FindingRow<ReplayedFinding>[];
  /** The live run of the same id that a Gateway log says was blocked or aborted, if any. */
  readonly liveStop: LiveRun | undefined;
  /** The human formats list it: with `--all`, or when it has findings, recorded vetoes or a live stop. */
  readonly listed: boolean;
}

/** A live run (Gateway logs) with its rows. */
export interface LiveReportRun {
  readonly run: LiveRun;
  readonly rows: readonly FindingRow<LiveFinding>[];
}

/** What Gateway logs told (present when one was read). */
export interface LiveReport {
  readonly runs: LiveRunList;
  /** Every live finding (also listed in their runs, except those logged while no run was open). */
  readonly findings: readonly LiveFinding[];
  /** Every live run with its rows, made as they are read. */
  readonly reportRuns: Iterable<LiveReportRun>;
  /** The live runs the human formats list (every one with `--all`, else those with findings), made as they are read. */
  readonly listed: Iterable<LiveReportRun>;
  /** Every live finding as rows, in order. */
  readonly rows: readonly FindingRow<LiveFinding>[];
  /** The rows of the findings logged while no run was open. */
  readonly outsideRows: readonly FindingRow<LiveFinding>[];
}

/** A run that would have been stopped, and the finding that stopped it. */
export interface WorstRun {
  readonly run: ReplayedRun;
  readonly stop: ReplayedFinding | undefined;
}

/** A run in a few fields, as long lists of runs show it (the HTML page's runs past the drawn ones). */
export interface RunBrief {
  readonly run: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  readonly calls: number;
  readonly findings: number;
  readonly recordedVetoes: number;
  readonly firstStop: RunStop | null;
  readonly rank: Rank;
}

/** The worst runs of those with something of their own to show (findings, recorded vetoes; every run with `--all`). */
export interface RankedRuns {
  /** The worst, whole, worst first: at most `ReportNeeds.ranked.whole`. */
  readonly whole: readonly ReportRun[];
  /** The worst in brief, worst first (the whole ones first): at most `ReportNeeds.ranked.brief`. */
  readonly brief: readonly RunBrief[];
  /** How many runs were ranked. */
  readonly of: number;
}

/** `--fail-on` and `--max-warnings` as given (the word: `block` and `critical` are one level). */
export type FailOnWord = "warning" | "critical" | "block" | "abort";

/** What `--fail-on` and `--max-warnings` judge: the findings of the selected runs, replayed and live. */
export interface Gate {
  readonly failOn?: FailOnWord;
  readonly maxWarnings?: number;
  /** The level runs are judged at: `--fail-on`'s, else warning (a junit case fails from a warning up). */
  readonly floor: FindingLevel;
  /** Findings at or above `floor`, and the runs that have one. */
  readonly failing: { readonly findings: number; readonly runs: number };
  readonly warnings: number;
}

/** Every input file's runs, replayed then live: the suites of junit. */
export interface FileRuns {
  /** In suite order (inputs as read, unreadable ones, then files only runs name): runs, and runs at or above the gate's floor. */
  readonly counts: ReadonlyMap<string, { readonly runs: number; readonly failing: number }>;
  /** Each file's runs come together, in that order (then a suite is written as its runs are read). */
  readonly grouped: boolean;
}

/** Facts over every run the report shows, gathered as they are walked (pipeline/reportFacts.ts). */
export interface ReportFacts {
  /** Replayed runs the human formats list (`ReportRun.listed`), and the others. */
  readonly listed: number;
  readonly hidden: number;
  /** The runs that would have been stopped, worst first: the first few, of `total`. */
  readonly worstRuns: { readonly shown: readonly WorstRun[]; readonly total: number };
  readonly gate: Gate;
  /** Replay vs live, when Gateway logs were read. */
  readonly comparison?: Comparison;
  /** Every finding, replayed runs' then the live ones, comes in input order (files as given, then line). */
  readonly findingsInInputOrder: boolean;
  readonly files: FileRuns;
  /** When a reporter needs it (`ReportNeeds.ranked`). */
  readonly ranked?: RankedRuns;
}

/** What a report is made for: the command's choices that decide its content (not how it is written). */
export interface ReportChoices {
  /** Show runs without findings too. */
  readonly all: boolean;
  /** One row per verdict instead of one per pattern. */
  readonly verbose: boolean;
  readonly failOn?: FailOnWord;
  readonly maxWarnings?: number;
  /** `--no-prompts`: no format shows a run's prompt (some are private). */
  readonly hidePrompts?: boolean;
  /** `--sort tokens|cost`: the worst-runs list and `--top` by what runs spent (absent: `stops`). */
  readonly sort?: RunOrder;
}

/** What a format needs the pipeline to keep beyond findings; others pay nothing for it. */
export interface ReportNeeds {
  /** Per-call timelines (html). */
  readonly timelines?: boolean;
  /** The worst runs, this many whole and this many in brief (html). */
  readonly ranked?: { readonly whole: number; readonly brief: number };
}

export interface ReportModel {
  readonly version: string;
  readonly config: ConfigSummary;
  readonly choices: ReportChoices;
  readonly files: ReadonlyArray<{ readonly file: string; readonly format: string }>;
  /** Input files not read at all, with the reason (binary, no known format, not a transcript). */
  readonly unusable: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
  readonly summary: Summary;
  readonly lines: LineCounts;
  readonly transcript: TranscriptCounts;
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticsTotal: number;
  readonly live?: LiveReport;
  /** How many replayed runs `runs` holds. */
  readonly replayedRuns: number;
  /** The replayed runs shown, in input order (worst first under `--top`): each walk reads them once. */
  readonly runs: Iterable<ReportRun>;
  /** Facts over the runs shown: gathered by the first complete walk of `runs`, or by one now. */
  facts(): ReportFacts;
  /** The facts a format writes before its runs, without reading spilled runs back when the spill noted them (else `facts()`'s). */
  ahead(): AheadFacts;
}

/** The facts of `ReportFacts` that junit and ndjson need before their first run. */
export type AheadFacts = Pick<ReportFacts, "gate" | "files" | "findingsInInputOrder">;

/** How a reporter writes the report. */
export interface WriteOptions {
  readonly color: boolean;
  /** Terminal width for the table, if known (80 when not). */
  readonly width?: number;
  /** A plain-words line under each finding row (table, markdown); on unless `false` (`--no-explain`). */
  readonly explain?: boolean;
  /** The current directory, so that `file:line` can be shown relative to it when shorter. */
  readonly cwd?: string;
  /** The user's home and the OpenClaw state directory: run headers show a file under them from there (`~/…`). */
  readonly home?: string;
  readonly stateDir?: string;
}

/**
 * A report's text, whole or in pieces: a reporter whose output grows with the number of runs (json)
 * hands it over piece by piece, so that a report of 100 000 runs is never held as one string.
 */
export type ReportOutput = string | Iterable<string>;

export type Reporter = ((report: ReportModel, options: WriteOptions) => ReportOutput) & { readonly needs?: ReportNeeds };

/** The whole text of a report. */
export function reportText(output: ReportOutput): string {
  return typeof output === "string" ? output : [...output].join("");
}

/** Spilled runs, as an analysis hands them over (pipeline/runSpill.ts): what the summary counts of them, and every replayed run in order with them. */
export interface SpilledRuns {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  /** Their runs with a finding at each level, and their findings by level. */
  readonly counts: { readonly runsWith: Readonly<Record<FindingLevel, number>>; readonly findings: LevelCounts };
  /** What they used, when any recorded usage. */
  readonly usage?: RunsUsage;
  /** Every replayed run in input order: `kept` (the analysis's `runs`) with the spilled ones put back. */
  inOrder(kept: readonly ReplayedRun[]): Iterable<ReplayedRun>;
  /** `kept`, with what the spill noted of its runs in their places (none read back); absent when a segment noted nothing. */
  readonly noted: ((kept: readonly ReplayedRun[]) => Iterable<ReplayedRun | SegmentFacts>) | undefined;
  /** `kept`, with the note of each spilled run in its place (runNotes.ts: for filters, none read back); absent when a segment noted none. */
  readonly notes?: ((kept: readonly ReplayedRun[]) => Iterable<ReplayedRun | RunNote>) | undefined;
}
