/**
 * The finished report: what every output format is a pure function of (as eslint's formatters are of
 * their results). The pipeline builds it once from an analysis (src/pipeline/report.ts): the summary,
 * the live section and the replay-vs-live comparison are computed there, so no reporter analyses.
 */
import type { ConfigNotice, ResolvedConfig, ValueSource } from "../core/config.js";
import type { Diagnostic, FindingLevel, LineCounts, LiveFinding, ReplayedRun, TranscriptCounts } from "../core/findings.js";
import type { LiveRunList } from "../core/liveRuns.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import type { DetectorName } from "../core/detectors.js";
import type { Comparison } from "./comparison.js";

export type LevelCounts = Readonly<Record<FindingLevel, number>> & { readonly total: number };

/** The config an agent override produced, and the run agents it applied to. */
export interface AgentConfigView {
  /** The agent id as written in the config file. */
  readonly agent: string;
  /** Where the override is in the file (`agents.list[0].tools.loopDetection`). */
  readonly where: string;
  /** Agent ids of the runs that used it, as the input names them. */
  readonly runAgents: readonly string[];
  readonly effective: ResolvedConfig;
  readonly sources: Readonly<Record<string, ValueSource>>;
}

export interface ConfigSummary {
  readonly effective: ResolvedConfig;
  readonly sources: Readonly<Record<string, ValueSource>>;
  readonly notices: readonly ConfigNotice[];
  /** The config file given with --config, if any. */
  readonly file: string | null;
  /** No --config: looplens turned the rolling detectors on itself. */
  readonly usesLooplensDefault: boolean;
  /** Agent ids whose own override was applied to some run. */
  readonly agentOverrides: readonly string[];
  /** The configs those overrides produced (when the command resolved them). */
  readonly agentConfigs?: readonly AgentConfigView[];
  /** `--agent`: one agent's override applied to every run (already in `effective`). */
  readonly forcedAgent?: string | null;
  /** No --config, but the state directory's `openclaw.json` exists: named in the header, not applied. */
  readonly unappliedConfig?: string;
  /**
   * `--profile` when given; then headers say which profile each run was replayed under and why.
   * Absent (the default generation, not asked for): every output stays as it was before profiles.
   */
  readonly profile?: ProfileRequest;
}

export interface Summary {
  readonly files: number;
  /** Input files not read at all (their reasons are diagnostics). */
  readonly filesNotRead: number;
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly findings: Readonly<Record<FindingLevel, number>> & { readonly total: number };
  /** Runs with a finding at each level (machine outputs say `critical` for a block: cli.md). */
  readonly runsWith: { readonly warning: number; readonly critical: number; readonly abort: number };
  readonly lines: LineCounts;
  /** Transcript entries not replayed again (rewritten copies, entries several files held) and calls rebuilt from results alone. */
  readonly transcripts: { readonly copiesSkipped: number; readonly duplicatesSkipped: number; readonly reconstructedCalls: number };
  readonly diagnostics: number;
  /** The Gateway-log share of the counts above (present when a log was read). */
  readonly live?: {
    readonly runs: number;
    readonly findings: Readonly<Record<FindingLevel, number>> & { readonly total: number };
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

/** What Gateway logs told (present when one was read). */
export interface LiveReport {
  readonly runs: LiveRunList;
  /** Every live finding (also listed in their runs, except those logged while no run was open). */
  readonly findings: readonly LiveFinding[];
  /** Replayed runs lined up with the live runs of the same id. */
  readonly comparison: Comparison;
}

export interface ReportModel {
  readonly version: string;
  readonly config: ConfigSummary;
  readonly files: ReadonlyArray<{ readonly file: string; readonly format: string }>;
  /** Input files not read at all, with the reason (binary, no known format, not a transcript). */
  readonly unusable: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
  /**
   * Replayed runs, in input order: all of them, or, when `spilled` is there, all but the spilled
   * ones (read every run with `replayedInOrder`).
   */
  readonly replayed: readonly ReplayedRun[];
  /** Runs a large analysis kept on disk (pipeline/runSpill.ts): plain ones, and past a budget of findings the others too. */
  readonly spilled?: SpilledRuns;
  readonly live?: LiveReport;
  readonly summary: Summary;
  readonly lines: LineCounts;
  readonly transcript: TranscriptCounts;
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticsTotal: number;
}

/** Spilled runs: what the summary counts of them, and every replayed run in order with them. */
export interface SpilledRuns {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  /** Their runs with a finding at each level, and their findings by level. */
  readonly counts: { readonly runsWith: Readonly<Record<FindingLevel, number>>; readonly findings: LevelCounts };
  /** Every replayed run in input order: `kept` (the model's `replayed`) with the spilled ones put back. */
  inOrder(kept: readonly ReplayedRun[]): Iterable<ReplayedRun>;
}

/** Every replayed run of a report, in input order, the spilled ones included. */
export function replayedInOrder(data: Pick<ReportModel, "replayed" | "spilled">): Iterable<ReplayedRun> {
  return data.spilled ? data.spilled.inOrder(data.replayed) : data.replayed;
}

/** How many runs were replayed, the spilled ones included. */
export function replayedCount(data: Pick<ReportModel, "replayed" | "spilled">): number {
  return data.replayed.length + (data.spilled?.runs ?? 0);
}

export interface ReportOptions {
  /** Show runs without findings too. */
  readonly all: boolean;
  /** One row per verdict instead of one per pattern. */
  readonly verbose: boolean;
  readonly color: boolean;
  /** Terminal width for the table, if known (80 when not). */
  readonly width?: number;
  /** A plain-words line under each finding row (table, markdown); on unless `false` (`--no-explain`). */
  readonly explain?: boolean;
  /** The current directory, so that `file:line` can be shown relative to it when shorter. */
  readonly cwd?: string;
  /** `--fail-on`'s level, when given: junit marks the runs with a finding at or above it failed (warning when not given). */
  readonly failOn?: FindingLevel;
}

/**
 * A report's text, whole or in pieces: a reporter whose output grows with the number of runs (json)
 * hands it over piece by piece, so that a report of 100 000 runs is never held as one string.
 */
export type ReportOutput = string | Iterable<string>;

export type Reporter = ((report: ReportModel, options: ReportOptions) => ReportOutput) & {
  /** What the format needs the analysis to keep beyond findings (per-call timelines: html); others pay nothing for it. */
  readonly needs?: { readonly timelines?: boolean };
};

/** The whole text of a report. */
export function reportText(output: ReportOutput): string {
  return typeof output === "string" ? output : [...output].join("");
}

