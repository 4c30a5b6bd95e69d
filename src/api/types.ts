/**
 * The public types of the library API (docs/api.md). The report's shapes are written out here, not
 * taken from the report model (src/reporters/model.ts), which is internal and changes freely: these
 * are the `--format json` document's, which test/api/analyze.test.ts holds equal to the CLI's.
 *
 * Stability (semver): `Report` is the `--format json` document. From 1.0, a minor version may add
 * fields (and new detector names or input formats); removing or renaming a field, or changing its
 * meaning, is a major version. Before 1.0 (0.x) a minor version may break, and says so in the
 * CHANGELOG.
 */

// Shapes the json reporter writes as they are: their definitions are the documents'. A change to
// them is a change to `--format json`, which compare-outputs and the CLI tests hold to the spec.
import type { DetectorName, ThresholdName } from "../core/detectorInfo.js";
import type { FindingLevel } from "../core/findings.js";
import type { GuardWindow } from "../core/postCompactionGuard.js";
import type { Comparison, ComparisonSide } from "../reporters/comparison.js";
import type { ReportFilters } from "../reporters/model.js";

export type { Comparison, ComparisonSide, DetectorName, FindingLevel, GuardWindow, ThresholdName };

/** `atOrAbove` / `failOn` levels: `block` is another name for `critical` (as `--fail-on` takes). */
export type LevelThreshold = FindingLevel | "block";

export type ProfileRequest = "configurable" | "newest" | "auto";

/** The output formats `format` writes (`--format`). */
export type FormatName = "table" | "json" | "ndjson" | "markdown" | "github" | "html" | "sarif" | "junit" | "gitlab";

export interface LevelCounts {
  readonly warning: number;
  readonly critical: number;
  readonly abort: number;
  readonly total: number;
}

/** One detector verdict: where in the input, which call, which detector, at what level. */
export interface Finding {
  readonly run: string | null;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  readonly line: number;
  /** 1-based call ordinal in its run. */
  readonly call: number | null;
  readonly tool: string;
  readonly detector: DetectorName;
  readonly level: FindingLevel;
  readonly count: number;
  readonly threshold: { readonly name: ThresholdName; readonly value: number | null };
  /** The run had already stopped (blocked or aborted) before this verdict. */
  readonly afterStop: boolean;
  readonly message: string;
  /** `log`: logged live by the runtime (a Gateway log), not replayed. */
  readonly source?: "log";
}

export interface RunDocument {
  readonly run: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  /** The run's first and last dated entries (ISO); null when its input dates none. */
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  /** The first user prompt on one line (control and escape sequences removed); null when not recorded or hidden (`--no-prompts`). */
  readonly prompt: string | null;
  /** Where the run came in (`telegram direct`, `cron`), the model, how it ended; null when not recorded. */
  readonly channel: string | null;
  readonly model: string | null;
  readonly outcome:
    | { readonly kind: "stopped"; readonly reason: string }
    | { readonly kind: "aborted" }
    | { readonly kind: "error"; readonly message: string }
    | { readonly kind: "timeout" }
    | null;
  readonly calls: number;
  readonly compactions: number;
  /** The first block (`critical`) or abort, at which call; null when the run never stopped. */
  readonly firstStop: { readonly kind: "critical" | "abort"; readonly call: number } | null;
  readonly recordedVetoes: number;
  readonly guardWindows: readonly GuardWindow[];
  /** With `profile` given: the detector generation the run was replayed under, and why. */
  readonly profile?: { readonly name: string; readonly reason: string };
  /** A run read from a Gateway log. */
  readonly source?: "log";
  readonly live?: { readonly started: boolean; readonly ended: boolean; readonly guard: { readonly armed: number; readonly persisted: number; readonly windowsClosed: number } };
  /** What the run's model turns used (docs/outputs.md "What a loop cost"); absent when its input recorded none. */
  readonly usage?: UsageDocument;
  /** The same over the turns with a flagged call. */
  readonly usageOnFlagged?: UsageDocument;
  /** The same over the turns after the one that made the first would-be stop. */
  readonly usageAfterStop?: UsageDocument;
  /** Each loop's (a collapsed row's) turns with a finding of it, and those after the first stop; present when the run has findings and recorded usage. */
  readonly usageByPattern?: ReadonlyArray<{ readonly detector?: string; readonly tool?: string; readonly firstCall?: number; readonly usageOnFlagged: UsageDocument; readonly usageAfterStop: UsageDocument }>;
  readonly findings: readonly Finding[];
}

/** A sum of turns' usage: fields the input did not record are absent (never 0). */
export interface UsageDocument {
  readonly turns: number;
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly total?: number;
  /** Money as the format records it (OpenClaw: USD); never estimated. */
  readonly cost?: number;
  /** Present when only some turns recorded tokens / money. */
  readonly turnsWithoutTokens?: number;
  readonly turnsWithoutCost?: number;
}

export interface ConfigNotice {
  readonly origin: string;
  readonly key: string;
  readonly message: string;
}

/** The `config` block: effective values, where each came from, notices. */
export interface ReportConfig {
  readonly enabled?: boolean;
  readonly historySize: number;
  readonly warningThreshold: number;
  readonly criticalThreshold: number;
  readonly unknownToolThreshold: number;
  readonly globalCircuitBreakerThreshold: number;
  readonly detectors: Readonly<Record<string, boolean>>;
  readonly postCompactionGuard: { readonly windowSize: number };
  readonly rollingDetectors: boolean;
  readonly postCompactionGuardActive: boolean;
  /** The config file (or the name given to a config object), null for none. */
  readonly file: string | null;
  /** No config given: looplens turned the rolling detectors on itself. */
  readonly looplensDefault: boolean;
  readonly agent: string | null;
  readonly unappliedConfig?: string;
  readonly agentOverrides: readonly string[];
  readonly agentConfigs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly sources: Readonly<Record<string, string>>;
  readonly notices: readonly ConfigNotice[];
  readonly profile?: ProfileRequest;
}

export interface ReportSummary {
  readonly files: number;
  readonly filesNotRead: number;
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly findings: LevelCounts;
  readonly runsWith: { readonly warning: number; readonly critical: number; readonly abort: number };
  /** `read == used + ignored + skipped`. */
  readonly lines: { readonly read: number; readonly used: number; readonly ignored: number; readonly skipped: number };
  readonly transcripts: { readonly copiesSkipped: number; readonly duplicatesSkipped: number; readonly reconstructedCalls: number };
  readonly diagnostics: number;
  readonly live?: { readonly runs: number; readonly findings: LevelCounts; readonly outsideRuns: number };
  /** What the filters hid; present only when filters were given. */
  readonly filtered?: Readonly<Record<string, unknown>>;
  /** Runs that recorded usage, and the sums over them; absent when none did. */
  readonly runsWithUsage?: number;
  readonly usage?: UsageDocument;
  readonly usageOnFlagged?: UsageDocument;
  readonly usageAfterStop?: UsageDocument;
}

/** A bad input line (or a file not read), as the CLI prints it: `file:line: reason`. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** The finished report: the `--format json` document, as data. */
export interface Report {
  readonly version: string;
  readonly config: ReportConfig;
  readonly summary: ReportSummary;
  /** Replayed runs in input order, then runs read from Gateway logs. */
  readonly runs: readonly RunDocument[];
  /** Present when a Gateway log was read. */
  readonly liveFindings?: readonly Finding[];
  readonly comparison?: Comparison;
  /** Up to 1000; `summary.diagnostics` counts them all. */
  readonly diagnostics: readonly Diagnostic[];
  /** With `failOn` or `maxWarnings` only (not in `--format json`): what the CLI's exit status would say. */
  readonly gate?: GateResult;
}

/** `failOn` / `maxWarnings` judged as `--fail-on` / `--max-warnings` judge: `failed` is the CLI's exit status 1. */
export interface GateResult {
  readonly failOn?: LevelThreshold;
  readonly maxWarnings?: number;
  /** Findings at or above `failOn` (warning when only `maxWarnings` was given), replayed and live, and the runs that have one. */
  readonly failing: { readonly findings: number; readonly runs: number };
  readonly warnings: number;
  readonly failed: boolean;
  /** The lines the CLI closes with on stderr when it fails (`✖ 2 findings at or above block in 1 run`); none when it passes. */
  readonly reasons: readonly string[];
}

/** Fields every canonical event may carry (spec: inputs.md §1). */
interface EventFields {
  /** Required unless no event has one: then all are one run. */
  readonly run?: string;
  readonly session?: string;
  readonly agent?: string;
  /** ISO string or epoch milliseconds. */
  readonly ts?: string | number;
  /** Where the event came from, as a pair: findings then point there. */
  readonly file?: string;
  readonly line?: number;
}

/** One line of looplens' own event format, as an object. */
export type CanonicalEvent = EventFields &
  (
    | { readonly type: "run_start"; readonly harnessVersion?: string }
    | { readonly type: "run_end" }
    | { readonly type: "tool_call"; readonly tool: string; readonly id?: string; readonly args?: unknown }
    | { readonly type: "tool_result"; readonly tool?: string; readonly id?: string; readonly result?: unknown; readonly error?: unknown }
    | { readonly type: "compaction" }
  );

/** A config file read by `loadConfig`. */
export interface LoadedConfig {
  readonly path: string;
  /** `bare`: the file is a loopDetection block; `openclaw`: an openclaw.json. */
  readonly kind: "bare" | "openclaw";
  readonly global: { readonly where: string; readonly values: Readonly<Record<string, unknown>> } | undefined;
  /** Agent overrides by normalized agent id. */
  readonly agents: ReadonlyMap<string, { readonly id: string; readonly where: string; readonly values: Readonly<Record<string, unknown>> }>;
  readonly notices: readonly ConfigNotice[];
}

/**
 * What `analyze` reads: paths (files, folders, stores; `-` is not standard input here), an
 * iterable of lines or raw chunks (strings are lines, a newline is added to each; bytes are passed
 * through as they are, compressed or not) read as standard input is (file `-`), or canonical events.
 */
export type AnalyzeInput =
  | string
  | readonly string[]
  | readonly CanonicalEvent[]
  | AsyncIterable<string | Uint8Array>
  | Iterable<Uint8Array>;

/** What `analyze` takes: the CLI's options, by the same names. */
export interface AnalyzeOptions {
  /** `--config`: a file path (`auto` as on the CLI), a config read by `loadConfig`, or the object an openclaw.json or a bare loopDetection block holds. */
  readonly config?: string | LoadedConfig | Readonly<Record<string, unknown>>;
  /** `--set key=value` pairs, e.g. `["criticalThreshold=12"]`, or an object of them. */
  readonly set?: readonly string[] | Readonly<Record<string, string | number | boolean>>;
  readonly agent?: string;
  readonly profile?: ProfileRequest;
  /** `--input-format`: force the input format instead of detecting it. */
  readonly inputFormat?: string;
  readonly activeBranch?: boolean;
  /** `--max-line-bytes`: longer input lines are skipped as bad, unread (default 32 MiB); this analysis's own, even with others running at once. */
  readonly maxLineBytes?: number;
  /** `--strict`: a bad line skipped is an `InputError` (the CLI's exit 2), not a diagnostic. */
  readonly strict?: boolean;
  /** `--fail-on`: judge the findings at or above this level; the verdict is `report.gate` (an input with no run is an `InputError`, as on the CLI). */
  readonly failOn?: LevelThreshold;
  /** `--max-warnings`: more warnings than this fail `report.gate`. */
  readonly maxWarnings?: number;
  /**
   * Read and keep results in the CLI's result cache (`$LOOPLENS_CACHE_DIR`, else
   * `$XDG_CACHE_HOME/looplens`, else `~/.cache/looplens`, from `env`): off unless true here.
   */
  readonly cache?: boolean;
  /** The report's filters. */
  readonly filters?: ReportFilterOptions;
  /** Environment for `--config auto` and the state directory (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock relative `since`/`until` (`2h`) count back from (default: now). */
  readonly now?: Date;
}

/**
 * `--run`, `--session`, `--tool`, `--detector`, `--since`, `--until`, `--top` (`agent` is the
 * option's). `since`/`until`: an ISO date or a duration back from `now` (`2h`, `7d`), as the flags take.
 */
export type ReportFilterOptions = Omit<ReportFilters, "agent">;

/** What `format` takes besides the report (the CLI's report flags). */
export interface FormatOptions {
  /** `--all`: runs without findings too. */
  readonly all?: boolean;
  readonly verbose?: boolean;
  /** ANSI colour in table output (default false). */
  readonly color?: boolean;
  /** Table width (default 80). */
  readonly width?: number;
  /** `--no-explain` is `explain: false`. */
  readonly explain?: boolean;
  /** Shown paths are relative to this folder when shorter (default: process.cwd()). */
  readonly cwd?: string;
  /** junit: runs at or above this level are failures (default warning). */
  readonly failOn?: LevelThreshold;
}
