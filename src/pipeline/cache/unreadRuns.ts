/**
 * A unit's runs that a command left unread because the output it kept last time holds their text
 * (outputSplice.ts): only what the summary counts of them, from the unit's entry (analysisEntry.ts
 * `RunTotals`), as spilled runs are counted from their segments (summary.ts `addSpilled`).
 *
 * Counts add up in any order, and so does the summary's money: a unit's usage totals carry their cost
 * exactly (runsUsage.ts `exactCost`, core/exactSum.ts), so the unit's sum added at once gives what
 * adding its runs one by one between the other units' gives, fractional costs included.
 */
import { addRunLevels, type RunLevelCounts } from "../levelCounts.js";
import { addRunsUsage, NO_RUNS_USAGE, type RunsUsage } from "../runsUsage.js";

export interface UnreadRuns {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly counts: RunLevelCounts;
  readonly usage?: RunsUsage;
}

/** Two units' unread runs together. */
export function addUnread(sum: UnreadRuns | undefined, more: UnreadRuns): UnreadRuns {
  if (sum === undefined) return more;
  const usage = addRunsUsage(sum.usage ?? NO_RUNS_USAGE, more.usage);
  return {
    runs: sum.runs + more.runs,
    calls: sum.calls + more.calls,
    compactions: sum.compactions + more.compactions,
    counts: addRunLevels(sum.counts, more.counts),
    ...(usage.runs > 0 && { usage }),
  };
}
