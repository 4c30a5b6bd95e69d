/**
 * What one config of a sweep did to the runs (spec: cli.md `sweep --format ndjson`): each run's
 * verdict, the counts of runs warned / blocked / aborted, the median call of the first blocks, the
 * runs whose verdict changed from the previous config, and, when the user labelled runs, how well
 * the config separates the stuck ones from the healthy ones.
 */
import type { RunReport } from "./findings.js";

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
}

export interface VerdictChange {
  readonly run: string;
  readonly file: string;
  readonly from: VerdictKind;
  readonly to: VerdictKind;
}

export function runVerdict(run: RunReport): RunVerdict {
  const stop = run.firstStop;
  const warned = run.findings.some((f) => f.level === "warning" && !f.afterStop);
  const kind: VerdictKind = stop ? (stop.kind === "abort" ? "aborted" : "blocked") : warned ? "warned" : "ok";
  return { run: run.run, file: run.file, kind, warned, stopCall: stop?.call ?? null, calls: run.calls };
}

/**
 * The middle value; for an even count the mean of the two middle values (the usual statistical
 * median, so `[11, 20]` gives 15.5). Null for no values.
 */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function configStats(verdicts: readonly RunVerdict[]): ConfigStats {
  const firstBlocks = verdicts.filter((v) => v.kind === "blocked").map((v) => v.stopCall!);
  return {
    runs: verdicts.length,
    warned: verdicts.filter((v) => v.warned).length,
    blocked: firstBlocks.length,
    aborted: verdicts.filter((v) => v.kind === "aborted").length,
    firstBlockMedianCall: median(firstBlocks),
  };
}

/**
 * Runs whose verdict kind differs between two configs replayed over the same input (so the runs are
 * the same, in the same order). A block moving to another call is not a change of verdict.
 */
export function verdictChanges(previous: readonly RunVerdict[] | undefined, current: readonly RunVerdict[]): VerdictChange[] {
  if (!previous) return [];
  const changes: VerdictChange[] = [];
  current.forEach((now, i) => {
    const before = previous[i];
    if (before && before.kind !== now.kind) changes.push({ run: now.run, file: now.file, from: before.kind, to: now.kind });
  });
  return changes;
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

export function labelScore(verdicts: readonly RunVerdict[], labels: Labels): LabelScore {
  let stuck = 0;
  let stuckStopped = 0;
  let healthyStopped = 0;
  let lateness = 0;
  for (const v of verdicts) {
    const isStuck = labels.stuck.has(v.run);
    const isHealthy = labels.healthy ? labels.healthy.has(v.run) : !isStuck;
    if (isStuck) {
      stuck++;
      if (v.stopCall !== null) stuckStopped++;
      lateness += v.stopCall ?? v.calls + 1;
    } else if (isHealthy && v.stopCall !== null) {
      healthyStopped++;
    }
  }
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
