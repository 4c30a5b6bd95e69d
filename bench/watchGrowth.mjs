// One large file watched as it grows (bench/watch.mjs's section, `npm run bench -- --watch`): a
// canonical events file of `mb` MB (bench/generate.mjs) ends with a run of one call repeated ten
// times; `looplens watch` replays it, then each appended call is a finding (from the 11th call on),
// answered by its result once printed. Before watch resumed (pipeline/watch/followedPoint.ts) each
// append cost the whole file's replay; now it costs the appended lines.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { generate } from "./generate.mjs";
import { percentile, startWatch } from "./watch.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const RUN = { run: "grow-run", session: "grow-session", agent: "main" };
const call = (n) => `${JSON.stringify({ type: "tool_call", ...RUN, id: `g${n}`, tool: "exec", args: { command: "npm test" } })}\n`;
const result = (n) =>
  `${JSON.stringify({ type: "tool_result", ...RUN, id: `g${n}`, tool: "exec", result: { content: [{ type: "text", text: "41 passed, 1 failed" }], details: { status: "failed", exitCode: 1 } } })}\n`;

/** The generated file, kept between runs (generating 50 MB takes a while); a copy is what grows. */
function grownFile(ctx, mb, seed) {
  const dir = join(ctx.out, "inputs", `watch-grow-${mb}mb-seed${seed}-v1`);
  const done = join(dir, ".done");
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const { paths } = generate({ dir, seed, files: 1, fileMb: mb, format: "events" });
    appendFileSync(paths[0], Array.from({ length: 10 }, (_, n) => call(n) + result(n)).join(""));
    appendFileSync(done, basename(paths[0]));
  }
  return join(dir, readFileSync(done, "utf8"));
}

/** Latency from an appended call to its finding, watching one `mb` MB file, over `appends` appends. */
export async function watchGrowth(ctx, { mb = 50, appends = 60, seed = 5 } = {}) {
  const source = grownFile(ctx, mb, seed);
  const dir = join(ctx.out, "watch-grow");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "grown.jsonl");
  copyFileSync(source, file);
  let lines = 0;
  for (const byte of readFileSync(file)) if (byte === 10) lines++;
  const started = performance.now();
  const watch = startWatch(ctx, [file]);
  await watch.ready;
  const readyMs = performance.now() - started;
  const pending = new Map();
  watch.onLine((line, at) => {
    if (!line.startsWith('{"run"')) return;
    pending.get(JSON.parse(line).line)?.(at);
  });
  const cpu0 = watch.cpuSeconds();
  const wall0 = performance.now();
  const latencies = [];
  for (let n = 10; n < 10 + appends; n++) {
    const lineNo = ++lines;
    const printed = new Promise((resolve) => pending.set(lineNo, resolve));
    const start = performance.now();
    appendFileSync(file, call(n));
    const at = await Promise.race([printed, sleep(30_000).then(() => undefined)]);
    pending.delete(lineNo);
    latencies.push(at === undefined ? Infinity : at - start);
    appendFileSync(file, result(n));
    lines++;
    await sleep(20);
  }
  const cpuPercent = ((watch.cpuSeconds() - cpu0) / ((performance.now() - wall0) / 1000)) * 100;
  const rssMb = await watch.stop();
  rmSync(dir, { recursive: true, force: true });
  const sorted = [...latencies].sort((a, b) => a - b);
  // The first append's analysis is spaced by the start's full read (analysisLane.ts: COST_FACTOR × its CPU time): told apart.
  return { mb, appends, readyMs, first: latencies[0], p50: percentile(sorted, 50), p99: percentile(sorted, 99), missed: latencies.filter((l) => l === Infinity).length, cpuPercent, rssMb };
}

/** Its row in the watch table. */
export function watchGrowthRow(growth, fmt, check) {
  const ok = check(growth.p99 <= 250 && growth.missed === 0);
  return `| append → printed finding watching one ${growth.mb} MB canonical events file (ready in ${fmt(growth.readyMs / 1000, 1)} s), p99 over ${growth.appends} appends | ${fmt(growth.p99)} ms ${ok} (p50 ${fmt(growth.p50)}, the first append ${fmt(growth.first)}, ${growth.missed} missed); CPU ${fmt(growth.cpuPercent)}% meanwhile, peak RSS ${fmt(growth.rssMb)} MB | ≤ 250 ms |`;
}
