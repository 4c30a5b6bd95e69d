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
import { Worker } from "node:worker_threads";
import { InputError, expandUnits, type InputUnit } from "../adapters/discovery.js";
import type { ConfigForAgent } from "../core/replay.js";
import type { Digest } from "../core/hashing.js";
import { analyzeUnit, analyzeSerially, liveRunBook, mergeAnalyses, type Analysis, type AnalysisOptions, type FileAnalysis, type UnitResume } from "./analysis.js";
import { InputProgress, fileSizes, inputBytes, type ProgressSink, type StartProgress } from "./progress.js";
import type { InputOptions } from "./reading.js";
import { SweepJoin, pointResolvers, sweepSerially, sweepUnit, type SweepGrid, type SweepResult, type UnitSweep } from "./sweepUnits.js";
import { createConfigResolver, type ConfigOptions } from "./configResolution.js";
import { scavengeAlone, scavengeWithHelpers, tuneHeapForStreaming } from "./v8Tuning.js";
import { StringPool } from "./stringPool.js";
import { lanesFor, type Lanes } from "./lanes.js";
import { analyzeAndKeep, cachedAnalysis } from "./cache/analysisCache.js";
import type { CacheSetup } from "./cache/cacheSetup.js";
import { KnownUnits } from "./cache/knownUnits.js";
import { cachedSweep, sweepAndKeep } from "./cache/sweepCache.js";
import type { CacheWritten, UnitCache } from "./cache/unitCache.js";
import type { RunWindow } from "./cache/runWindow.js";
import type { UnreadUnits } from "./cache/spliceSource.js";

export { lanesFor, workersFor, type Lanes } from "./lanes.js";

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
  | ({ readonly kind: "analyze"; readonly cache?: CacheSetup } & WorkerSetup)
  | { readonly kind: "sweep"; readonly config: ConfigOptions; readonly grid: SweepGrid; readonly input: InputOptions; readonly cache?: CacheSetup };

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
  | { readonly kind: "finished"; readonly cacheWritten: CacheWritten };

/** The bytes of each unit (the sum of its files'), from `fileSizes`. */
function unitSizes(units: readonly InputUnit[], sizes: ReadonlyMap<string, number>): number[] {
  return units.map((unit) => unit.reduce((sum, file) => sum + sizes.get(file)!, 0));
}

/**
 * Analyses the inputs serially or on several threads; the same result either way. With a `cache`,
 * the units it holds are read from it first, on this thread, and only the others are analysed (and
 * kept): the lanes are chosen by their bytes, so a warm run with one changed unit stays serial.
 * `units`: the inputs' units when the caller expanded them already (for the report's cache); `window`:
 * the report's `--since`/`--until`, when units held entirely outside it may stay unread
 * (cache/runWindow.ts `skipWindow`); `unread`: units whose runs the command's kept output holds, only
 * counted when their entries hold (cache/outputSplice.ts).
 */
export async function analyzeAll(
  paths: readonly string[],
  digest: Digest,
  configFor: ConfigForAgent,
  setup: WorkerSetup,
  env: NodeJS.ProcessEnv,
  startProgress?: StartProgress,
  cache?: UnitCache,
  { units: expanded, window, unread }: { readonly units?: readonly InputUnit[]; readonly window?: RunWindow; readonly unread?: UnreadUnits } = {},
): Promise<Analysis> {
  tuneHeapForStreaming();
  const units = expanded ?? (await expandUnits(paths));
  // The main thread's lane resolves configs on its own resolver, like a worker (and checks entries
  // on it): the caller's resolver is then fed in input order, whatever order the threads finished in.
  // Made only when the cache or a lane needs it: a serial run uses the caller's.
  const laneConfigOf = async (): Promise<ConfigForAgent> => {
    const resolver = await createConfigResolver(setup.config, env);
    return (agent, profile) => resolver.effectiveFor(agent, profile).config;
  };
  const cacheConfig = cache && (await laneConfigOf());
  const known = cache && cacheConfig && KnownUnits.look(units, (unit) => cachedAnalysis(cache, unit, setup.input, cacheConfig, window, unread?.get(unit)));
  const files = known ? known.missingUnits : units;
  // Each file is stat'ed once: for the order of the units and the progress bar's total.
  const perFile = fileSizes(files);
  const sizes = unitSizes(files, perFile);
  // One unit left by the cache is analysed here even where LOOPLENS_WORKERS sends one file to a worker
  // (as a run without it does): a worker's start was ~0.15 s of CPU of a re-run after one file grew.
  const leftOne = known !== undefined && files.length === 1 && units.length > 1;
  const lanes = leftOne ? { workers: 0, mainThread: true } : lanesFor(files, sizes.reduce((sum, size) => sum + size, 0), env);
  const display = startProgress?.(inputBytes(perFile));
  try {
    if (lanes.workers === 0 && !known) return await analyzeSerially(files, digest, configFor, { ...setup.input, ...(display && { progress: new InputProgress(display.update) }) });
    const laneConfig = cacheConfig ?? (await laneConfigOf());
    const shared = withSpillBudgetShared(setup, lanes);
    const progress = display && new InputProgress(display.update);
    const pool = new StringPool();
    const analyse = (unit: InputUnit, resume?: UnitResume) => analyzeUnit(unit, digest, laneConfig, { ...shared.input, ...(progress && { progress }) }, undefined, resume);
    const mainUnit = cache ? (unit: InputUnit) => analyzeAndKeep(cache, unit, shared.input, laneConfig, (resume) => analyse(unit, resume)) : (unit: InputUnit) => analyse(unit);
    const job: WorkerJob = { kind: "analyze", ...shared, ...(cache && files.length > 0 && { cache: cache.jobSetup() }) };
    const fresh = await inThreads<FileAnalysis>(files, largestFirst(sizes), lanes, job, env, display?.update, {
      unit: mainUnit,
      received: (result) => pool.internIn(result as FileAnalysis),
      finished: (written) => cache?.countWritten(written),
    });
    const parts = known ? known.fill(fresh) : fresh;
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
  cache?: UnitCache,
): Promise<SweepResult> {
  // Nothing but tallies outlives a unit: the young generation is held small as for analyze (v8Tuning.ts).
  tuneHeapForStreaming();
  const units = await expandUnits(paths);
  // This thread's own resolvers: the caller's are fed in input order from the result (`agentsResolved`).
  const resolvers = pointResolvers(grid, await createConfigResolver(config, env));
  const known = cache && KnownUnits.look(units, (unit) => cachedSweep(cache, unit, grid, input, resolvers));
  const files = known ? known.missingUnits : units;
  const sizes = unitSizes(files, fileSizes(files));
  const lanes = lanesFor(files, sizes.reduce((sum, size) => sum + size, 0), env);
  if (lanes.workers === 0 && !known) return sweepSerially(files, digest, grid, resolvers, input, progress?.of);
  // Units are joined in input order as they come, so that only those that came early wait; they are
  // taken in input order too (not largest first), so that few do: taken largest first, nearly every
  // unit waited for the end, and the 680 MB state folder peaked at 190 MB instead of 1xx.
  const join = new SweepJoin(grid);
  for (const [index, held] of known?.held() ?? []) join.add(index, held);
  const at = (index: number) => known?.missing[index] ?? index;
  const sweep = (unit: InputUnit) => sweepUnit(unit, digest, grid, resolvers, input, progress?.of);
  const mainUnit = cache ? (unit: InputUnit) => sweepAndKeep(cache, unit, grid, input, resolvers, () => sweep(unit)) : sweep;
  const job: WorkerJob = { kind: "sweep", config, grid, input, ...(cache && files.length > 0 && { cache: cache.jobSetup() }) };
  await inThreads<true>(files, files.map((_, i) => i), lanes, job, env, progress?.update, {
    unit: async (unit, index) => join.add(at(index), await mainUnit(unit)),
    received: (result, index) => join.add(at(index), result as UnitSweep),
    finished: (written) => cache?.countWritten(written),
  });
  return join.result();
}

/** The main thread's share of a job: how it handles a unit, and how it takes a worker's result. */
interface MainLane<R> {
  unit(unit: InputUnit, index: number): Promise<R>;
  received(result: FileAnalysis | UnitSweep, index: number): R;
  /** A worker is done: what it wrote to the cache. */
  finished?(cacheWritten: CacheWritten): void;
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
          main.finished?.(reply.cacheWritten);
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
  // Report the first failure in input order, as a serial run would have met it. (Array.from, not
  // map: a failed unit leaves a hole in `results`, and map skips holes, so its failure went unseen.)
  return Array.from(results, (result, index) => {
    if (failures[index] !== undefined) throw failures[index];
    return result!;
  });
}
