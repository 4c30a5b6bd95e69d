/**
 * What the runs of a report used, summed over them (cost.md §3: the summary's totals): their turns,
 * those with a flagged call, those after each run's first stop. Only runs whose input recorded
 * usage add to it (`runs` counts them); with none, a summary has no usage at all rather than zeros.
 * Counted where the level counts are (levelCounts.ts): for runs kept in memory by report.ts, for
 * spilled ones by their segment (runSpill.ts) and a cache entry's totals, never by reading back.
 */
import { ExactSum, type ExactParts } from "../core/exactSum.js";
import type { ReplayedRun } from "../core/findings.js";
import { EMPTY_SUM, UsageTotals, type UsageSum } from "../core/usage.js";

export interface RunsUsage {
  /** Runs that recorded usage. */
  readonly runs: number;
  readonly spent: UsageSum;
  readonly onFlagged: UsageSum;
  readonly afterStop: UsageSum;
  /**
   * The three sums' money, exactly (core/exactSum.ts), when any run recorded some: totals are merged
   * run by run, segment by segment or unit by unit depending on memory and the cache, and the
   * costs' rounding must not depend on which. The sums' `cost` is this, rounded once.
   */
  readonly exactCost?: ExactCosts;
}

interface ExactCosts {
  readonly spent: ExactParts;
  readonly onFlagged: ExactParts;
  readonly afterStop: ExactParts;
}

export const NO_RUNS_USAGE: RunsUsage = Object.freeze({ runs: 0, spent: EMPTY_SUM, onFlagged: EMPTY_SUM, afterStop: EMPTY_SUM });

/**
 * Totals being built run after run: mutable sums, not three new sums per run (a report of 8,000
 * runs made 24,000 of them, a measurable part of what reading usage cost: bench --usage).
 */
export class RunsUsageTotals {
  private runs = 0;
  private readonly spent = new CostedTotals();
  private readonly onFlagged = new CostedTotals();
  private readonly afterStop = new CostedTotals();

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
    const exact = usage.exactCost;
    this.spent.merge(usage.spent, exact?.spent);
    this.onFlagged.merge(usage.onFlagged, exact?.onFlagged);
    this.afterStop.merge(usage.afterStop, exact?.afterStop);
  }

  value(): RunsUsage {
    if (this.runs === 0) return NO_RUNS_USAGE;
    const totals = { runs: this.runs, spent: this.spent.sum(), onFlagged: this.onFlagged.sum(), afterStop: this.afterStop.sum() };
    if (totals.spent.cost === undefined) return totals;
    return { ...totals, exactCost: { spent: this.spent.costParts(), onFlagged: this.onFlagged.costParts(), afterStop: this.afterStop.costParts() } };
  }
}

/** A usage sum whose money is summed exactly: the same cost whatever the grouping of its terms. */
class CostedTotals {
  private readonly totals = new UsageTotals();
  private readonly cost = new ExactSum();

  /** `sum`, of which `costParts` are the cost's exact partials when it was itself merged exactly. */
  merge(sum: UsageSum, costParts?: ExactParts): void {
    this.totals.merge(sum);
    if (costParts !== undefined) this.cost.addParts(costParts);
    else if (sum.cost !== undefined) this.cost.add(sum.cost);
  }

  sum(): UsageSum {
    const sum = this.totals.sum();
    return sum.cost === undefined ? sum : { ...sum, cost: this.cost.value() };
  }

  costParts(): ExactParts {
    return this.cost.partials();
  }
}

/** Two totals as one (absent: none). */
export function addRunsUsage(a: RunsUsage, b: RunsUsage | undefined): RunsUsage {
  if (b === undefined || b.runs === 0) return a;
  if (a.runs === 0) return b;
  const totals = new RunsUsageTotals();
  totals.addAll(a);
  totals.addAll(b);
  return totals.value();
}
