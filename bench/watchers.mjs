// Which file watcher `looplens watch` uses (src/pipeline/watch/treeWatcher.ts), by measurement:
// `node bench/watchers.mjs [--files N]` measures, each in a child process of its own, over N files
// (default 5,000) in two shapes — nested (one folder per file) and a state directory's (10 folders):
//   - per-folder: one non-recursive `fs.watch` per folder, the folders walked by us (what looplens does);
//   - recursive: Node's `fs.watch(dir, { recursive: true })`;
//   - chokidar, when it is installed (`npm i --no-save chokidar`; not a dependency).
// For each: time to ready and its CPU, RSS once ready, idle CPU over 10 s, and the latency from an
// append to its event (p50/p99 over 200 appends). Prints a Markdown table.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const FILES = Number(argv[argv.indexOf("--files") + 1] || 5000);
const OUT = fileURLToPath(new URL("out/watchers", import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The child: watches `dir` one way, says "ready" with its figures, then echoes each event's file name. */
const CHILD = `
const { watch, readdirSync } = require("node:fs");
const { join } = require("node:path");
const [kind, dir] = process.argv.slice(1);
const cpu0 = process.cpuUsage();
const started = performance.now();
const told = (name) => name && process.stdout.write(String(name).split("/").pop() + "\\n");
const ready = () => {
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write("ready " + JSON.stringify({ ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: process.memoryUsage.rss() / 2 ** 20 }) + "\\n");
};
if (kind === "per-folder") {
  const walk = (folder) => {
    watch(folder, (_e, name) => told(name));
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) walk(join(folder, entry.name));
  };
  walk(dir);
  ready();
} else if (kind === "recursive") {
  watch(dir, { recursive: true }, (_e, name) => told(name));
  ready();
} else {
  import("chokidar").then(({ watch: chokidar }) => chokidar(dir, { ignoreInitial: true }).on("all", (_e, path) => told(path)).on("ready", ready));
}
`;

function tree(shape) {
  const dir = join(OUT, shape);
  rmSync(dir, { recursive: true, force: true });
  const files = [];
  for (let i = 0; i < FILES; i++) {
    const folder = shape === "nested" ? join(dir, `d${i % 50}`, `s${i}`) : join(dir, `agent${i % 10}`, "sessions");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `f${i}.jsonl`);
    writeFileSync(file, "{}\n");
    files.push(file);
  }
  return { dir, files };
}

const ticks = (pid) => import("node:fs").then(({ readFileSync }) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
});

async function measure(kind, { dir, files }) {
  const child = spawn(process.execPath, ["-e", CHILD, kind, dir], { stdio: ["ignore", "pipe", "pipe"], cwd: fileURLToPath(new URL("..", import.meta.url)) });
  let partial = "";
  const waiting = new Map();
  let readyInfo;
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) {
      if (line.startsWith("ready ")) readyInfo = JSON.parse(line.slice(6));
      else waiting.get(line)?.(performance.now());
    }
  });
  let failed = "";
  child.stderr.on("data", (chunk) => (failed += chunk));
  for (const end = Date.now() + 120_000; !readyInfo && Date.now() < end && child.exitCode === null; ) await sleep(20);
  if (!readyInfo) {
    child.kill();
    return { kind, error: failed.split("\n")[0] || "not ready" };
  }
  const t0 = await ticks(child.pid);
  await sleep(10_000);
  const idle = (await ticks(child.pid)) - t0; // 10 ms ticks over 10 s: percent = ticks / 10
  const latencies = [];
  for (let n = 0; n < 200; n++) {
    const file = files[(n * 7919) % files.length];
    const name = file.split("/").pop();
    const seen = new Promise((resolve) => waiting.set(name, resolve));
    const start = performance.now();
    appendFileSync(file, "{}\n");
    const at = await Promise.race([seen, sleep(2000).then(() => undefined)]);
    waiting.delete(name);
    latencies.push(at === undefined ? Infinity : at - start);
    await sleep(5);
  }
  child.kill();
  latencies.sort((a, b) => a - b);
  return { kind, ...readyInfo, idlePercent: idle / 10, p50: latencies[99], p99: latencies[197] };
}

const chokidarInstalled = await import("chokidar").then(() => true, () => false);
const rows = [];
for (const shape of ["nested", "state"]) {
  const made = tree(shape);
  for (const kind of ["per-folder", "recursive", ...(chokidarInstalled ? ["chokidar"] : [])]) rows.push({ shape, ...(await measure(kind, made)) });
  rmSync(made.dir, { recursive: true, force: true });
}
const f = (n, d = 0) => (n === undefined ? "–" : Number(n).toFixed(d));
console.log(`${FILES} files, Node ${process.version}, load average ${(await import("node:os")).loadavg()[0].toFixed(1)}${chokidarInstalled ? "" : " (chokidar not installed: `npm i --no-save chokidar` to include it)"}\n`);
console.log("| shape | watcher | ready (ms) | ready CPU (ms) | RSS ready (MB) | idle CPU | append → event p50 / p99 (ms) |\n|---|---|---:|---:|---:|---:|---|");
for (const r of rows) console.log(r.error ? `| ${r.shape} | ${r.kind} | ${r.error} | | | | |` : `| ${r.shape} | ${r.kind} | ${f(r.ms)} | ${f(r.cpuMs)} | ${f(r.rssMb)} | ${f(r.idlePercent, 2)}% | ${f(r.p50, 1)} / ${f(r.p99, 1)} |`);
