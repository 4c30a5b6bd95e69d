// `npm run bench [-- --large] [-- --runs N] [-- --seed N] [-- --quick] [-- --only NAME] [-- --watch] [-- --cache] [-- --usage]`
// (`--watch`: only watch's section, bench/watch.mjs; `--cache`: only the result cache's, bench/cache.mjs;
// `--usage`: only what reading usage costs, bench/usage.mjs)
//
// Generates seeded synthetic inputs (cached under bench/out/, never committed), then for each data
// set runs, side by side and alternating, several times (medians reported):
//   - `raw`: reading the same bytes and nothing else, the physical limit (bench/baseline.mjs raw);
//   - four parse-everything readers (bench/baseline.mjs: per-line UTF-8 decode with asynchronous
//     stream reads and with synchronous reads, chunk decode + split, latin1 where exact); the fastest
//     of them on that data set is "the baseline" the ratio is taken against;
//   - `looplens analyze --format json`, with the parallel workers on for folders (LOOPLENS_WORKERS=1:
//     one worker beside the main thread, what a free 2-core machine gets; forced, so that the load
//     average of a shared machine does not decide), and off (LOOPLENS_WORKERS=0);
//   - `--profile newest` on the same input.
// Peak RSS is measured for every process (worker threads included). `sweep` of 20 configs is timed
// against one analyze, both as CLI runs. With --large, also the peak RSS of every output format and
// command on shapes where memory could grow with the input (bench/generateEdges.mjs). Then `looplens
// watch` beside writers (bench/watch.mjs, and one large file grown: bench/watchGrowth.mjs); `--watch` runs that section alone and replaces only it in
// bench/RESULTS.md. Results go to bench/RESULTS.md and bench/out/results.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";
import { loopingRuns, stuckRun, unendedRuns } from "./generateEdges.mjs";
import { watchIdle, watchLatency, watchMarkdown, watchThroughput } from "./watch.mjs";
import { watchGrowth } from "./watchGrowth.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "bench", "out");
const BIN = join(ROOT, "bin", "looplens");
const BASELINE = join(ROOT, "bench", "baseline.mjs");
const RSS_HOOK = join(ROOT, "bench", "rss-hook.mjs");
/** Bumped when a generator's output changes, so that cached inputs are made again (3: real-shaped runs name themselves as the runtime writes it). */
const GENERATOR_VERSION = { real: 3, tiny: 3 };
const generatorVersion = (format) => GENERATOR_VERSION[format] ?? 2;

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const RUNS = Number(option("runs", 3));
const SEED = Number(option("seed", 42));
const QUICK = flag("quick");
const LARGE = flag("large");
const ONLY = option("only", undefined);
const WATCH_ONLY = flag("watch");
const scale = (mb) => (QUICK ? Math.max(1, Math.round(mb / 8)) : mb);

/**
 * The input shapes. `files` > 1 is a folder (for `real`: a state directory of about files × fileMb MB
 * in files of real sizes, thousands of small ones and a few large); 1 is a single file (serial path).
 */
const DATASETS = [
  { name: "real state folder", format: "real", files: 48, fileMb: scale(3) },
  { name: "ASCII long outputs folder", format: "session", ascii: true, files: 48, fileMb: scale(3) },
  { name: "ASCII long outputs, one file", format: "session", ascii: true, files: 1, fileMb: scale(48) },
  { name: "tiny entries, one file", format: "tiny", files: 1, fileMb: scale(32) },
  { name: "canonical events folder", format: "events", files: 48, fileMb: scale(3) },
  { name: "canonical events, one file", format: "events", files: 1, fileMb: scale(48) },
  { name: "Gateway log", format: "gateway", files: 1, fileMb: scale(32) },
  { name: "Claude Code folder", format: "claude-code", files: 48, fileMb: scale(3) },
  { name: "Codex folder", format: "codex", files: 48, fileMb: scale(3) },
  ...(LARGE
    ? [
        { name: "real state folder, large", format: "real", files: 200, fileMb: 3 },
        { name: "real-shaped 1 GB file", format: "real", files: 1, fileMb: 1000 },
        { name: "tiny entries 1 GB file", format: "tiny", files: 1, fileMb: 1000 },
        // ~1.03 M runs of at most one call: memory must not grow with the number of runs.
        { name: "Gateway log, 1 M short runs", format: "gateway-short", files: 1, fileMb: 1400 },
      ]
    : []),
].filter((spec) => !WATCH_ONLY && (ONLY === undefined || spec.name.includes(ONLY)));

const BASELINES = ["stream-line", "sync-line", "sync-chunk", "sync-latin1"];

function dataset(spec) {
  const { format, files, fileMb, ascii = false } = spec;
  const dir = join(OUT, "inputs", `${format}${ascii ? "-ascii" : ""}-${files}x${fileMb}MB-seed${SEED}-v${generatorVersion(format)}`);
  const done = join(dir, ".done");
  if (existsSync(done)) return { dir, ...JSON.parse(readFileSync(done, "utf8")) };
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const { paths, bytes } = generate({ dir, seed: SEED, files, fileMb, format, ascii });
  const info = { files: paths.length, bytes };
  writeFileSync(done, JSON.stringify(info));
  log(`generated ${spec.name}: ${paths.length} file(s), ${mb(bytes)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
    // Kept as bytes: a report of a million runs is larger than the longest string V8 makes.
    maxBuffer: 2 ** 31,
    encoding: "buffer",
  });
  const ms = performance.now() - started;
  // analyze exits 1 when it found something to stop: that is a result, not a failure.
  if (child.status !== 0 && child.status !== 1) throw new Error(`${args.join(" ")} exited ${child.status}: ${child.stderr.toString("utf8")}`);
  const rssMb = Number(readFileSync(rssFile, "utf8")) / 1024;
  return { ms, rssMb, stdout: child.stdout };
}

/** The `summary` of a json report, read from the part before its runs (the report may not fit in a string). */
function summaryOf(stdout) {
  const runsAt = stdout.indexOf('\n  "runs": [');
  if (runsAt === -1) return JSON.parse(stdout.toString("utf8")).summary;
  return JSON.parse(`${stdout.toString("utf8", 0, runsAt).replace(/,\s*$/, "")}\n}`).summary;
}

function benchDataset(spec) {
  const data = dataset(spec);
  const folder = data.files > 1;
  const variants = [
    { key: "raw", args: [BASELINE, "raw", data.dir] },
    ...BASELINES.map((mode) => ({ key: mode, args: [BASELINE, mode, data.dir] })),
    { key: "analyze", args: [BIN, "analyze", "--format", "json", data.dir], env: folder ? { LOOPLENS_WORKERS: "1" } : {} },
    ...(folder ? [{ key: "serial", args: [BIN, "analyze", "--format", "json", data.dir], env: { LOOPLENS_WORKERS: "0" } }] : []),
    // The newest detector generation on the same input (target: within 10% of the default's throughput).
    { key: "newest", args: [BIN, "analyze", "--profile", "newest", "--format", "json", data.dir], env: folder ? { LOOPLENS_WORKERS: "1" } : {} },
  ];
  const samples = Object.fromEntries(variants.map((v) => [v.key, { ms: [], rss: [] }]));
  let summary;
  for (let run = 0; run < RUNS; run++) {
    for (const variant of variants) {
      const result = measure(variant.args, variant.env);
      samples[variant.key].ms.push(result.ms);
      samples[variant.key].rss.push(result.rssMb);
      if (variant.key === "analyze") summary = summaryOf(result.stdout);
    }
  }
  const rate = (key) => (samples[key] ? data.bytes / 1e6 / (median(samples[key].ms) / 1000) : undefined);
  const baselines = Object.fromEntries(BASELINES.map((mode) => [mode, rate(mode)]));
  const fastest = BASELINES.reduce((best, mode) => (baselines[mode] > baselines[best] ? mode : best));
  const row = {
    name: spec.name,
    format: spec.format,
    files: data.files,
    mb: data.bytes / 1e6,
    lines: summary.lines.read,
    calls: summary.calls,
    runs: summary.runs,
    findings: summary.findings.total,
    rawMBs: rate("raw"),
    baselines,
    fastest,
    baselineMBs: baselines[fastest],
    analyzeMBs: rate("analyze"),
    ratio: rate("analyze") / baselines[fastest],
    ofRaw: rate("analyze") / rate("raw"),
    serialMBs: rate("serial"),
    serialRatio: folder ? rate("serial") / baselines[fastest] : undefined,
    newestMBs: rate("newest"),
    newestVsDefault: rate("newest") / rate("analyze"),
    baselineRssMb: Math.max(...samples[fastest].rss),
    analyzeRssMb: Math.max(...samples.analyze.rss),
    serialRssMb: folder ? Math.max(...samples.serial.rss) : undefined,
  };
  log(
    `${spec.name}: raw ${fmt(row.rawMBs)} MB/s, baselines ${BASELINES.map((m) => `${m} ${fmt(baselines[m])}`).join(", ")}; ` +
      `analyze ${fmt(row.analyzeMBs)} MB/s = ${fmt(row.ratio, 2)}× ${fastest}, ${fmt(row.ofRaw, 3)}× raw` +
      (folder ? `; workers off ${fmt(row.serialRatio, 2)}×` : "") +
      `; newest ${fmt(row.newestVsDefault, 2)}× default; peak RSS ${fmt(row.analyzeRssMb)} MB`,
  );
  return row;
}

/** 20 configs (criticalThreshold 12..21 × warningThreshold 6, 9), as `looplens sweep`, against one analyze. */
function sweepCost(spec) {
  const data = dataset(spec);
  const analyze = [BIN, "analyze", "--format", "json", data.dir];
  const sweep = [BIN, "sweep", "--format", "json", "--vary", "criticalThreshold=12..21", "--vary", "warningThreshold=6,9", data.dir];
  const env = { LOOPLENS_WORKERS: "0" };
  const times = { analyze: [], sweep: [] };
  let rss = 0;
  let configs = 0;
  for (let run = 0; run < RUNS; run++) {
    times.analyze.push(measure(analyze, env).ms);
    const result = measure(sweep, env);
    times.sweep.push(result.ms);
    rss = Math.max(rss, result.rssMb);
    configs = JSON.parse(result.stdout.toString("utf8")).configs?.length ?? configs;
  }
  const row = { name: spec.name, mb: data.bytes / 1e6, configs, analyzeMs: median(times.analyze), sweepMs: median(times.sweep), sweepRssMb: rss };
  row.ratio = row.sweepMs / row.analyzeMs;
  log(`sweep ${spec.name}: ${configs} configs cost ${fmt(row.ratio, 2)}× one analyze (workers off both), peak RSS ${fmt(rss)} MB`);
  return row;
}

/**
 * With --large: peak RSS of each output format and command on the shapes where memory could grow
 * with the input rather than stay flat (bench/generateEdges.mjs), one run each (memory, not time,
 * is the figure; it varies by a few MB from run to run). Target: ≤ 150 MB like every other input.
 */
const EDGES = [
  {
    name: "80,000 looping runs (~160,000 findings)",
    file: "loops-80000.jsonl",
    make: (path) => loopingRuns(path, 80_000),
    // Line 22: run-0's 11th call, its first finding (explain needs a finding's place).
    commands: [
      ...["json", "table", "markdown", "ndjson", "github", "html"].map((format) => ({ label: `analyze -f ${format}`, args: ["analyze", "--format", format] })),
      { label: "events", args: ["events"] },
      { label: "explain (a place in the first run)", args: ["explain"], at: 22 },
    ],
  },
  {
    name: "one run stuck for 200,000 calls",
    file: "stuck-200000.jsonl",
    make: (path) => stuckRun(path, 200_000),
    commands: ["json", "table", "html"].map((format) => ({ label: `analyze -f ${format}`, args: ["analyze", "--format", format] })),
  },
  {
    name: "300,000 runs that never end (no run_end)",
    file: "unended-300000.jsonl",
    make: (path) => unendedRuns(path, 300_000),
    commands: [{ label: "analyze -f json", args: ["analyze", "--format", "json"] }],
  },
].filter((edge) => ONLY === undefined || edge.name.includes(ONLY));

function edgeRows(edge) {
  const path = join(OUT, "inputs", "edges-v1", edge.file);
  const done = `${path}.done`;
  if (!existsSync(done)) {
    writeFileSync(done, JSON.stringify({ bytes: edge.make(path) }));
    log(`generated ${edge.name}`);
  }
  const { bytes } = JSON.parse(readFileSync(done, "utf8"));
  return edge.commands.map((command) => {
    const target = command.at === undefined ? path : `${path}:${command.at}`;
    const result = measure([BIN, ...command.args, target]);
    log(`${edge.name}: ${command.label} peak RSS ${fmt(result.rssMb)} MB in ${fmt(result.ms / 1000, 1)} s`);
    return { name: edge.name, mb: bytes / 1e6, command: command.label, rssMb: result.rssMb, seconds: result.ms / 1000 };
  });
}

const fmt = (n, digits = 0) => (n === undefined ? "–" : n.toFixed(digits));
const check = (ok) => (ok ? "✓" : "✗");

/** `looplens watch` beside writers: latency, idle CPU, peak RSS, throughput (bench/watch.mjs). */
async function watchSection() {
  const ctx = { bin: BIN, rssHook: RSS_HOOK, out: OUT };
  // The machine may be shared: the load average (1 min) at each measure's start and end goes with it.
  const loaded = async (measure) => {
    const from = loadavg()[0];
    const result = await measure();
    return { ...result, load: [from, loadavg()[0]] };
  };
  const latency = await loaded(() => watchLatency(ctx));
  log(`watch: append → finding p50 ${fmt(latency.p50)} ms, p99 ${fmt(latency.p99)} ms over ${latency.appends} appends (${latency.missed} missed)`);
  const idle = await loaded(() => watchIdle(ctx, { seed: SEED }));
  log(`watch: ${idle.files} files (${fmt(idle.mb)} MB) ready in ${fmt(idle.readyMs / 1000, 1)} s; idle CPU ${fmt(idle.idleCpu, 2)}% over ${idle.seconds} s; peak RSS ${fmt(idle.rssMb)} MB`);
  const throughput = await loaded(() => watchThroughput(ctx));
  log(`watch: ${fmt(throughput.mbPerSecond, 1)} MB/s of appends: ${throughput.printed}/${throughput.expected} findings, last ${fmt((throughput.caughtUpMs ?? NaN) / 1000, 1)} s after; CPU ${fmt(throughput.cpuPercent)}%`);
  const growth = await loaded(() => watchGrowth(ctx));
  log(`watch: one ${growth.mb} MB file grown: append → finding p50 ${fmt(growth.p50)} ms, p99 ${fmt(growth.p99)} ms over ${growth.appends} appends (${growth.missed} missed); CPU ${fmt(growth.cpuPercent)}%`);
  return { latency, idle, throughput, growth };
}

const WATCH_START = "<!-- watch: written by bench/watch.mjs -->";
const WATCH_END = "<!-- /watch -->";
const watchBlock = (watch) => [WATCH_START, "", `Watch section measured on ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0].toFixed(1)} at its end.`, "", watchMarkdown(watch, fmt, check), WATCH_END, ""].join("\n");

/** RESULTS.md with its watch section (between the markers) replaced, or added at the end. */
function withWatchSection(text, watch) {
  const from = text.indexOf(WATCH_START);
  const to = text.indexOf(WATCH_END);
  if (from >= 0 && to > from) return text.slice(0, from) + watchBlock(watch) + text.slice(to + WATCH_END.length + 1);
  return `${text.trimEnd()}\n\n${watchBlock(watch)}`;
}

/**
 * `--cache`: the result cache's section alone (bench/cache.mjs), its table put in place of the one
 * bench/RESULTS.md had (or after it), the rest of the file left as it was.
 */
async function cacheOnly() {
  const { cacheSection } = await import("./cache.mjs");
  const specs = [{ name: "real state folder", format: "real", files: 48, fileMb: scale(3) }, ...(LARGE ? [{ name: "real state folder, large", format: "real", files: 200, fileMb: 3 }] : [])];
  const measureWithCpu = (args, env) => {
    const cpuFile = join(OUT, `cpu-${process.pid}.txt`);
    rmSync(cpuFile, { force: true });
    const result = measure(args, { ...env, BENCH_CPU_FILE: cpuFile });
    return { ...result, cpuMs: Number(readFileSync(cpuFile, "utf8")) };
  };
  const { rows, markdown } = cacheSection({ specs, dataset, measure: measureWithCpu, bin: BIN, out: OUT, runs: RUNS, log });
  writeFileSync(join(OUT, "cache-results.json"), JSON.stringify(rows, null, 2));
  const header = `Cache section generated by \`npm run bench -- --cache${LARGE ? " --large" : ""}\` on ${new Date().toISOString().slice(0, 10)}: ${availableParallelism()} cores, Node ${process.version}; load average ${STARTING_LOAD} when it started, ${ENDING_LOAD()} at the end.`;
  const section = `${markdown.replace("\n\n", `\n\n${header}\n\n`)}`;
  const path = join(ROOT, "bench", "RESULTS.md");
  const results = existsSync(path) ? readFileSync(path, "utf8") : "";
  const at = results.indexOf("## Result cache");
  // The section runs to the next block written by another section (watch's, usage's: between markers) or the end.
  const ends = [WATCH_START, "<!-- usage -->"].map((marker) => results.indexOf(marker, at)).filter((i) => at >= 0 && i > at);
  const end = ends.length > 0 ? Math.min(...ends) : results.length;
  writeFileSync(path, at >= 0 ? `${results.slice(0, at)}${section}\n${results.slice(end)}` : `${results.trimEnd()}\n\n${section}`);
  log("wrote the result cache's section of bench/RESULTS.md");
  process.exit(0);
}

function markdown(rows, sweeps, edges) {
  const lines = [
    "# Benchmark results",
    "",
    `Generated by \`npm run bench${LARGE ? " -- --large" : ""}${QUICK ? " -- --quick" : ""}\` on ${new Date().toISOString().slice(0, 10)}: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}; seed ${SEED}, median of ${RUNS} alternating runs; load average ${STARTING_LOAD} when the run started, ${ENDING_LOAD()} at the end (other work on the machine slows every side, the parallel analysis most).`,
    "",
    "**raw**: reading the same files and nothing else (the physical limit). **baseline**: the fastest, on that input, of four parse-everything readers " +
      "in plain Node (bench/baseline.mjs: split lines and `JSON.parse` every line — per-line decode with async stream reads (`stream-line`) " +
      "or sync reads (`sync-line`), chunk decode + split (`sync-chunk`), latin1 for ASCII lines (`sync-latin1`)). Folders are analysed with one worker " +
      "thread beside the main thread (LOOPLENS_WORKERS=1) and with workers off. Targets: analyze ≥ 1.0× the baseline on every input, peak RSS ≤ 150 MB " +
      "with workers on, sweep of 20 configs ≤ 1.5× one analyze.",
    "",
    "| input | files | MB | lines | raw MB/s | baseline MB/s (which) | analyze MB/s | × baseline | × raw | × baseline, workers off | peak RSS (MB) | workers off RSS | baseline RSS |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.files} | ${fmt(r.mb)} | ${r.lines} | ${fmt(r.rawMBs)} | ${fmt(r.baselineMBs)} (${r.fastest}) | ${fmt(r.analyzeMBs)} | ${fmt(r.ratio, 2)} ${check(r.ratio >= 1)} | ${fmt(r.ofRaw, 3)} | ${fmt(r.serialRatio, 2)} | ${fmt(r.analyzeRssMb)} ${check(r.analyzeRssMb <= 150)} | ${fmt(r.serialRssMb)} | ${fmt(r.baselineRssMb)} |`,
    ),
    "",
    "Every parse-everything reader, MB/s (the fastest is bold):",
    "",
    `| input | ${BASELINES.join(" | ")} |`,
    `|---|${BASELINES.map(() => "---:").join("|")}|`,
    ...rows.map((r) => `| ${r.name} | ${BASELINES.map((m) => (m === r.fastest ? `**${fmt(r.baselines[m])}**` : fmt(r.baselines[m]))).join(" | ")} |`),
    "",
    "`--profile newest` beside the default profile (same files, same runs; target: at least 0.9× the default's MB/s):",
    "",
    "| input | default MB/s | newest MB/s | newest / default |",
    "|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.name} | ${fmt(r.analyzeMBs)} | ${fmt(r.newestMBs)} | ${fmt(r.newestVsDefault, 2)} ${check(r.newestVsDefault >= 0.9)} |`),
    "",
    "`looplens sweep` of 20 configs against one `looplens analyze` (both CLI runs, workers off):",
    "",
    "| sweep input | MB | one analyze (ms) | 20 configs (ms) | cost | sweep peak RSS (MB) |",
    "|---|---:|---:|---:|---:|---:|",
    ...sweeps.map((s) => `| ${s.name} | ${fmt(s.mb)} | ${fmt(s.analyzeMs)} | ${fmt(s.sweepMs)} | ${fmt(s.ratio, 2)}× ${check(s.ratio <= 1.5)} | ${fmt(s.sweepRssMb)} |`),
    "",
    ...(edges.length === 0
      ? []
      : [
          "Peak RSS on shapes where memory could grow with the input (bench/generateEdges.mjs, canonical events; one run each; target ≤ 150 MB):",
          "",
          "| input | MB | command | peak RSS (MB) | time (s) |",
          "|---|---:|---|---:|---:|",
          ...edges.map((e) => `| ${e.name} | ${fmt(e.mb)} | \`${e.command}\` | ${fmt(e.rssMb)} ${check(e.rssMb <= 150)} | ${fmt(e.seconds, 1)} |`),
          "",
        ]),
  ];
  return lines.join("\n");
}

/**
 * `--usage`: what reading model usage costs analyze (bench/usage.mjs), its section of
 * bench/RESULTS.md (between markers) replaced or added, the rest of the file left as it was.
 */
async function usageOnly() {
  const { usageSection, USAGE_SPECS, USAGE_START, USAGE_END } = await import("./usage.mjs");
  const measureWithCpu = (args, env) => {
    const cpuFile = join(OUT, `cpu-${process.pid}.txt`);
    rmSync(cpuFile, { force: true });
    const result = measure(args, { ...env, BENCH_CPU_FILE: cpuFile });
    return { ...result, cpuMs: Number(readFileSync(cpuFile, "utf8")) };
  };
  const specs = USAGE_SPECS(scale).filter((spec) => ONLY === undefined || spec.name.includes(ONLY));
  const { rows, markdown } = usageSection({ specs, dataset, measure: measureWithCpu, bin: BIN, runs: RUNS, log, median, fmt });
  writeFileSync(join(OUT, "usage-results.json"), JSON.stringify(rows, null, 2));
  const header =
    `## Reading usage\n\nGenerated by \`npm run bench -- --usage${QUICK ? " --quick" : ""}\` on ${new Date().toISOString().slice(0, 10)}: ${availableParallelism()} cores, Node ${process.version}; ` +
    `median of ${RUNS} alternating runs, workers off; load average ${STARTING_LOAD} when it started, ${ENDING_LOAD()} at the end (the machine is shared with other engineers' builds and tests: ` +
    "wall times are inflated and noisy, CPU time (user + system) is the steadier figure). `analyze --no-cache --format ndjson` (its output the same both ways) with usage read against `LOOPLENS_USAGE=off` " +
    "(no extraction, no turn events, no cost accounting). Target: reading usage costs ≤ 5% of analyze's time. Not in the figure: `--format json` writes three usage objects per run " +
    "(on the real state folder's 8,310 runs its document grows from 4.5 to 6.9 MB).";
  const block = `${USAGE_START}\n${header}\n\n${markdown}\n\n${USAGE_END}\n`;
  const path = join(ROOT, "bench", "RESULTS.md");
  const results = existsSync(path) ? readFileSync(path, "utf8") : "";
  const from = results.indexOf(USAGE_START);
  const to = results.indexOf(USAGE_END);
  writeFileSync(path, from >= 0 && to > from ? results.slice(0, from) + block + results.slice(to + USAGE_END.length + 1) : `${results.trimEnd()}\n\n${block}`);
  log("wrote the usage section of bench/RESULTS.md");
  process.exit(0);
}

const STARTING_LOAD = loadavg()[0].toFixed(1);
const ENDING_LOAD = () => loadavg()[0].toFixed(1);
mkdirSync(OUT, { recursive: true });
if (!existsSync(join(ROOT, "dist", "cli.js"))) throw new Error("dist/ is missing: run `npm run build` first (npm run bench does)");
if (flag("cache")) await cacheOnly();
if (flag("usage")) await usageOnly();
const started = performance.now();
if (WATCH_ONLY) {
  const watch = await watchSection();
  writeFileSync(join(OUT, "watch-results.json"), JSON.stringify(watch, null, 2));
  const results = join(ROOT, "bench", "RESULTS.md");
  writeFileSync(results, withWatchSection(existsSync(results) ? readFileSync(results, "utf8") : "# Benchmark results\n", watch));
  log(`--watch: wrote the watch section of bench/RESULTS.md (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(0);
}
const rows = DATASETS.map(benchDataset);
// With --large, the large state folder too: sweep's memory must not grow with the input (it replays
// each event under every config as it is read, holding no prepared events).
const SWEPT = ["real state folder", "canonical events folder", "real state folder, large"];
const sweeps = DATASETS.filter((spec) => SWEPT.includes(spec.name)).map(sweepCost);
const edges = LARGE ? EDGES.flatMap(edgeRows) : [];
const watch = ONLY === undefined ? await watchSection() : undefined;
writeFileSync(join(OUT, "results.json"), JSON.stringify({ rows, sweeps, edges, watch }, null, 2));
if (ONLY === undefined) writeFileSync(join(ROOT, "bench", "RESULTS.md"), withWatchSection(markdown(rows, sweeps, edges), watch));
writeFileSync(join(OUT, "results.json"), JSON.stringify({ rows, sweeps, edges }, null, 2));
// The result cache's section (`--cache`, run apart) is kept as it was.
// So is the usage section (`--usage`), between its markers.
const previous = existsSync(join(ROOT, "bench", "RESULTS.md")) ? readFileSync(join(ROOT, "bench", "RESULTS.md"), "utf8") : "";
const usageAt = previous.indexOf("<!-- usage -->");
const usageEnd = previous.indexOf("<!-- /usage -->") + "<!-- /usage -->".length + 1;
const usageKept = usageAt >= 0 && usageEnd > usageAt ? previous.slice(usageAt, usageEnd) : "";
const withoutUsage = usageKept === "" ? previous : previous.slice(0, usageAt) + previous.slice(usageEnd);
const kept = withoutUsage.includes("## Result cache") ? withoutUsage.split("## Result cache")[1] : undefined;
if (ONLY === undefined) writeFileSync(join(ROOT, "bench", "RESULTS.md"), `${markdown(rows, sweeps, edges)}${kept === undefined ? "" : `\n## Result cache${kept}`}${usageKept === "" ? "" : `\n${usageKept}`}`);
log(`${ONLY === undefined ? "wrote bench/RESULTS.md" : "--only: bench/RESULTS.md left as it was"} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
