/**
 * What one config of a sweep did to the runs (spec: cli.md `sweep --format ndjson`): each run's
 * verdict, the counts of runs warned / blocked / aborted, the median call of the first blocks, the
 * runs whose verdict changed from the previous config, and, when the user labelled runs, how well
 * the config separates the stuck ones from the healthy ones.
 */
import { EMPTY_SUM, mergeSums, type UsageSum } from "./usage.js";
import type { Finding, RunReport } from "./findings.js";
import { someOf } from "./findingList.js";

/** A run's verdict under one config: its first stop if any, else whether it was warned. */
export type VerdictKind = "ok" | "warned" | "blocked" | "aborted";

export interface RunVerdict {
  readonly run: string;
  readonly file: string;
  readonly kind: VerdictKind;
  /** A warning came before the first stop (anywhere, if the run never stops). */
  readonly warned: boolean;
  /** Call of the first stop (block or abort); null when the run never stops. */
  readonly stopCall: number | null;
  readonly calls: number;
  /** What the run spent after its first stop (cost.md §3; none when the config does not stop it), when its input recorded usage. */
  readonly afterStop?: UsageSum;
}

export interface ConfigStats {
  readonly runs: number;
  /** Runs with a warning before their first stop (anywhere, if they never stop). */
  readonly warned: number;
  /** Runs whose first stop is a block. */
  readonly blocked: number;
  /** Runs whose first stop is an abort. */
  readonly aborted: number;
  /** Median call number of the first blocks; null when no run is blocked. */
  readonly firstBlockMedianCall: number | null;
  /** Over the runs the config stops that recorded usage: what they spent after the first stop (absent: none recorded). */
  readonly afterStop?: UsageSum;
}

export interface VerdictChange {
  readonly run: string;
  readonly file: string;
  readonly from: VerdictKind;
  readonly to: VerdictKind;
}

export function runVerdict(run: RunReport): RunVerdict {
  const stop = run.firstStop;
  const warned = someOf<Finding>(run.findings, (f) => f.level === "warning" && !f.afterStop);
  const kind: VerdictKind = stop ? (stop.kind === "abort" ? "aborted" : "blocked") : warned ? "warned" : "ok";
  // A run that recorded usage adds to every config's figure, nothing when the config does not stop it.
  const afterStop = run.source === undefined && run.usage !== undefined ? (stop !== null ? (run.usageAfterStop ?? EMPTY_SUM) : EMPTY_SUM) : undefined;
  return { run: run.run, file: run.file, kind, warned, stopCall: stop?.call ?? null, calls: run.calls, ...(afterStop !== undefined && { afterStop }) };
}


/** How a run's verdict changed from the neighbouring config's (undefined: the same kind, or nothing to compare with). */
export function verdictChange(before: VerdictKind | undefined, now: RunVerdict): VerdictChange | undefined {
  return before !== undefined && before !== now.kind ? { run: now.run, file: now.file, from: before, to: now.kind } : undefined;
}

/**
 * The middle value of a multiset given as counts per value; for an even count the mean of the two
 * middle values (the usual statistical median, so 11 and 20 give 15.5). Null when it is empty.
 * Counts, not a list: a sweep folds its runs one at a time and keeps how many runs first block at
 * each call (few distinct calls), not one number per run and config.
 */
export function medianOfCounts(counts: ReadonlyMap<number, number>): number | null {
  let total = 0;
  for (const n of counts.values()) total += n;
  if (total === 0) return null;
  // 0-based ranks of the two middle values (the same one for an odd count).
  const low = (total - 1) >> 1;
  const high = total >> 1;
  let lowValue: number | undefined;
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value)!;
    if (lowValue === undefined && seen > low) lowValue = value;
    if (seen > high) return (lowValue! + value) / 2;
  }
  return lowValue!;
}

/** Run ids the user labelled; without `healthy`, every run not labelled stuck counts as healthy. */
export interface Labels {
  readonly stuck: ReadonlySet<string>;
  readonly healthy: ReadonlySet<string> | undefined;
}

export interface LabelScore {
  /** Stopped stuck runs / all stopped labelled runs; null when no labelled run stopped. */
  readonly precision: number | null;
  /** Stopped stuck runs / stuck runs; null when no run is labelled stuck. */
  readonly recall: number | null;
  readonly stuckStopped: number;
  readonly stuck: number;
  readonly healthyStopped: number;
  /** Sum over stuck runs of the call they stop at (one past their last call if never): lower is earlier. */
  readonly lateness: number;
}

/** A `ConfigTally` as plain data (it crosses to and from worker threads). */
export interface ConfigCounts {
  runs: number;
  warned: number;
  blocked: number;
  aborted: number;
  /** How many runs first block at each call: `[call, runs]`. */
  firstBlocks: Array<[number, number]>;
  changed: VerdictChange[];
  stuck: number;
  stuckStopped: number;
  healthyStopped: number;
  lateness: number;
  afterStop?: UsageSum;
}

/**
 * One config's figures over the runs folded so far, one run at a time: the counts, the calls of the
 * first blocks (as counts per call, for the median), the verdict changes from the neighbouring
 * config, and with labels the label counts. Tallies merge, so that an input unit's part joins the
 * whole only once the unit is read through, and units swept on other threads join in input order
 * (sweepTally.ts).
 */
export class ConfigTally {
  private runs = 0;
  private warned = 0;
  private blocked = 0;
  private aborted = 0;
  private readonly firstBlocks = new Map<number, number>();
  readonly changed: VerdictChange[] = [];
  private stuck = 0;
  private stuckStopped = 0;
  private healthyStopped = 0;
  private lateness = 0;
  private afterStop: UsageSum | undefined;

  counts(): ConfigCounts {
    const { runs, warned, blocked, aborted, changed, stuck, stuckStopped, healthyStopped, lateness, afterStop } = this;
    return { runs, warned, blocked, aborted, firstBlocks: [...this.firstBlocks], changed, stuck, stuckStopped, healthyStopped, lateness, ...(afterStop !== undefined && { afterStop }) };
  }

  /** Folds in one run's verdict (`labels`: the user's, when runs are labelled). */
  add(v: RunVerdict, labels?: Labels): void {
    this.runs++;
    if (v.warned) this.warned++;
    if (v.kind === "blocked") {
      this.blocked++;
      this.firstBlocks.set(v.stopCall!, (this.firstBlocks.get(v.stopCall!) ?? 0) + 1);
    } else if (v.kind === "aborted") {
      this.aborted++;
    }
    if (v.afterStop !== undefined) this.afterStop = mergeSums(this.afterStop ?? EMPTY_SUM, v.afterStop);
    if (labels) this.label(v, labels);
  }

  /** Adds another tally's runs after this one's. */
  merge(other: ConfigCounts): void {
    this.runs += other.runs;
    this.warned += other.warned;
    this.blocked += other.blocked;
    this.aborted += other.aborted;
    for (const [call, n] of other.firstBlocks) this.firstBlocks.set(call, (this.firstBlocks.get(call) ?? 0) + n);
    for (const change of other.changed) this.changed.push(change);
    this.stuck += other.stuck;
    this.stuckStopped += other.stuckStopped;
    this.healthyStopped += other.healthyStopped;
    this.lateness += other.lateness;
    if (other.afterStop !== undefined) this.afterStop = mergeSums(this.afterStop ?? EMPTY_SUM, other.afterStop);
  }

  stats(): ConfigStats {
    const { runs, warned, blocked, aborted, afterStop } = this;
    return { runs, warned, blocked, aborted, firstBlockMedianCall: medianOfCounts(this.firstBlocks), ...(afterStop !== undefined && { afterStop }) };
  }

  /** How well the config separates the labelled runs. */
  score(): LabelScore {
    const { stuck, stuckStopped, healthyStopped, lateness } = this;
    const flagged = stuckStopped + healthyStopped;
    return {
      precision: flagged === 0 ? null : stuckStopped / flagged,
      recall: stuck === 0 ? null : stuckStopped / stuck,
      stuckStopped,
      stuck,
      healthyStopped,
      lateness,
    };
  }

  private label(v: RunVerdict, labels: Labels): void {
    const isStuck = labels.stuck.has(v.run);
    const isHealthy = labels.healthy ? labels.healthy.has(v.run) : !isStuck;
    if (isStuck) {
      this.stuck++;
      if (v.stopCall !== null) this.stuckStopped++;
      this.lateness += v.stopCall ?? v.calls + 1;
    } else if (isHealthy && v.stopCall !== null) {
      this.healthyStopped++;
    }
  }
}

/**
 * The config that stops the stuck runs earliest while stopping no healthy run: most stuck runs
 * stopped, then the earliest stops, then the first in grid order. Undefined when every config stops
 * a healthy run or none stops a stuck one.
 */
export function bestConfig(scores: readonly LabelScore[]): number | undefined {
  let best: number | undefined;
  scores.forEach((score, i) => {
    if (score.healthyStopped > 0 || score.stuckStopped === 0) return;
    const current = best === undefined ? undefined : scores[best]!;
    if (!current || score.stuckStopped > current.stuckStopped || (score.stuckStopped === current.stuckStopped && score.lateness < current.lateness)) {
      best = i;
    }
  });
  return best;
}
