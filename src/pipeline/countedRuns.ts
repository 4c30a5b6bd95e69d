/**
 * Runs counted but not held: what the summary adds of runs an analysis wrote to disk (runSpill.ts,
 * a segment's counts) or left unread because a kept output holds their text (cache/unreadRuns.ts).
 * Counts add up in any order, and so does the money: usage totals carry their cost exactly
 * (runsUsage.ts `exactCost`).
 */
import { addRunLevels, noRunLevels, type RunLevelCounts } from "./levelCounts.js";
import { addRunsUsage, NO_RUNS_USAGE, type RunsUsage } from "./runsUsage.js";

export interface CountedRuns {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly counts: RunLevelCounts;
  readonly usage?: RunsUsage;
}

/** Two sets of counted runs as one (its five fields only: `more` may be a segment with others). */
export function addCounted(sum: CountedRuns | undefined, more: CountedRuns): CountedRuns {
  const usage = addRunsUsage(sum?.usage ?? NO_RUNS_USAGE, more.usage);
  return {
    runs: (sum?.runs ?? 0) + more.runs,
    calls: (sum?.calls ?? 0) + more.calls,
    compactions: (sum?.compactions ?? 0) + more.compactions,
    counts: addRunLevels(sum?.counts ?? noRunLevels(), more.counts),
    ...(usage.runs > 0 && { usage }),
  };
}
