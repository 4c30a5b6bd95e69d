// Sweep cost, in process: 20 configs replayed over inputs parsed and hashed once
// (prepareInputs + replayPrepared ×20), against one streaming analysis (analyzeInputs ×1).
// Alternates the two several times and prints the medians as JSON.
//
//   node bench/sweep.mjs RUNS PATH...
import { analyzeInputs, prepareInputs, replayPrepared } from "../dist/pipeline/analysis.js";
import { resolveConfig } from "../dist/core/config.js";
import { loadXxhashDigest } from "../dist/core/xxhashDigest.js";

const [runsArg, ...paths] = process.argv.slice(2);
const runs = Number(runsArg);
const CONFIGS = 20;

// A tuner's grid: criticalThreshold 12..21 × warningThreshold 6 and 9 (all with enabled: true).
const configs = [];
for (const warningThreshold of [6, 9]) {
  for (let criticalThreshold = 12; criticalThreshold < 22; criticalThreshold++) {
    const { config } = resolveConfig([{ origin: "bench", source: "--set", values: { enabled: true, warningThreshold, criticalThreshold } }]);
    configs.push(config);
  }
}
if (configs.length !== CONFIGS) throw new Error("grid size");
const defaults = resolveConfig([{ origin: "bench", source: "--set", values: { enabled: true } }]).config;

const digest = await loadXxhashDigest();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const analyzeMs = [];
const sweepMs = [];
let blockedPerConfig = [];
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  await analyzeInputs(paths, digest, () => defaults);
  analyzeMs.push(performance.now() - t);

  t = performance.now();
  const prepared = await prepareInputs(paths, digest);
  blockedPerConfig = configs.map((config) => replayPrepared(prepared, () => config).filter((run) => run.firstStop?.kind === "block").length);
  sweepMs.push(performance.now() - t);
}
const a = median(analyzeMs);
const s = median(sweepMs);
process.stdout.write(`${JSON.stringify({ configs: CONFIGS, analyzeMs: a, sweepMs: s, ratio: s / a, blockedPerConfig })}\n`);
