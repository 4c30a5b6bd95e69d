/**
 * What every reporter receives, and the derived views they share: the summary counts, the
 * machine-readable finding shape, and the collapsing of repeated verdicts into table rows.
 */
import type { LineCounts, TranscriptCounts } from "../adapters/adapter.js";
import type { ConfigNotice, ResolvedConfig, ValueSource } from "../core/config.js";
import type { Diagnostic, Finding, FindingLevel, RunReport } from "../core/findings.js";
import type { AgentConfigView } from "./configView.js";
import type { ProfileRequest } from "../core/profiles/choice.js";

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

export interface ReportData {
  readonly version: string;
  readonly config: ConfigSummary;
  readonly files: ReadonlyArray<{ file: string; format: string }>;
  /** Replayed runs, then the live runs read from Gateway logs (those have `source: "log"`). */
  readonly runs: readonly RunReport[];
  readonly lines: LineCounts;
  /** What session transcripts did not replay again, or rebuilt (absent: nothing of the kind). */
  readonly transcript?: TranscriptCounts;
  /** Input files not read at all, with the reason (binary, no known format, not a transcript). */
  readonly unusable?: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticsTotal: number;
  /**
   * Every live finding read from Gateway logs (also listed in their live runs, except those logged
   * while no run was open); present when a Gateway log was read.
   */
  readonly liveFindings?: readonly Finding[];
}

export interface ReportOptions {
  /** Show runs without findings too. */
  readonly all: boolean;
  /** One row per verdict instead of one per pattern. */
  readonly verbose: boolean;
  readonly color: boolean;
  /** Terminal width for the table, if known. */
  readonly width?: number;
}

/**
 * A report's text, whole or in pieces: a reporter whose output grows with the number of runs (json)
 * hands it over piece by piece, so that a report of 100 000 runs is never held as one string.
 */
export type ReportOutput = string | Iterable<string>;

export type Reporter = (data: ReportData, options: ReportOptions) => ReportOutput;

/** The whole text of a report. */
export function reportText(output: ReportOutput): string {
  return typeof output === "string" ? output : [...output].join("");
}

export interface Summary {
  readonly files: number;
  /** Input files not read at all (their reasons are diagnostics). */
  readonly filesNotRead: number;
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly findings: Readonly<Record<FindingLevel, number>> & { readonly total: number };
  readonly runsWith: { readonly warning: number; readonly block: number; readonly abort: number };
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
}

type LevelCounts = Record<FindingLevel, number> & { total: number };

function countLevels(findings: readonly Finding[]): LevelCounts {
  const counts = { warning: 0, critical: 0, abort: 0, total: 0 };
  for (const finding of findings) {
    counts[finding.level]++;
    counts.total++;
  }
  return counts;
}

export const isLiveRun = (run: RunReport): boolean => run.source === "log";

/** Every finding of the report once: replayed ones from their runs, then the live ones. */
export function allFindings(data: ReportData): Finding[] {
  return [...data.runs.filter((run) => !isLiveRun(run)).flatMap((run) => run.findings), ...(data.liveFindings ?? [])];
}

/** Counts over replayed and live runs alike; `live` says how much of it came from Gateway logs. */
export function summarize(data: ReportData): Summary {
  const runsWith = { warning: 0, block: 0, abort: 0 };
  let calls = 0;
  let compactions = 0;
  for (const run of data.runs) {
    calls += run.calls;
    compactions += run.compactions;
    const levels = new Set<FindingLevel>(run.findings.map((finding) => finding.level));
    if (levels.has("warning")) runsWith.warning++;
    if (levels.has("critical")) runsWith.block++;
    if (levels.has("abort")) runsWith.abort++;
  }
  const liveFindings = data.liveFindings;
  const transcript = data.transcript;
  return {
    files: data.files.length,
    filesNotRead: data.unusable?.length ?? 0,
    runs: data.runs.length,
    calls,
    compactions,
    findings: countLevels(allFindings(data)),
    runsWith,
    lines: { ...data.lines },
    transcripts: { copiesSkipped: transcript?.copies ?? 0, duplicatesSkipped: transcript?.duplicates ?? 0, reconstructedCalls: transcript?.reconstructedCalls ?? 0 },
    diagnostics: data.diagnosticsTotal,
    ...(liveFindings
      ? {
          live: {
            runs: data.runs.filter(isLiveRun).length,
            findings: countLevels(liveFindings),
            outsideRuns: liveFindings.filter((finding) => finding.run === null).length,
          },
        }
      : {}),
  };
}

/** The published shape of a finding (ndjson line, json `findings[]`): no internal fields. */
export function publicFinding(finding: Finding): Record<string, unknown> {
  return {
    run: finding.run,
    agent: finding.agent,
    session: finding.session,
    file: finding.file,
    line: finding.line,
    call: finding.call,
    tool: finding.tool,
    detector: finding.detector,
    level: finding.level,
    count: finding.count,
    threshold: { name: finding.threshold.name, value: finding.threshold.value },
    afterStop: finding.afterStop,
    message: finding.message,
    ...(finding.source ? { source: finding.source } : {}),
  };
}

/** One table row: consecutive-or-not verdicts of one pattern, level and stop side. */
export interface FindingGroup {
  readonly first: Finding;
  readonly last: Finding;
  readonly verdicts: number;
  readonly maxCount: number;
  readonly minCount: number;
}

/**
 * Collapses repeated verdicts of one pattern (same detector, level, tool and args, same side of the
 * run's first stop) into one row, in order of first appearance. Ping-pong verdicts alternate between
 * two call patterns and collapse by detector and level alone.
 */
export function groupFindings(findings: readonly Finding[], verbose: boolean): FindingGroup[] {
  if (verbose) return findings.map((f) => ({ first: f, last: f, verdicts: 1, maxCount: f.count, minCount: f.count }));
  const groups = new Map<string, { first: Finding; last: Finding; verdicts: number; maxCount: number; minCount: number }>();
  for (const finding of findings) {
    // A ping-pong alternates between two patterns: both sides are one loop, so one row.
    const pattern = finding.detector === "ping_pong" ? [] : [finding.tool, finding.argsHash];
    // JSON, not a separator join: tool names and run ids from the input may hold any character.
    const key = JSON.stringify([finding.detector, finding.level, pattern, finding.afterStop, finding.source ?? "", finding.run]);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { first: finding, last: finding, verdicts: 1, maxCount: finding.count, minCount: finding.count });
    } else {
      group.last = finding;
      group.verdicts++;
      group.maxCount = Math.max(group.maxCount, finding.count);
      group.minCount = Math.min(group.minCount, finding.count);
    }
  }
  return [...groups.values()];
}

/** The summary's sentence on what transcripts did not replay again or rebuilt, if anything. */
export function transcriptNote(s: Summary): string | undefined {
  const { copiesSkipped, duplicatesSkipped, reconstructedCalls } = s.transcripts;
  const parts = [
    copiesSkipped > 0 ? `${plural(copiesSkipped, "rewritten copy")} of earlier entries skipped` : "",
    duplicatesSkipped > 0 ? `${plural(duplicatesSkipped, "entry")} held by several files of a session replayed once` : "",
    reconstructedCalls > 0 ? `${plural(reconstructedCalls, "call")} rebuilt from results without a call` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** "1 run", "2 runs". */
export const plural = (n: number, word: string): string => `${n} ${n === 1 ? word : pluralWord(word)}`;

function pluralWord(word: string): string {
  if (word.endsWith("copy")) return `${word.slice(0, -1)}ies`;
  if (word.endsWith("entry")) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** "11–20" for a collapsed row, "11" for one verdict, "–" when the calls are unknown (live findings). */
export function callRange(group: FindingGroup): string {
  const first = group.first.call ?? group.last.call;
  const last = group.last.call ?? group.first.call;
  if (first === null || last === null) return "–";
  return first === last ? String(first) : `${first}–${last}`;
}

/** Effective thresholds in `name=value` form, for headers and summaries. */
export function thresholdList(config: ResolvedConfig): string {
  return [
    `warningThreshold=${config.warningThreshold}`,
    `criticalThreshold=${config.criticalThreshold}`,
    `globalCircuitBreakerThreshold=${config.globalCircuitBreakerThreshold}`,
    `unknownToolThreshold=${config.unknownToolThreshold}`,
    `historySize=${config.historySize}`,
    `postCompactionGuard.windowSize=${config.postCompactionGuard.windowSize}`,
  ].join(" ");
}

/** One sentence on what the rolling detectors and the guard are doing under this config. */
/** The line a run header adds under `--profile`: its generation and why (auto: the recorded version). */
export function runProfileLine(run: RunReport, config: Pick<ConfigSummary, "profile">): string | undefined {
  if (config.profile === undefined || run.profile === undefined) return undefined;
  return `replayed under profile ${run.profile.profile} (${run.profile.reason})`;
}

export function detectorState(config: Pick<ConfigSummary, "effective">): string {
  const { effective } = config;
  if (effective.enabled === true) {
    const off = Object.entries(effective.detectors)
      .filter(([, on]) => !on)
      .map(([name]) => name);
    return `rolling detectors on${off.length ? ` (disabled: ${off.join(", ")})` : ""}; post-compaction guard on`;
  }
  if (effective.enabled === false) return "rolling detectors and post-compaction guard off (enabled: false); use --set enabled=true to evaluate them";
  return "rolling detectors off (enabled is unset, the runtime's default); post-compaction guard on; use --set enabled=true to evaluate the detectors";
}
