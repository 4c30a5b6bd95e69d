/**
 * Many input files are analysed on several threads at once (the main thread and worker threads),
 * one file at a time per thread, largest first, and merged in input order: the result is the one
 * `analyzeInputs` gives serially, byte for byte. Files are independent (one replayer per file), so
 * nothing but the per-file results crosses threads. `sweep` runs on the same lanes (`sweepAll`),
 * taking units in input order (sweepUnits.ts).
 *
 * One file, standard input, or little data stays serial: a worker costs ~100 ms of CPU and ~15 MB.
 * The main thread works too, so a 2-core machine pays for one extra isolate, not two.
 * A machine already busy (load average near the core count) also stays serial. By default at most
 * DEFAULT_MAX_WORKERS workers run, whatever the number of cores, for the peak memory (see there).
 * `LOOPLENS_WORKERS` forces the mode: `0` serial, `N` that many worker threads whatever the input
 * (one file then goes to one worker).
 */
import { availableParallelism, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { InputError, expandUnits, type InputUnit } from "../adapters/discovery.js";
import type { ConfigForAgent } from "../core/replay.js";
import type { Digest } from "../core/hashing.js";
import { analyzeUnit, analyzeSerially, liveRunBook, mergeAnalyses, type Analysis, type AnalysisOptions, type FileAnalysis } from "./analysis.js";
import { InputProgress, fileSizes, inputBytes, type ProgressSink, type StartProgress } from "./progress.js";
import type { InputOptions } from "./reading.js";
import { SweepJoin, pointResolvers, sweepSerially, sweepUnit, type SweepGrid, type SweepResult, type UnitSweep } from "./sweepUnits.js";
import { createConfigResolver, type ConfigOptions } from "./configResolution.js";
import { scavengeAlone, scavengeWithHelpers, tuneHeapForStreaming } from "./v8Tuning.js";
import { StringPool } from "./stringPool.js";

/** Below this much input, starting a worker (~100 ms of CPU: isolate, modules, JIT) costs more than it saves. */
const PARALLEL_MIN_BYTES = 32 << 20;

/**
 * Worker threads beside the main thread unless `LOOPLENS_WORKERS` says otherwise. Each one is an
 * isolate with its own heap: the bench's 680 MB state folder peaks at ~150 / 185 / 216 MB of RSS
 * with 1 / 2 / 3 workers (~116 serial), and the memory target is 150 MB whatever the machine, so
 * a machine with many cores gets one worker too; a user who would rather spend ~30 MB a worker on
 * speed sets `LOOPLENS_WORKERS` (README "Performance").
 */
const DEFAULT_MAX_WORKERS = 1;

/** Young generation of a worker: V8's default is ~3x larger; smaller ones cost GC time (bench/). */
const YOUNG_GENERATION_MB = 16;

/** What a worker needs to rebuild the pipeline: plain data only (functions do not cross threads). */
export interface WorkerSetup {
  readonly config: ConfigOptions;
  /** Reading and replay options (timelines included: a worker's runs carry them back when asked). */
  readonly input: Omit<AnalysisOptions, "progress" | "afterChunk">;
}

/**
 * The shared work list: every thread takes the next file by bumping `next` atomically, so that no
 * thread waits for another to hand it work (the main thread reads files synchronously and would
 * answer a worker's request only between files).
 */
export interface WorkList {
  /** Input units (one session's files, or one file each). */
  readonly files: readonly InputUnit[];
  /** Indexes into `files`, in the order to take them (largest first). */
  readonly order: readonly number[];
  /** One Int32 on a SharedArrayBuffer: how many entries of `order` have been taken. */
  readonly next: Int32Array;
}

/** The index of the next file to analyse, or undefined when all are taken. */
export function takeFile(work: WorkList): number | undefined {
  const taken = Atomics.add(work.next, 0, 1);
  return taken < work.order.length ? work.order[taken] : undefined;
}

/**
 * What a worker thread does with each unit it takes: analyse it, or sweep it under a grid of configs
 * (sweepUnits.ts). Plain data: the worker rebuilds resolvers and the digest from it.
 */
export type WorkerJob =
  | ({ readonly kind: "analyze" } & WorkerSetup)
  | { readonly kind: "sweep"; readonly config: ConfigOptions; readonly grid: SweepGrid; readonly input: InputOptions };

/** What a worker is started with. */
export interface WorkerStart {
  readonly job: WorkerJob;
  /** The main thread shows progress: the worker reports its bytes. */
  readonly progress: boolean;
  readonly work: WorkList;
}

export type WorkerReply =
  | { readonly kind: "progress"; readonly bytes: number; readonly lines: number }
  | { readonly kind: "done"; readonly index: number; readonly result: FileAnalysis | UnitSweep }
  | { readonly kind: "failed"; readonly index: number; readonly userError: boolean; readonly message: string; readonly stack?: string }
  | { readonly kind: "finished" };

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

/** The bytes of each unit (the sum of its files'), from `fileSizes`. */
function unitSizes(units: readonly InputUnit[], sizes: ReadonlyMap<string, number>): number[] {
  return units.map((unit) => unit.reduce((sum, file) => sum + sizes.get(file)!, 0));
}

/** Analyses the inputs serially or on several threads; the same result either way. */
export async function analyzeAll(
  paths: readonly string[],
  digest: Digest,
  configFor: ConfigForAgent,
  setup: WorkerSetup,
  env: NodeJS.ProcessEnv,
  startProgress?: StartProgress,
): Promise<Analysis> {
  tuneHeapForStreaming();
  const files = await expandUnits(paths);
  // Each file is stat'ed once: for the order of the units and the progress bar's total.
  const perFile = fileSizes(files);
  const sizes = unitSizes(files, perFile);
  const lanes = lanesFor(files, sizes.reduce((sum, size) => sum + size, 0), env);
  const display = startProgress?.(inputBytes(perFile));
  try {
    if (lanes.workers === 0) return await analyzeSerially(files, digest, configFor, { ...setup.input, ...(display && { progress: new InputProgress(display.update) }) });
    const shared = withSpillBudgetShared(setup, lanes);
    // The main thread's lane resolves configs on its own resolver, like a worker: the caller's
    // resolver is then fed in input order, whatever order the threads finished in.
    const resolver = await createConfigResolver(shared.config, env);
    const progress = display && new InputProgress(display.update);
    const pool = new StringPool();
    const parts = await inThreads<FileAnalysis>(files, largestFirst(sizes), lanes, { kind: "analyze", ...shared }, env, display?.update, {
      unit: (unit) => analyzeUnit(unit, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, { ...shared.input, ...(progress && { progress }) }),
      received: (result) => pool.internIn(result as FileAnalysis),
    });
    // Resolve the same agents in the same order as a serial run would, so config notices match.
    for (const part of parts) for (const { agent, profile } of part.agentsResolved) configFor(agent, profile);
    return mergeAnalyses(parts, liveRunBook(setup.input.spill));
  } finally {
    display?.done();
  }
}

/**
 * The runs held in memory (plain runs, and findings in the others) are a budget of the whole
 * analysis, not of each thread: every worker's held runs end up in the main thread's heap beside its
 * own at the merge.
 */
export function withSpillBudgetShared(setup: WorkerSetup, lanes: Lanes): WorkerSetup {
  const spill = setup.input.spill;
  if (spill === undefined) return setup;
  const threads = lanes.workers + (lanes.mainThread ? 1 : 0);
  const share = (budget: number) => Math.ceil(budget / threads);
  return { ...setup, input: { ...setup.input, spill: { ...spill, plainRunsInMemory: share(spill.plainRunsInMemory), findingsInMemory: share(spill.findingsInMemory) } } };
}

function largestFirst(sizes: readonly number[]): number[] {
  return sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
}

function workerFailure(reply: Extract<WorkerReply, { kind: "failed" }>): Error {
  if (reply.userError) return new InputError(reply.message);
  const error = new Error(reply.message);
  if (reply.stack !== undefined) error.stack = reply.stack;
  return error;
}

/**
 * Sweeps the inputs under a grid serially or on several threads; the same result either way. Units
 * are swept whole (every pass of the grid) on one thread, largest first, and joined in input order.
 * `progressOf`: each pass's progress on the main thread.
 */
export async function sweepAll(
  paths: readonly string[],
  digest: Digest,
  config: ConfigOptions,
  grid: SweepGrid,
  input: InputOptions,
  env: NodeJS.ProcessEnv,
  progress?: { readonly of: (pass: number) => InputProgress | undefined; readonly update: ProgressSink },
): Promise<SweepResult> {
  // Nothing but tallies outlives a unit: the young generation is held small as for analyze (v8Tuning.ts).
  tuneHeapForStreaming();
  const files = await expandUnits(paths);
  const sizes = unitSizes(files, fileSizes(files));
  const lanes = lanesFor(files, sizes.reduce((sum, size) => sum + size, 0), env);
  // This thread's own resolvers: the caller's are fed in input order from the result (`agentsResolved`).
  const resolvers = pointResolvers(grid, await createConfigResolver(config, env));
  if (lanes.workers === 0) return sweepSerially(files, digest, grid, resolvers, input, progress?.of);
  // Units are joined in input order as they come, so that only those that came early wait; they are
  // taken in input order too (not largest first), so that few do: taken largest first, nearly every
  // unit waited for the end, and the 680 MB state folder peaked at 190 MB instead of 1xx.
  const join = new SweepJoin(grid);
  const inputOrder = files.map((_, i) => i);
  await inThreads<true>(files, inputOrder, lanes, { kind: "sweep", config, grid, input }, env, progress?.update, {
    unit: async (unit, index) => join.add(index, await sweepUnit(unit, digest, grid, resolvers, input, progress?.of)),
    received: (result, index) => join.add(index, result as UnitSweep),
  });
  return join.result();
}

/** The main thread's share of a job: how it handles a unit, and how it takes a worker's result. */
interface MainLane<R> {
  unit(unit: InputUnit, index: number): Promise<R>;
  received(result: FileAnalysis | UnitSweep, index: number): R;
}

async function inThreads<R>(
  files: readonly InputUnit[],
  order: number[],
  lanes: Lanes,
  job: WorkerJob,
  env: NodeJS.ProcessEnv,
  onProgress: ProgressSink | undefined,
  main: MainLane<R>,
): Promise<R[]> {
  const results: Array<R | undefined> = new Array(files.length);
  const failures: Array<unknown> = new Array(files.length);
  const url = new URL("./worker.js", import.meta.url);
  const started: Worker[] = [];
  const work: WorkList = { files, order, next: new Int32Array(new SharedArrayBuffer(4)) };

  // Settled once every worker's isolate exists (or its start failed): see `mainLane`.
  const online: Array<Promise<void>> = [];

  const workerLane = () =>
    new Promise<void>((resolve, reject) => {
      // Each thread has its own heap and peak RSS adds up over threads.
      const workerData: WorkerStart = { job, progress: onProgress !== undefined, work };
      const worker = new Worker(url, { workerData, env, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      started.push(worker);
      online.push(
        new Promise<void>((settle) => {
          // A new worker resets V8's flags (v8Tuning.ts): they are set again once it is online.
          worker.once("online", () => {
            // Sweep leaves the young generation to V8 (sweep.ts), but inlines less as analyze does.
            tuneHeapForStreaming();
            settle();
          });
          worker.once("exit", () => settle());
        }),
      );
      let finished = false;
      worker.on("message", (reply: WorkerReply) => {
        if (reply.kind === "progress") return onProgress?.(reply.bytes, reply.lines);
        if (reply.kind === "done") results[reply.index] = main.received(reply.result, reply.index);
        if (reply.kind === "failed") failures[reply.index] = workerFailure(reply);
        if (reply.kind === "finished") {
          finished = true;
          void worker.terminate().then(() => resolve(), reject);
        }
      });
      worker.on("error", reject);
      // A worker that stops before its work is done (killed, out of memory) must not leave us waiting.
      worker.on("exit", (code) => {
        if (!finished) reject(new Error(`analysis worker stopped unexpectedly (exit code ${code})`));
      });
    });

  // Files are not shared between threads, so each thread counts its files' passes on its own.
  const mainLane = async () => {
    // The main thread starts on its files once the workers' isolates exist, i.e. once their start
    // has reset V8's flags and they are set again. Started at once, it ran its first files under
    // V8's default flags, and its young generation grew for good: peak RSS 162-166 MB against
    // 147-152 MB on the 680 MB state folder of the bench, 109 against 87 MB on its Claude Code
    // folder. The wait (55-70 ms, a worker's start-up) costs ~4% of a 0.9 s run (events folder,
    // medians of 10 alternating runs: 920 against 887 ms).
    await Promise.all(online);
    for (let index = takeFile(work); index !== undefined; index = takeFile(work)) {
      try {
        results[index] = await main.unit(files[index]!, index);
      } catch (error) {
        failures[index] = error;
      }
    }
  };

  scavengeAlone();
  try {
    // The workers first: starting them fills `online`, which the main lane waits on.
    const workerLanes = Array.from({ length: lanes.workers }, workerLane);
    await Promise.all([...workerLanes, ...(lanes.mainThread ? [mainLane()] : [])]);
  } catch (error) {
    // A crashed worker: stop the others, or they would keep the process alive.
    await Promise.all(started.map((worker) => worker.terminate()));
    throw error;
  } finally {
    scavengeWithHelpers();
  }
  // Report the first failure in input order, as a serial run would have met it.
  return results.map((result, index) => {
    if (failures[index] !== undefined) throw failures[index];
    return result!;
  });
}
