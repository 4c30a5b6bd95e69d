/**
 * How many threads analyse: the main thread and worker threads, or the main thread alone
 * (parallel.ts runs the lanes). Kept apart so that the choice reads as one rule.
 */
import { availableParallelism, loadavg } from "node:os";
import type { InputUnit } from "../adapters/discovery.js";

/** Below this much input, starting a worker (~100 ms of CPU: isolate, modules, JIT) costs more than it saves. */
const PARALLEL_MIN_BYTES = 32 << 20;

/**
 * Worker threads beside the main thread unless `LOOPLENS_WORKERS` says otherwise. Each one is an
 * isolate with its own heap: the bench's 680 MB state folder peaks at ~150 / 185 / 216 MB of RSS
 * with 1 / 2 / 3 workers (~116 serial), and the memory target is 150 MB whatever the machine, so
 * a machine with many cores gets one worker too; a user who would rather spend ~30 MB a worker on
 * speed sets `LOOPLENS_WORKERS` (docs/performance.md).
 */
const DEFAULT_MAX_WORKERS = 1;

/** Number of worker threads besides the main thread (0 = serial), honouring LOOPLENS_WORKERS. */
export function workersFor(files: readonly InputUnit[], totalBytes: number, env: NodeJS.ProcessEnv, load = loadavg()[0] ?? 0, cores = availableParallelism()): number {
  if (files.length < 2 || files.some((unit) => unit.includes("-"))) return 0;
  const forced = env.LOOPLENS_WORKERS;
  if (forced !== undefined && /^\d+$/.test(forced)) return Math.min(Number(forced), files.length - 1);
  if (cores < 2 || totalBytes < PARALLEL_MIN_BYTES) return 0;
  // Threads only pay when a core is free: on a machine already busy (2 cores, load average 2.7)
  // the parallel run was slower than the serial one (bench: ratio 0.57 vs 0.72). The load average
  // lags by a minute and counts processes that just ended (a previous run), hence the half core.
  if (load >= cores - 0.5) return 0;
  return Math.min(cores - 1, files.length - 1, DEFAULT_MAX_WORKERS);
}

/** Where files are analysed: on `workers` worker threads, and on the main thread too or not. */
export interface Lanes {
  readonly workers: number;
  readonly mainThread: boolean;
}

const SERIAL: Lanes = { workers: 0, mainThread: true };

/**
 * `workersFor`, and one file on one worker (the main thread waiting) when LOOPLENS_WORKERS asks for
 * workers. Not done by size: a large serial input on a worker (whose young generation can be capped)
 * peaked lower before transcripts closed their runs (1 GB: 115 vs 145 MB RSS), but since then both
 * peak at ~115 MB, and a transcript of 111 000 runs peaked higher on a worker (171 vs 140 MB: the
 * runs cross to the main thread as one 50 MB message).
 */
export function lanesFor(files: readonly InputUnit[], totalBytes: number, env: NodeJS.ProcessEnv, load = loadavg()[0] ?? 0): Lanes {
  const workers = workersFor(files, totalBytes, env, load);
  if (workers > 0) return { workers, mainThread: true };
  const forced = /^[1-9]\d*$/.test(env.LOOPLENS_WORKERS ?? "");
  return forced && files.length === 1 && !files[0]!.includes("-") ? { workers: 1, mainThread: false } : SERIAL;
}
