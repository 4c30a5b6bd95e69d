/**
 * Worker-thread entry of the parallel analysis (parallelAnalysis.ts): rebuilds the config resolver
 * and the digest from plain options once, then analyses the files it is sent, one at a time.
 */
import { parentPort, workerData } from "node:worker_threads";
import { InputError } from "../adapters/inputs.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { analyzeFile } from "./analysis.js";
import { createConfigResolver } from "./configResolution.js";
import type { WorkerReply, WorkerRequest, WorkerSetup } from "./parallelAnalysis.js";

/** Progress is batched: one message per MB or so is plenty for a progress bar. */
const BYTES_BATCH = 1 << 20;

const port = parentPort!;
const setup = workerData as WorkerSetup & { readonly progress: boolean };
const resolver = await createConfigResolver(setup.config);
const digest = await loadXxhashDigest();
const reply = (message: WorkerReply) => port.postMessage(message);

let pendingBytes = 0;
let pendingLines = 0;
let pendingTotal = 0;
const flushProgress = () => {
  if (pendingBytes > 0 || pendingLines > 0 || pendingTotal > 0) reply({ kind: "progress", bytes: pendingBytes, lines: pendingLines, moreTotal: pendingTotal });
  pendingBytes = 0;
  pendingLines = 0;
  pendingTotal = 0;
};
const onProgress = setup.progress
  ? (bytes: number, lines: number, moreTotal = 0) => {
      pendingBytes += bytes;
      pendingLines += lines;
      pendingTotal += moreTotal;
      if (pendingBytes >= BYTES_BATCH) flushProgress();
    }
  : undefined;

port.on("message", async ({ index, path }: WorkerRequest) => {
  try {
    const result = await analyzeFile(path, digest, (agent) => resolver.effectiveFor(agent).config, { ...setup.input, onProgress });
    flushProgress();
    reply({ kind: "done", index, result });
  } catch (error) {
    flushProgress();
    const err = error as Error;
    reply({ kind: "failed", index, userError: error instanceof InputError, message: String(err?.message ?? error), ...(err?.stack ? { stack: err.stack } : {}) });
  }
});
reply({ kind: "ready" });
