// The result cache's section of the bench (`npm run bench -- --cache [--large]`, run alone): on the
// real-shaped state folder (bench/generateReal.mjs; with --large, its large size too), side by side
// and alternating, medians of RUNS:
//   - `no cache`: this build with --no-cache (the code path of the build before the cache);
//   - `cold`: the cache emptied before each run (what writing the cache costs: target ≤ 3% slower);
//   - `warm`: the unchanged folder again (target ≥ 20× faster than cold): the command's kept output
//     (src/pipeline/cache/reportCache.ts); the table rows show a warm run without it (sessions' entries
//     read back, the report made again) and with it;
//   - `grown`: one live session file grown by 1 MB of new entries since the warm run (≥ 10×);
//   - `sweep` of 20 configs, cold and warm (≥ 10×);
//   - Node's start-up alone (`node -e 0`) and looplens's (`looplens --version`), which a warm run
//     cannot go below.
// Wall time and CPU time (user + system, all threads) of each process, and peak RSS (target ≤ 150 MB).
// The folder is copied to bench/out/cache-work/ first, so the grown file never changes the inputs.
import { appendFileSync, cpSync, existsSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { join, relative } from "node:path";
import { rng } from "./generate.mjs";
import { realSessionLines, textMaker } from "./generateReal.mjs";

const ANALYZE = ["analyze", "--format", "json"];
const SWEEP = ["sweep", "--format", "json", "--vary", "criticalThreshold=12..21", "--vary", "warningThreshold=6,9"];
/** One worker beside the main thread, as the main bench analyses folders (a warm run starts none: nothing to analyse). */
const WORKERS = { LOOPLENS_WORKERS: "1" };

/** The largest live transcript (`<id>.jsonl`) of a state folder: the one a running agent appends to. */
function liveTranscript(dir) {
  let best;
  for (const agent of readdirSync(join(dir, "agents"))) {
    const sessions = join(dir, "agents", agent, "sessions");
    for (const name of readdirSync(sessions)) {
      if (!name.endsWith(".jsonl")) continue;
      const size = statSync(join(sessions, name)).size;
      if (!best || size > best.size) best = { path: join(sessions, name), size, id: name.slice(0, -".jsonl".length) };
    }
  }
  return best;
}

/** 1 MB of new entries of the session (a new run of real shape; its header line left out). */
function newEntries(sessionId) {
  const corpus = { ...rng(7), seed: 7 };
  const progress = { bytes: 0 };
  const lines = [];
  // The generator stops once `progress` says it wrote enough (as bench/generate.mjs's writer counts).
  for (const entry of realSessionLines(textMaker(corpus, rng(11)), rng(13), sessionId, 1e6, progress)) {
    const line = JSON.stringify(entry);
    lines.push(line);
    progress.bytes += line.length + 1;
  }
  return `${lines.slice(1).join("\n")}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toFixed(digits));

/** The cache rows of one data set. `measure(args, env)` → { ms, cpuMs, rssMb }. */
function benchFolder(spec, { dataset, measure, bin, out, runs, log }) {
  const data = dataset(spec);
  const work = join(out, "cache-work", spec.name.replace(/\W+/g, "-"));
  if (!existsSync(join(work, ".done"))) {
    rmSync(work, { recursive: true, force: true });
    cpSync(data.dir, work, { recursive: true });
  }
  const cacheDir = join(out, "cache-work", "cache");
  const env = (more = {}) => ({ LOOPLENS_CACHE_DIR: cacheDir, ...WORKERS, ...more });
  const live = liveTranscript(work);
  // Its size in the inputs themselves: a bench stopped while the file was grown left it grown here.
  live.size = statSync(join(data.dir, relative(work, live.path))).size;
  const grown = newEntries(live.id);
  const restore = () => truncateSync(live.path, live.size);
  restore();
  const samples = {};
  const add = (key, result) => (samples[key] ??= []).push(result);
  const emptyCache = () => rmSync(cacheDir, { recursive: true, force: true });
  for (let run = 0; run < runs; run++) {
    add("start: node -e 0", measure(["-e", "0"], {}));
    add("start: looplens --version", measure([bin, "--version"], {}));
    add("analyze, no cache", measure([bin, ...ANALYZE, "--no-cache", work], env()));
    emptyCache();
    add("analyze, cold", measure([bin, ...ANALYZE, work], env()));
    add("analyze, warm", measure([bin, ...ANALYZE, work], env()));
    // The first table run finds every session's entry but no kept output of its own (the json one's is another command's).
    add("analyze -f table, sessions warm, output not kept yet", measure([bin, "analyze", work], env()));
    add("analyze -f table, warm", measure([bin, "analyze", work], env()));
    appendFileSync(live.path, grown);
    add("analyze, one file grown by 1 MB", measure([bin, ...ANALYZE, work], env()));
    restore();
    measure([bin, ...ANALYZE, work], env()); // the cache as before the growth, for the next round
    emptyCache();
    add("sweep of 20 configs, cold", measure([bin, ...SWEEP, work], env()));
    add("sweep of 20 configs, warm", measure([bin, ...SWEEP, work], env()));
  }
  const rows = Object.entries(samples).map(([what, results]) => ({
    input: spec.name,
    mb: data.bytes / 1e6,
    what,
    ms: median(results.map((r) => r.ms)),
    cpuMs: median(results.map((r) => r.cpuMs)),
    rssMb: Math.max(...results.map((r) => r.rssMb)),
  }));
  const row = (what) => rows.find((r) => r.what === what);
  const ratio = (a, b, key) => row(a)[key] / row(b)[key];
  for (const [what, base, target, kind] of [
    ["analyze, cold", "analyze, no cache", 1.03, "at most"],
    ["analyze, warm", "analyze, cold", 20, "faster"],
    ["analyze, one file grown by 1 MB", "analyze, cold", 10, "faster"],
    ["sweep of 20 configs, warm", "sweep of 20 configs, cold", 10, "faster"],
  ]) {
    const r = row(what);
    r.vs = base;
    r.wallRatio = kind === "faster" ? ratio(base, what, "ms") : ratio(what, base, "ms");
    r.cpuRatio = kind === "faster" ? ratio(base, what, "cpuMs") : ratio(what, base, "cpuMs");
    r.target = kind === "faster" ? `≥ ${target}× faster than ${base}` : `≤ ${target}× ${base}`;
    r.met = kind === "faster" ? r.wallRatio >= target : r.wallRatio <= target;
  }
  for (const r of rows) log(`cache ${spec.name}: ${r.what}: ${fmt(r.ms)} ms wall, ${fmt(r.cpuMs)} ms CPU, peak RSS ${fmt(r.rssMb)} MB${r.target ? `; ${fmt(r.wallRatio, 2)}× (CPU ${fmt(r.cpuRatio, 2)}×), target ${r.target}` : ""}`);
  return rows;
}

/** Runs the cache section; returns its rows and its markdown. */
export function cacheSection({ specs, ...context }) {
  const rows = specs.flatMap((spec) => benchFolder(spec, context));
  const check = (ok) => (ok ? "✓" : "✗");
  const lines = [
    "## Result cache",
    "",
    `\`npm run bench -- --cache\` (median of ${context.runs} alternating runs; \`analyze --format json\` unless said, LOOPLENS_WORKERS=1 as above: a warm run has nothing to hand a worker). ` +
      "Ratios are of wall time, with CPU time (user + system, all threads) beside them. Targets: cold ≤ 3% slower than no cache, warm ≥ 20× and one file grown by 1 MB ≥ 10× faster than cold, sweep of 20 configs warm ≥ 10× faster than cold, peak RSS ≤ 150 MB.",
    "",
    "| input | MB | run | wall (ms) | CPU (ms) | peak RSS (MB) | ratio (CPU) | target |",
    "|---|---:|---|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.input} | ${fmt(r.mb)} | ${r.what} | ${fmt(r.ms)} | ${fmt(r.cpuMs)} | ${fmt(r.rssMb)} ${r.what.startsWith("start") ? "" : check(r.rssMb <= 150)} | ${r.wallRatio === undefined ? "" : `${fmt(r.wallRatio, 2)}× (${fmt(r.cpuRatio, 2)}×)`} | ${r.target ? `${r.target} ${check(r.met)}` : ""} |`,
    ),
    "",
    // Why the grown row costs what it does (unitCache.ts): written here so that a new run of the section keeps saying it.
    "A grown OpenClaw transcript resumes from the replay state saved at the file's old end (watch.md §2 \"Growth\"): the \"one file grown by 1 MB\" row is the grown session's appended 1 MB read and replayed on the main thread (its old bytes hashed and scanned, not parsed), every other session's entry read and hashed but its runs not parsed, and the JSON output spliced: the kept output's bytes for every other session's runs, the grown session's runs, the config header, summary and diagnostics made again (docs/performance.md, \"Splicing the kept output\"). What each row is made of, and why cold costs more than no cache: docs/performance.md, \"Result cache\".",
    "",
  ];
  return { rows, markdown: lines.join("\n") };
}
