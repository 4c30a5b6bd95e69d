/**
 * What "worst first" means, wherever looplens ranks runs — `--top N`, the list of stopped runs
 * under the summaries, the HTML page — so that they never disagree on which run is worst: the
 * highest level among a run's findings (abort, then block, then warning), then the earlier first
 * stop, then more findings. Sorting is stable: input order breaks the remaining ties. The HTML page
 * breaks one tie more (`compareRanksVetoesFirst`). `--sort tokens|cost` (cost.md §3) puts the runs
 * that spent most first (a run that recorded none after every run that did), then worst first.
 */
import { FirstKept } from "./firstKept.js";
import type { FindingList } from "./findingList.js";
import { LEVEL_RANK, type Finding } from "./findings.js";

/** What the order reads of a run (replayed and live runs alike). */
export interface RankedRun {
  readonly findings: FindingList<Pick<Finding, "level" | "call">>;
  /** Loop vetoes the input recorded (the live runtime really blocked calls); absent reads as none. */
  readonly recordedVetoes?: number;
  /** What the run's turns used (replayed runs whose input recorded it). */
  readonly usage?: { readonly total?: number; readonly cost?: number };
}

/** `--sort`: what orders runs first. */
export type RunOrder = "stops" | "tokens" | "cost";
export const RUN_ORDERS: readonly RunOrder[] = ["stops", "tokens", "cost"];

/** Where a run stands in the order: its highest level, its first stop, its number of findings. */
export interface Rank {
  readonly top: number;
  readonly stop: number;
  readonly count: number;
  /** No finding, but recorded vetoes (1), or not (0). */
  readonly vetoesOnly: number;
  /** Under `--sort tokens|cost`: what the run spent (-1: not recorded); 0 for every run under `stops`. */
  readonly spent: number;
}

export function rankOf(run: RankedRun, order: RunOrder = "stops"): Rank {
  let top = 0;
  let stop = Number.MAX_SAFE_INTEGER;
  for (const finding of run.findings) {
    top = Math.max(top, LEVEL_RANK[finding.level]);
    // The first stop is the first finding that is not a warning (findings are in call order).
    if (stop === Number.MAX_SAFE_INTEGER && finding.level !== "warning") stop = finding.call ?? Number.MAX_SAFE_INTEGER;
  }
  const spent = order === "stops" ? 0 : ((order === "tokens" ? run.usage?.total : run.usage?.cost) ?? -1);
  return { top, stop, count: run.findings.length, vetoesOnly: run.findings.length === 0 && (run.recordedVetoes ?? 0) > 0 ? 1 : 0, spent };
}

/** Negative when `a` is worse than `b`. */
export const compareRanks = (a: Rank, b: Rank) => b.spent - a.spent || b.top - a.top || a.stop - b.stop || b.count - a.count;

/**
 * The same, then among runs without findings one whose input records loop vetoes before one with
 * nothing: the HTML page draws those first (they have something to show). `--top` and the list of
 * stopped runs keep input order there, as they always have (outputs pinned by compare-outputs.sh).
 */
export const compareRanksVetoesFirst = (a: Rank, b: Rank) => compareRanks(a, b) || b.vetoesOnly - a.vetoesOnly;

/**
 * The runs worst first, sorted: the order's plain definition. Reports keep only the worst few as
 * they read (`worstOf`, and the report model's keepers: pipeline/reportFacts.ts), which tests hold
 * to this.
 */
export function worstFirst<R extends RankedRun>(runs: readonly R[]): R[] {
  return runs
    .map((run) => ({ run, rank: rankOf(run) }))
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .map(({ run }) => run);
}

/**
 * The `limit` worst runs, worst first: `worstFirst(runs).slice(0, limit)`, read one run at a time and
 * holding only the `limit` worst so far (`--top N` over runs read back from disk one by one).
 */
export function worstOf<R extends RankedRun>(runs: Iterable<R>, limit: number): R[] {
  if (limit <= 0) return [];
  const worst = new FirstKept<R, Rank>(limit, compareRanks);
  for (const run of runs) worst.offer(run, rankOf(run));
  return worst.items();
}
