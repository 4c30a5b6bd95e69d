// `npm run bench [-- --large] [-- --runs N] [-- --seed N] [-- --quick]`
//
// Generates seeded synthetic inputs (cached under bench/out/, never committed), then for each data
// set runs the parse-only baseline (bench/baseline.mjs: read + split + JSON.parse every line) and
// `looplens analyze --format json` side by side, alternating, several times, and reports medians:
// MB/s, the ratio analyze/baseline, and peak RSS. Folders are also timed with the parallel workers
// off (LOOPLENS_WORKERS=0). The sweep cost (20 configs vs one analyze) is measured in process by
// bench/sweep.mjs. Results go to bench/RESULTS.md (and bench/out/results.json).
//
// OpenClaw session transcripts are measured only when this build reads them: a tiny generated
// transcript is analysed first and the data set is reported as unsupported when its calls are not
// seen (read as canonical events, all its lines are skipped).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "bench", "out");
const BIN = join(ROOT, "bin", "looplens");
const RSS_HOOK = join(ROOT, "bench", "rss-hook.mjs");
const GENERATOR_VERSION = 1;

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
};
const RUNS = option("runs", 3);
const SEED = option("seed", 42);
const QUICK = flag("quick");
const LARGE = flag("large");

/** Data sets: a folder of many transcripts (the ratio target), one big file (serial path), and optionally ~1 GB. */
const DATASETS = [
  { name: "folder", files: QUICK ? 8 : 48, fileMb: QUICK ? 1 : 4 },
  { name: "single", files: 1, fileMb: QUICK ? 8 : 64 },
  ...(LARGE ? [{ name: "large", files: 1, fileMb: 1000 }] : []),
];
const FORMATS = ["session", "events", "claude-code"];
/** Other agents' transcripts are measured on the folder only (issue 15: a folder of a few hundred MB). */
const datasetsOf = (format) => (format === "claude-code" ? DATASETS.filter((spec) => spec.name === "folder") : DATASETS);

function dataset(format, { name, files, fileMb }) {
  const dir = join(OUT, "inputs", `${format}-${name}-${files}x${fileMb}MB-seed${SEED}-v${GENERATOR_VERSION}`);
  const done = join(dir, ".done");
  if (existsSync(done)) return { dir, ...JSON.parse(readFileSync(done, "utf8")) };
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const { paths, bytes } = generate({ dir, seed: SEED, files, fileMb, format });
  const info = { files: paths.length, bytes };
  writeFileSync(done, JSON.stringify(info));
  log(`generated ${format}/${name}: ${paths.length} file(s), ${mb(bytes)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { dir, ...info };
}

function log(text) {
  process.stderr.write(`bench: ${text}\n`);
}
const mb = (bytes) => (bytes / 1e6).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs one measured process; returns wall time (ms), peak RSS (MB) and its stdout. */
function measure(args, env = {}) {
  const rssFile = join(OUT, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", RSS_HOOK, ...args], {
    env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  const rssMb = Number(readFileSync(rssFile, "utf8")) / 1024;
  return { ms, rssMb, stdout: child.stdout };
}

/** True when this build recognises OpenClaw session transcripts. */
function sessionsSupported() {
  const dir = join(OUT, "probe");
  rmSync(dir, { recursive: true, force: true });
  const { paths } = generate({ dir, seed: 7, files: 1, fileMb: 0.05, format: "session" });
  const child = spawnSync(process.execPath, [BIN, "analyze", "--format", "json", "--quiet", paths[0]], { encoding: "utf8" });
  try {
    // Read as canonical events, every line of a transcript is skipped and no call is seen.
    const { summary } = JSON.parse(child.stdout);
    return summary.calls > 0 && summary.lines.skipped === 0;
  } catch {
    return false;
  }
}

function benchDataset(format, spec) {
  const data = dataset(format, spec);
  const variants = [
    { key: "baseline", args: [join(ROOT, "bench", "baseline.mjs"), data.dir] },
    { key: "analyze", args: [BIN, "analyze", "--format", "json", data.dir] },
    // The newest detector generation on the same input (target: within 10% of the default's throughput).
    { key: "newest", args: [BIN, "analyze", "--profile", "newest", "--format", "json", data.dir] },
    ...(data.files > 1 ? [{ key: "serial", args: [BIN, "analyze", "--format", "json", data.dir], env: { LOOPLENS_WORKERS: "0" } }] : []),
  ];
  const samples = Object.fromEntries(variants.map((v) => [v.key, { ms: [], rss: [] }]));
  let summary;
  for (let run = 0; run < RUNS; run++) {
    for (const variant of variants) {
      const result = measure(variant.args, variant.env);
      samples[variant.key].ms.push(result.ms);
      samples[variant.key].rss.push(result.rssMb);
      if (variant.key === "analyze") summary = JSON.parse(result.stdout).summary;
    }
  }
  const rate = (key) => data.bytes / 1e6 / (median(samples[key].ms) / 1000);
  const row = {
    format,
    dataset: spec.name,
    files: data.files,
    mb: data.bytes / 1e6,
    lines: summary.lines.read,
    calls: summary.calls,
    findings: summary.findings.total,
    baselineMBs: rate("baseline"),
    analyzeMBs: rate("analyze"),
    ratio: rate("analyze") / rate("baseline"),
    newestMBs: rate("newest"),
    newestVsDefault: rate("newest") / rate("analyze"),
    serialMBs: samples.serial ? rate("serial") : undefined,
    serialRatio: samples.serial ? rate("serial") / rate("baseline") : undefined,
    baselineRssMb: Math.max(...samples.baseline.rss),
    analyzeRssMb: Math.max(...samples.analyze.rss, ...(samples.serial?.rss ?? [])),
  };
  log(
    `${format}/${spec.name}: baseline ${row.baselineMBs.toFixed(0)} MB/s, analyze ${row.analyzeMBs.toFixed(0)} MB/s (ratio ${row.ratio.toFixed(2)}` +
      (row.serialRatio !== undefined ? `, serial ${row.serialRatio.toFixed(2)}` : "") +
      `), newest ${row.newestMBs.toFixed(0)} MB/s (${row.newestVsDefault.toFixed(2)}× default), peak RSS ${row.analyzeRssMb.toFixed(0)} MB`,
  );
  return row;
}

function sweepCost(format, spec) {
  const data = dataset(format, spec);
  const child = spawnSync(process.execPath, [join(ROOT, "bench", "sweep.mjs"), String(RUNS), data.dir], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (child.status !== 0) throw new Error(`sweep bench failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout);
  log(`sweep ${format}/${spec.name}: ${result.configs} configs cost ${result.ratio.toFixed(2)}× one analyze`);
  return { format, dataset: spec.name, mb: data.bytes / 1e6, ...result };
}

const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toFixed(digits));
const check = (ok) => (ok ? "✓" : "✗");

function markdown(rows, sweeps, unsupported) {
  const lines = [
    "# Benchmark results",
    "",
    `Generated by \`npm run bench${LARGE ? " -- --large" : ""}\` on ${new Date().toISOString().slice(0, 10)}: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}; seed ${SEED}, median of ${RUNS} alternating runs; load average ${STARTING_LOAD} when the run started (other work on the machine slows both sides, and the parallel analysis most).`,
    "Baseline: read + split lines + `JSON.parse` each line (bench/baseline.mjs), same files, same run. " +
      "Targets: ratio ≥ 0.6, peak RSS < 150 MB, sweep of 20 configs ≤ 3× one analyze.",
    "",
    "| input | files | MB | lines | baseline MB/s | analyze MB/s | ratio | ratio, workers off | peak RSS (MB) | baseline RSS (MB) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.format} ${r.dataset} | ${r.files} | ${fmt(r.mb)} | ${r.lines} | ${fmt(r.baselineMBs)} | ${fmt(r.analyzeMBs)} | ${fmt(r.ratio, 2)} ${check(r.ratio >= 0.6)} | ${fmt(r.serialRatio, 2)} | ${fmt(r.analyzeRssMb)} ${check(r.analyzeRssMb < 150)} | ${fmt(r.baselineRssMb)} |`,
    ),
    ...unsupported.map((u) => `| ${u} | – | – | – | – | – | unsupported (this build has no OpenClaw session adapter) | – | – | – |`),
    "",
    "`--profile newest` beside the default profile (same files, same runs; target: at least 0.9× the default's MB/s):",
    "",
    "| input | default MB/s | newest MB/s | newest / default |",
    "|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.format} ${r.dataset} | ${fmt(r.analyzeMBs)} | ${fmt(r.newestMBs)} | ${fmt(r.newestVsDefault, 2)} ${check(r.newestVsDefault >= 0.9)} |`),
    "",
    "| sweep input | MB | one analyze (ms) | 20 configs (ms) | cost |",
    "|---|---:|---:|---:|---:|",
    ...sweeps.map((s) => `| ${s.format} ${s.dataset} | ${fmt(s.mb)} | ${fmt(s.analyzeMs)} | ${fmt(s.sweepMs)} | ${fmt(s.ratio, 2)}× ${check(s.ratio <= 3)} |`),
    "",
  ];
  return lines.join("\n");
}

const STARTING_LOAD = loadavg()[0].toFixed(1);
mkdirSync(OUT, { recursive: true });
if (!existsSync(join(ROOT, "dist", "cli.js"))) throw new Error("dist/ is missing: run `npm run build` first (npm run bench does)");
const supportsSessions = sessionsSupported();
if (!supportsSessions) log("OpenClaw session transcripts: unsupported by this build (a generated transcript yields no calls); measuring canonical events only");
const rows = [];
const sweeps = [];
const unsupported = [];
for (const format of FORMATS) {
  if (format === "session" && !supportsSessions) {
    for (const spec of DATASETS) unsupported.push(`session ${spec.name}`);
    continue;
  }
  for (const spec of datasetsOf(format)) rows.push(benchDataset(format, spec));
  if (format !== "claude-code") sweeps.push(sweepCost(format, DATASETS[0]));
}
writeFileSync(join(OUT, "results.json"), JSON.stringify({ rows, sweeps, unsupported }, null, 2));
writeFileSync(join(ROOT, "bench", "RESULTS.md"), markdown(rows, sweeps, unsupported));
log(`wrote bench/RESULTS.md`);
