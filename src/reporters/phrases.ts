/** Phrases the human-readable reports share: counts in words, thresholds, detector and profile state. */
import type { ResolvedConfig } from "../core/config.js";
import type { ReplayedRun } from "../core/findings.js";
import type { ConfigSummary, Summary } from "./model.js";

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

/** "1 run", "2 runs". */
export const plural = (n: number, word: string): string => `${n} ${n === 1 ? word : pluralWord(word)}`;

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
