/**
 * Usage figures as people read them (cost.md §3): compact token counts (`912`, `4.3k`, `187k`,
 * `4.3M`), money with the currency sign (`$12.40`, `$0.0031`), and "not recorded" where the input
 * recorded nothing — never a 0 that was not written. Pure: numbers in, text out.
 *
 * Rounding rules:
 * - tokens below 1,000 as they are; above, in k / M / B / T with one decimal below 10 of the unit
 *   (`4.3M`, the `.0` dropped: `2M`) and none from 10 on (`187k`), rounded to nearest; a figure that
 *   rounds up to 1,000 of a unit is written in the next (`999,999` → `1M`, not `1000k`).
 * - money to the cent from one cent on, grouped by thousands (`$1,234.50`); below a cent, two
 *   significant digits (`$0.0031`) so that a small sum is not shown as `$0.00`; below a hundredth of
 *   a cent, `<$0.0001`. A recorded zero is `$0.00` (a local model: a real zero).
 * Money is USD: the only currency the formats that record money use (OpenClaw, OpenHands).
 */
import type { UsageSum } from "../core/usage.js";
import { costPatternKey, type PatternCost } from "../core/runCost.js";

export const NOT_RECORDED = "not recorded";

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e3, "k"],
  [1e6, "M"],
  [1e9, "B"],
  [1e12, "T"],
];

/** A token count, compact (`912`, `4.3k`, `187k`, `4.3M`). */
export function compactCount(count: number): string {
  if (Math.round(count) < 1000) return String(Math.round(count));
  for (let i = 0; ; i++) {
    const [size, suffix] = UNITS[i]!;
    const value = count / size;
    // One decimal below 10 of the unit; `toFixed` rounds to nearest as the figure is printed.
    const text = value < 9.95 ? value.toFixed(1).replace(/\.0$/, "") : String(Math.round(value));
    if (Number(text) < 1000 || i === UNITS.length - 1) return `${text}${suffix}`;
  }
}

/** An amount of money (`$12.40`, `$0.0031`, `<$0.0001`, `$0.00`). */
export function moneyText(amount: number): string {
  if (amount < 0) return `-${moneyText(-amount)}`;
  if (amount === 0) return "$0.00";
  const cents = amount.toFixed(2);
  if (cents !== "0.00") return `$${groupThousands(cents)}`;
  if (amount < 0.0001) return "<$0.0001";
  return `$${Number(amount.toPrecision(2)).toString()}`;
}

function groupThousands(fixed: string): string {
  const [whole, fraction] = fixed.split(".");
  return `${whole!.replace(/\B(?=(\d{3})+$)/g, ",")}.${fraction}`;
}

/** " in 10 of 12 turns" when only some of a sum's turns recorded the figure, else nothing. */
function partly(recorded: number, turns: number): string {
  return recorded < turns ? ` in ${recorded} of ${turns} turns` : "";
}

/** The tokens of a sum: `4.3M`, `4.3M in 10 of 12 turns` when only those recorded any, or "not recorded". */
export function tokensText(sum: UsageSum): string {
  return sum.total === undefined ? NOT_RECORDED : compactCount(sum.total) + partly(sum.tokenTurns, sum.turns);
}

/** The money of a sum: `$12.40`, `$12.40 in 10 of 12 turns` when only those recorded any, or "not recorded". */
export function costText(sum: UsageSum): string {
  return sum.cost === undefined ? NOT_RECORDED : moneyText(sum.cost) + partly(sum.costTurns, sum.turns);
}

/**
 * A sum in a few words, for a run header or a summary line: `4.3M tokens ($12.40)`, `4.3M tokens`
 * when no money is recorded (most agents record none: saying so on every line would be noise),
 * `usage not recorded` when nothing is; a partial figure says over how many turns it was recorded.
 */
export function usageSummary(sum: UsageSum): string {
  if (sum.total === undefined && sum.cost === undefined) return `usage ${NOT_RECORDED}`;
  const tokens = sum.total === undefined ? `tokens ${NOT_RECORDED}` : `${compactCount(sum.total)} tokens${partly(sum.tokenTurns, sum.turns)}`;
  return sum.cost === undefined ? tokens : `${tokens} (${costText(sum)})`;
}

/** The tokens of a part of a run (after its stop, on a loop's calls): `3.9M`; `0` for no turn at all; money when only money was recorded. */
function partText(sum: UsageSum, whole: UsageSum): string {
  if (whole.total === undefined && whole.cost !== undefined) return sum.cost === undefined ? (sum.turns === 0 ? "$0.00" : NOT_RECORDED) : costText(sum);
  if (sum.total !== undefined) return compactCount(sum.total) + partly(sum.tokenTurns, sum.turns);
  return sum.turns === 0 ? "0" : `tokens ${NOT_RECORDED}`;
}

/** What a run shows of its usage (findings.ts `ReplayedRun`): all absent when it recorded none. */
export interface RunUsage {
  readonly usage?: UsageSum;
  readonly usageAfterStop?: UsageSum;
  readonly firstStop: unknown;
}

/**
 * A run's usage for its header (cost.md §3): `4.3M tokens ($12.40), 3.9M after the first stop`
 * (the second part only for a run that a guard would have stopped); `undefined` when the run
 * recorded no usage, so that inputs without any print as they always have.
 */
export function runUsagePhrase(run: RunUsage): string | undefined {
  const { usage, usageAfterStop } = run;
  if (usage === undefined) return undefined;
  const spent = usageSummary(usage);
  if (run.firstStop === null || run.firstStop === undefined || usageAfterStop === undefined) return spent;
  return `${spent}, ${partText(usageAfterStop, usage)} after the first stop`;
}

/** A loop's (a collapsed row's) usage: `1.2M tokens on these calls, 0.9M after the first stop`. */
export function patternUsagePhrase(cost: { readonly onFlagged: UsageSum; readonly afterStop: UsageSum }, run: RunUsage): string {
  const on = usageSummary(cost.onFlagged).replace(/^usage not recorded$/, `usage ${NOT_RECORDED}`);
  const after = run.firstStop !== null && run.usage !== undefined ? `, ${partText(cost.afterStop, run.usage)} after the first stop` : "";
  return `${cost.onFlagged.turns === 0 ? "0 tokens" : on} on these calls${after}`;
}

/** The summary's line (cost.md §3): `14.5M tokens ($3.20) in 143 runs; 2.1M on flagged calls, 1.9M after the first stops`. */
export function summaryUsagePhrase(total: { readonly runs: number; readonly spent: UsageSum; readonly onFlagged: UsageSum; readonly afterStop: UsageSum }): string {
  const runs = `${total.runs} run${total.runs === 1 ? "" : "s"}`;
  return `${usageSummary(total.spent)} in ${runs}; ${partText(total.onFlagged, total.spent)} on flagged calls, ${partText(total.afterStop, total.spent)} after the first stops`;
}

/** What a collapsed row's loop used (its run's `patternUsage`), in words; `undefined`: not recorded or said already. */
export type RowUsage = (row: { readonly first: CostPatternFinding }) => string | undefined;
export const NO_ROW_USAGE: RowUsage = () => undefined;
type CostPatternFinding = Parameters<typeof costPatternKey>[0];

/** The table's and markdown's rows of a run, each loop's figures on its first row (cost.md §2). */
export function rowUsage(run: RunUsage & { readonly patternUsage?: readonly PatternCost[] }): RowUsage {
  const patterns = run.patternUsage;
  if (patterns === undefined) return NO_ROW_USAGE;
  const byKey = new Map(patterns.map((p) => [p.pattern, p]));
  // On the loop's first row only: its later rows (another level, after the stop) are the same loop.
  return (row) => {
    const key = costPatternKey(row.first);
    const cost = byKey.get(key);
    byKey.delete(key);
    return cost && patternUsagePhrase(cost, run);
  };
}
