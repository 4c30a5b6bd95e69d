/** Phrases the human-readable reports share: counts in words, thresholds, detector and profile state. */
import type { ResolvedConfig } from "../core/config.js";
import type { ReplayedRun } from "../core/findings.js";
import type { Summary } from "./model.js";
import type { ConfigSummary } from "./reportConfig.js";

/**
 * The summary on transcript entries not replayed again and calls rebuilt, in one line a reader
 * understands without knowing OpenClaw's file layout (on a real install 20 000 repeated entries and
 * a few hundred rebuilt calls are routine, nothing to act on); `transcriptDetails` has each kind with
 * what it is, for `--verbose`; `--format json` has the counts (summary.transcripts). None when all are 0.
 */
export function transcriptSummary(s: Summary): string | undefined {
  const { copiesSkipped, duplicatesSkipped, reconstructedCalls } = s.transcripts;
  const repeated = copiesSkipped + duplicatesSkipped;
  const parts = [
    repeated > 0 ? `${plural(repeated, "repeated entry", "repeated entries")} counted once` : "",
    reconstructedCalls > 0 ? `${plural(reconstructedCalls, "call")} known only from ${reconstructedCalls === 1 ? "its result" : "their results"}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? `${parts.join(", ")} (--verbose says more)` : undefined;
}

/** Each kind `transcriptSummary` counts, with what it is. */
export function transcriptDetails(s: Summary): string[] {
  const { copiesSkipped, duplicatesSkipped, reconstructedCalls } = s.transcripts;
  return [
    copiesSkipped > 0 ? `${plural(copiesSkipped, "rewritten copy")} of earlier entries skipped (a session file that repeats its history)` : "",
    duplicatesSkipped > 0 ? `${plural(duplicatesSkipped, "entry")} held by several files of one session (reset or copied files), replayed once` : "",
    reconstructedCalls > 0 ? `${plural(reconstructedCalls, "call")} rebuilt from a tool result whose call the transcript lacks` : "",
  ].filter(Boolean);
}

/** Human outputs say "block" for a critical verdict (levelLabel): said once, under the tables. */
export const LEGEND = "block = critical verdict (the call is refused) · ⏹ = after the run's first stop";

/**
 * The summary's sentences on what the filters hid (filters.ts): none without filters. They hold ids
 * as given: not sanitized.
 */
export function filterNotes(s: Summary): string[] {
  const f = s.filtered;
  if (f === undefined) return [];
  const flags = Object.entries(f.by)
    .filter(([key]) => key !== "top")
    .map(([key, value]) => `--${key} ${Array.isArray(value) ? value.join(",") : String(value)}`);
  const parts: string[] = [];
  if (flags.length > 0) {
    const undated = f.runsUndated > 0 ? `; ${plural(f.runsUndated, "run")} without a recorded start time among them` : "";
    parts.push(`filtered by ${flags.join(" ")}: ${plural(f.runsHidden, "run")} and ${plural(f.findingsHidden, "finding")} hidden${undated}`);
  }
  if (f.agentMatchedNoRun === true) parts.push(`no run is agent ${f.by.agent}'s: every run shown, replayed under its override`);
  if (f.listed !== undefined) parts.push(`the ${f.listed.runs} worst of ${plural(f.listed.of, "run")} listed (--top ${f.by.top})`);
  return parts;
}

/** "1 run", "2 runs" (`many`: a plural the rule below does not make). */
export const plural = (n: number, word: string, many?: string): string => `${n} ${n === 1 ? word : (many ?? pluralWord(word))}`;

function pluralWord(word: string): string {
  if (word.endsWith("copy")) return `${word.slice(0, -1)}ies`;
  if (word.endsWith("entry")) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
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
export function runProfileLine(run: ReplayedRun, config: Pick<ConfigSummary, "profile">): string | undefined {
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
