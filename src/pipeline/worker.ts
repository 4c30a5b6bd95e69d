/**
 * Worker-thread entry of the parallel analysis (parallelAnalysis.ts): rebuilds the config resolver
 * and the digest from plain options once, then analyses files from the shared work list, one at a time.
 */
import { parentPort, workerData } from "node:worker_threads";
import { InputError } from "../adapters/discovery.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { analyzeUnit } from "./analysis.js";
import { createConfigResolver } from "./configResolution.js";
import { InputProgress } from "./progress.js";
import { takeFile, type WorkerReply, type WorkerSetup, type WorkList } from "./parallel.js";
import { compileLess } from "./v8Tuning.js";

compileLess(); // this isolate's code is compiled on its own (v8Tuning.ts)

/** Progress is batched: one message per MB (or per 64k lines, when a pass reads no new bytes) is plenty for a bar. */
const BYTES_BATCH = 1 << 20;
const LINES_BATCH = 1 << 16;

const port = parentPort!;
const setup = workerData as WorkerSetup & { readonly progress: boolean; readonly work: WorkList };
const resolver = await createConfigResolver(setup.config);
const digest = await loadXxhashDigest();
const reply = (message: WorkerReply) => port.postMessage(message);

let pendingBytes = 0;
let pendingLines = 0;
const flushProgress = () => {
  if (pendingBytes > 0 || pendingLines > 0) reply({ kind: "progress", bytes: pendingBytes, lines: pendingLines });
  pendingBytes = 0;
  pendingLines = 0;
};
// This thread's files are its own: it counts their passes (each file's bytes once) before batching.
const progress = setup.progress
  ? new InputProgress((bytes, lines) => {
      pendingBytes += bytes;
      pendingLines += lines;
      if (pendingBytes >= BYTES_BATCH || pendingLines >= LINES_BATCH) flushProgress();
    })
  : undefined;

// Files are taken from the shared work list until none is left (see WorkList).
for (let index = takeFile(setup.work); index !== undefined; index = takeFile(setup.work)) {
  try {
    const result = await analyzeUnit(setup.work.files[index]!, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, { ...setup.input, ...(progress && { progress }) });
    flushProgress();
    reply({ kind: "done", index, result });
  } catch (error) {
    flushProgress();
    const err = error as Error;
    reply({ kind: "failed", index, userError: error instanceof InputError, message: String(err?.message ?? error), ...(err?.stack ? { stack: err.stack } : {}) });
  }
}
reply({ kind: "finished" });
