/**
 * Worker-thread entry of the parallel analysis and sweep (parallel.ts): rebuilds the config
 * resolvers and the digest from plain options once, then takes units from the shared work list, one
 * at a time, and analyses or sweeps each.
 */
import { parentPort, workerData } from "node:worker_threads";
import { InputError, type InputUnit } from "../adapters/discovery.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { analyzeUnit, type FileAnalysis, type UnitResume } from "./analysis.js";
import { createConfigResolver } from "./configResolution.js";
import { InputProgress } from "./progress.js";
import { takeFile, type WorkerReply, type WorkerStart } from "./parallel.js";
import { pointResolvers, sweepUnit, type UnitSweep } from "./sweepUnits.js";
import { compileLess } from "./v8Tuning.js";
import { analyzeAndKeep } from "./cache/analysisCache.js";
import { sweepAndKeep } from "./cache/sweepCache.js";
import { UnitCache } from "./cache/unitCache.js";

compileLess(); // this isolate's code is compiled on its own (v8Tuning.ts)

/** Progress is batched: one message per MB (or per 64k lines, when a pass reads no new bytes) is plenty for a bar. */
const BYTES_BATCH = 1 << 20;
const LINES_BATCH = 1 << 16;

const port = parentPort!;
const { job, work, progress: showsProgress } = workerData as WorkerStart;
const digest = await loadXxhashDigest();
const reply = (message: WorkerReply) => port.postMessage(message);

let pendingBytes = 0;
let pendingLines = 0;
const flushProgress = () => {
  if (pendingBytes > 0 || pendingLines > 0) reply({ kind: "progress", bytes: pendingBytes, lines: pendingLines });
  pendingBytes = 0;
  pendingLines = 0;
};
/** This thread's files are its own: it counts their passes (each file's bytes once per progress) before batching. */
const newProgress = () =>
  showsProgress
    ? new InputProgress((bytes, lines) => {
        pendingBytes += bytes;
        pendingLines += lines;
        if (pendingBytes >= BYTES_BATCH || pendingLines >= LINES_BATCH) flushProgress();
      })
    : undefined;

/** The result cache: the main thread looked every unit up, so a worker's units are all to be kept. */
const cache = job.cache && (await UnitCache.open(job.cache));

/** How this worker handles a unit. */
async function unitJob(): Promise<(unit: InputUnit) => Promise<FileAnalysis | UnitSweep>> {
  if (job.kind === "analyze") {
    const resolver = await createConfigResolver(job.config);
    const configFor = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
    const progress = newProgress();
    const analyse = (unit: InputUnit, resume?: UnitResume) => analyzeUnit(unit, digest, configFor, { ...job.input, ...(progress && { progress }) }, undefined, resume);
    return cache ? (unit) => analyzeAndKeep(cache, unit, job.input, configFor, (resume) => analyse(unit, resume)) : (unit) => analyse(unit);
  }
  const resolvers = pointResolvers(job.grid, await createConfigResolver(job.config));
  // A sweep reads the input once per pass: each pass's bytes count apart (progress.ts).
  const progresses = job.grid.passes.map(newProgress);
  const sweep = (unit: InputUnit) => sweepUnit(unit, digest, job.grid, resolvers, job.input, (pass) => progresses[pass]);
  return cache ? (unit) => sweepAndKeep(cache, unit, job.grid, job.input, resolvers, () => sweep(unit)) : sweep;
}

const handle = await unitJob();
// Units are taken from the shared work list until none is left (see WorkList).
for (let index = takeFile(work); index !== undefined; index = takeFile(work)) {
  try {
    const result = await handle(work.files[index]!);
    flushProgress();
    reply({ kind: "done", index, result });
  } catch (error) {
    flushProgress();
    const err = error as Error;
    reply({ kind: "failed", index, userError: error instanceof InputError, message: String(err?.message ?? error), ...(err?.stack ? { stack: err.stack } : {}) });
  }
}
reply({ kind: "finished", cacheWritten: cache?.finishWriting() ?? { added: [] } });
