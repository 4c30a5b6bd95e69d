/**
 * What the runs of a report used, summed over them (cost.md §3: the summary's totals): their turns,
 * those with a flagged call, those after each run's first stop. Only runs whose input recorded
 * usage add to it (`runs` counts them); with none, a summary has no usage at all rather than zeros.
 * Counted where the level counts are (levelCounts.ts): for runs kept in memory by report.ts, for
 * spilled ones by their segment (runSpill.ts) and a cache entry's totals, never by reading back.
 */
import type { ReplayedRun } from "../core/findings.js";
import { EMPTY_SUM, mergeSums, UsageTotals, type UsageSum } from "../core/usage.js";

export interface RunsUsage {
  /** Runs that recorded usage. */
  readonly runs: number;
  readonly spent: UsageSum;
  readonly onFlagged: UsageSum;
  readonly afterStop: UsageSum;
}

export const NO_RUNS_USAGE: RunsUsage = Object.freeze({ runs: 0, spent: EMPTY_SUM, onFlagged: EMPTY_SUM, afterStop: EMPTY_SUM });

/**
 * Totals being built run after run: mutable sums, not three new sums per run (a report of 8,000
 * runs made 24,000 of them, a measurable part of what reading usage cost: bench --usage).
 */
export class RunsUsageTotals {
  private runs = 0;
  private readonly spent = new UsageTotals();
  private readonly onFlagged = new UsageTotals();
  private readonly afterStop = new UsageTotals();

  /** One more run (nothing when it recorded no usage). */
  add(run: Pick<ReplayedRun, "usage" | "usageOnFlagged" | "usageAfterStop">): void {
    if (run.usage === undefined) return;
    this.runs++;
    this.spent.merge(run.usage);
    if (run.usageOnFlagged !== undefined) this.onFlagged.merge(run.usageOnFlagged);
    if (run.usageAfterStop !== undefined) this.afterStop.merge(run.usageAfterStop);
  }

  /** Totals counted elsewhere (spilled runs, a cache entry). */
  addAll(usage: RunsUsage | undefined): void {
    if (usage === undefined || usage.runs === 0) return;
    this.runs += usage.runs;
    this.spent.merge(usage.spent);
    this.onFlagged.merge(usage.onFlagged);
    this.afterStop.merge(usage.afterStop);
  }

  value(): RunsUsage {
    if (this.runs === 0) return NO_RUNS_USAGE;
    return { runs: this.runs, spent: this.spent.sum(), onFlagged: this.onFlagged.sum(), afterStop: this.afterStop.sum() };
  }
}

/** Two totals as one (absent: none). */
export function addRunsUsage(a: RunsUsage, b: RunsUsage | undefined): RunsUsage {
  if (b === undefined || b.runs === 0) return a;
  if (a.runs === 0) return b;
  return { runs: a.runs + b.runs, spent: mergeSums(a.spent, b.spent), onFlagged: mergeSums(a.onFlagged, b.onFlagged), afterStop: mergeSums(a.afterStop, b.afterStop) };
}
