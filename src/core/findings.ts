/**
 * What replay produces: findings (one per verdict or abort) grouped per run. Reporters turn these
 * into text; nothing here knows about output formats.
 */
import type { FindingList } from "./findingList.js";
import type { PatternCost } from "./runCost.js";
import type { UsageSum } from "./usage.js";
import type { DetectorName, ThresholdName } from "./detectors.js";
import type { GuardWindow } from "./postCompactionGuard.js";
import type { FindingPreview } from "./preview.js";
import type { ProfileChoice } from "./profiles/profile.js";
import type { RunFacts } from "./runIdentity.js";
import type { RunTimeline } from "./timeline.js";

export type FindingLevel = "warning" | "critical" | "abort";

interface FindingBase {
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  /** Input line of the call (verdicts) or of the result (aborts) that produced the finding. */
  readonly line: number;
  readonly tool: string;
  readonly detector: DetectorName;
  readonly level: FindingLevel;
  readonly count: number;
  /** `value` is `null` for live findings: a log names no thresholds, only the event. */
  readonly threshold: { readonly name: ThresholdName; readonly value: number | null };
  /** True when the run would already have been stopped (blocked or aborted) before this finding. */
  readonly afterStop: boolean;
  readonly message: string;
  /** Identifies the call pattern (tool + args) so reporters can collapse repeats; not printed. */
  readonly argsHash: string;
  /**
   * The pattern in a few words (arguments, what came back), for the table's explanation lines; only
   * when replay was handed the input's events (analyze), never in machine outputs.
   */
  readonly preview?: FindingPreview;
}

/** A verdict (or abort) of replay: always of a run, at a known call. */
export interface ReplayedFinding extends FindingBase {
  readonly run: string;
  /** 1-based ordinal of the tool call within its run. */
  readonly call: number;
  readonly source?: undefined;
}

/** What a live runtime logged (Gateway logs: liveRuns.ts). */
export interface LiveFinding extends FindingBase {
  /** `null` for a finding logged while no run was open. */
  readonly run: string | null;
  /** `null` when the log does not tell the call (its run's start was not in the log, or the run never started that tool). */
  readonly call: number | null;
  readonly source: "log";
  /** The lines that repeated this event (hook and diagnostic echoes), merged into it. */
  readonly echoLines?: readonly number[];
}

export type Finding = ReplayedFinding | LiveFinding;

export interface RunStop {
  readonly kind: "block" | "abort";
  readonly call: number;
}

interface RunBase {
  readonly run: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  /** Tool calls seen in the run. */
  readonly calls: number;
  readonly compactions: number;
  readonly firstStop: RunStop | null;
  readonly guardWindows: readonly GuardWindow[];
  /** Loop vetoes already present in the input (the live runtime really blocked these calls). */
  readonly recordedVetoes: number;
  /**
   * When the run started, as an ISO string: the time of its first event that the input dated
   * (canonical `ts`, a transcript entry's `timestamp`); `null` or absent when none was.
   */
  readonly startedAt?: string | null;
}

/** A run replayed through the detectors. */
export interface ReplayedRun extends RunBase {
  /** In order: an array, or a very long run's, read back from disk as it is walked (findingList.ts). */
  readonly findings: FindingList<ReplayedFinding>;
  /** The detector generation the run was replayed under, and why (absent: the default, not asked for). */
  readonly profile?: ProfileChoice;
  /** The run's calls in order, when the analysis was asked for them (`--format html`). */
  readonly timeline?: RunTimeline;
  /**
   * What identifies the run to a person (its end, prompt, channel, model, outcome: core/runIdentity.ts),
   * when the input recorded any; its start is `startedAt`.
   */
  readonly facts?: RunFacts;
  /** Call ordinals of the first recorded vetoes (at most `MAX_VETO_CALLS`; `recordedVetoes` counts them all). */
  readonly recordedVetoCalls?: readonly number[];
  readonly source?: undefined;
  /**
   * What the run's model turns used (cost.md §2): `usage` every turn, `usageOnFlagged` the turns
   * with a flagged call, `usageAfterStop` the turns after the one that made the first stop's call.
   * All absent when the input recorded no turn for the run (Gateway logs, events without usage).
   */
  readonly usage?: UsageSum;
  readonly usageOnFlagged?: UsageSum;
  readonly usageAfterStop?: UsageSum;
  /** The same per loop (a collapsed row: core/runCost.ts `costPatternKey`), in order of first finding. */
  readonly patternUsage?: readonly PatternCost[];
}

/** Recorded vetoes whose call ordinals a run keeps: enough to name them, bounded whatever the input. */
export const MAX_VETO_CALLS = 20;

/** A run read from a Gateway log: what the live runtime did, not a replay. */
export interface LiveRun extends RunBase {
  readonly findings: readonly LiveFinding[];
  readonly source: "log";
  readonly live: LiveRunDetail;
}

export type RunReport = ReplayedRun | LiveRun;

/** What a Gateway log tells about a run beyond its findings (`calls` counts its tool starts). */
export interface LiveRunDetail {
  /** The log holds the run's `embedded run start` (so call ordinals count from its first call). */
  readonly started: boolean;
  /** The log holds the run's `embedded run done`. */
  readonly ended: boolean;
  /** Post-compaction guard lines: armed, loop persisted (the abort), window closed. */
  readonly guard: { readonly armed: number; readonly persisted: number; readonly windowsClosed: number };
}

/** Every input line is accounted for: read = used + ignored + skipped. */
export interface LineCounts {
  read: number;
  used: number;
  ignored: number;
  skipped: number;
}

/**
 * What session transcripts replay differently from what their lines say (inputs.md §2): rewritten
 * copies of earlier entries, entries another file of the session already held, and calls rebuilt
 * from a result that no call carries.
 */
export interface TranscriptCounts {
  copies: number;
  duplicates: number;
  reconstructedCalls: number;
}

export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** Level order for `--fail-on` and for sorting: a block is a critical verdict. */
export const LEVEL_RANK: Readonly<Record<FindingLevel, number>> = { warning: 1, critical: 2, abort: 3 };

/**
 * A stop as machine outputs write it (`{kind, call}`, kind a level: `critical` or `abort`, as cli.md
 * names levels); the human reports say "blocked" for the critical one.
 */
export function stopJson(stop: RunStop): { readonly kind: "critical" | "abort"; readonly call: number } {
  return { kind: stop.kind === "block" ? "critical" : "abort", call: stop.call };
}

/** The word a human reads for a level: the runtime blocks on a critical verdict. */
export function levelLabel(level: FindingLevel): "warning" | "block" | "abort" {
  return level === "critical" ? "block" : level;
}
