/**
 * A unit's runs that a command left unread because the output it kept last time holds their text
 * (outputSplice.ts): only what the summary counts of them, from the unit's entry (analysisEntry.ts
 * `RunTotals`), as spilled runs are counted from their segments (summary.ts `addSpilled`).
 *
 * Counts add up in any order, but the summary's usage sums are floating point (a cost in USD): the
 * unit's sum added at once is not always what adding its runs one by one between the other units'
 * gives. So a unit is left unread, and the fresh runs spliced among them, only when every usage sum
 * involved is a whole number (token counts; a cost only when none was recorded or all were whole),
 * which floating point adds exactly in any order (below 2^53).
 */
import type { ReplayedRun } from "../../core/findings.js";
import { USAGE_FIELDS, type UsageSum } from "../../core/usage.js";
import { addRunLevels, type RunLevelCounts } from "../levelCounts.js";
import { addRunsUsage, NO_RUNS_USAGE, type RunsUsage } from "../runsUsage.js";

const isWholeSum = (sum: UsageSum | undefined): boolean => sum === undefined || USAGE_FIELDS.every((field) => sum[field] === undefined || Number.isSafeInteger(sum[field]));

/** Whether usage totals are whole numbers, each (see the module comment). */
export const isWholeUsage = (usage: RunsUsage | undefined): boolean => usage === undefined || (isWholeSum(usage.spent) && isWholeSum(usage.onFlagged) && isWholeSum(usage.afterStop));

/** Whether a run's usage is whole numbers. */
export const isWholeRun = (run: Pick<ReplayedRun, "usage" | "usageOnFlagged" | "usageAfterStop">): boolean => isWholeSum(run.usage) && isWholeSum(run.usageOnFlagged) && isWholeSum(run.usageAfterStop);

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
