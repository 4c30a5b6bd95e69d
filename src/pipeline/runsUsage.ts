/**
 * What the runs of a report used, summed over them (cost.md §3: the summary's totals): their turns,
 * those with a flagged call, those after each run's first stop. Only runs whose input recorded
 * usage add to it (`runs` counts them); with none, a summary has no usage at all rather than zeros.
 * Counted where the level counts are (levelCounts.ts): for runs kept in memory by report.ts, for
 * spilled ones by their segment (runSpill.ts) and a cache entry's totals, never by reading back.
 */
import type { ReplayedRun } from "../core/findings.js";
import { EMPTY_SUM, mergeSums, type UsageSum } from "../core/usage.js";

export interface RunsUsage {
  /** Runs that recorded usage. */
  readonly runs: number;
  readonly spent: UsageSum;
  readonly onFlagged: UsageSum;
  readonly afterStop: UsageSum;
}

export const NO_RUNS_USAGE: RunsUsage = Object.freeze({ runs: 0, spent: EMPTY_SUM, onFlagged: EMPTY_SUM, afterStop: EMPTY_SUM });

/** `total` with one more run (the same object when the run recorded no usage). */
export function withRunUsage(total: RunsUsage, run: ReplayedRun): RunsUsage {
  if (run.usage === undefined) return total;
  return {
    runs: total.runs + 1,
    spent: mergeSums(total.spent, run.usage),
    onFlagged: mergeSums(total.onFlagged, run.usageOnFlagged ?? EMPTY_SUM),
    afterStop: mergeSums(total.afterStop, run.usageAfterStop ?? EMPTY_SUM),
  };
}

/** Two totals as one (absent: none). */
export function addRunsUsage(a: RunsUsage, b: RunsUsage | undefined): RunsUsage {
  if (b === undefined || b.runs === 0) return a;
  if (a.runs === 0) return b;
  return { runs: a.runs + b.runs, spent: mergeSums(a.spent, b.spent), onFlagged: mergeSums(a.onFlagged, b.onFlagged), afterStop: mergeSums(a.afterStop, b.afterStop) };
}
