// The watch section of the bench (`npm run bench -- --watch` runs it alone): `looplens watch
// --format ndjson` as a child process beside writers, measured against watch.md §1's targets:
//   - latency: from a line's append to its finding on the watch's stdout, p99 over 1,000 appends
//     (≤ 250 ms): 10 live OpenClaw transcripts, each a run of one call repeated (every call from the
//     11th on is a finding), appended a call at a time, round robin, each answered by its result once
//     its finding came;
//   - idle CPU over 60 s watching a real-shaped state folder of 5,000 files (< 1%), from
//     /proc/<pid>/stat, the slow rescan (every 60 s) included;
//   - peak RSS watching those 5,000 sessions (≤ 150 MB), existing content read first: VmHWM;
//   - 50 MB/s of appends: 20 live transcripts appended together at 50 MB/s for 10 s (lines of ~10 KB
//     tool results that repeat nothing, and one looping run per transcript whose calls are findings):
//     the rate really written (and the writers' own CPU: near a full core, they set the rate), every
//     expected finding printed (none lost, none twice), how long each took after its call was written,
//     how long after the writers stopped the last one came, and the watch's CPU meanwhile.
import { spawn } from "node:child_process";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, writevSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./generate.mjs";
import { realFilePath, realFileSizes, realSessionLines, textMaker } from "./generateReal.mjs";
import { watchGrowthRow } from "./watchGrowth.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** `looplens watch` as a child, its stdout lines handed to `onLine`, its peak RSS read on exit. */
export function startWatch({ bin, rssHook, out }, args) {
  const rssFile = join(out, `watch-rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  // BENCH_WATCH_NODE_ARGS: options for the watch's node (`--cpu-prof --cpu-prof-dir=DIR` profiles it).
  const nodeArgs = (process.env.BENCH_WATCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", rssHook, bin, "watch", "--format", "ndjson", ...args], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const listeners = new Set();
  let partial = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    const at = performance.now();
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) for (const listen of listeners) listen(line, at);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("close", resolve));
  const ready = new Promise((resolve, reject) => {
    listeners.add((line) => line.startsWith('{"type":"ready"') && resolve(JSON.parse(line)));
    void exited.then(() => reject(new Error(`watch exited early: ${stderr}`)));
  });
  return {
    child,
    ready,
    onLine: (listen) => listeners.add(listen),
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    async stop() {
      child.kill("SIGINT");
      await exited;
      const rssMb = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) / 1024 : undefined;
      rmSync(rssFile, { force: true });
      return rssMb;
    },
  };
}

/** An OpenClaw transcript writer: entries chained by parentId, one JSON line each. */
function transcript(sessionId) {
  let id = 0;
  let parent = null;
  const entry = (body) => {
    const line = { ...body, id: (++id).toString(16).padStart(8, "0"), parentId: parent, timestamp: new Date(Date.UTC(2026, 4, 1, 9) + id * 1000).toISOString() };
    parent = line.id;
    return `${JSON.stringify(line)}\n`;
  };
  return {
    header: () => `${JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-05-01T09:00:00.000Z", cwd: "/home/u/ws" })}\n`,
    user: (text) => entry({ type: "message", message: { role: "user", content: [{ type: "text", text }] } }),
    call: (callId, name, args) => entry({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: callId, name, arguments: args }] } }),
    result: (callId, name, text) =>
      entry({ type: "message", message: { role: "toolResult", toolCallId: callId, toolName: name, content: [{ type: "text", text }], details: { status: "failed", exitCode: 1, aggregated: text }, isError: false } }),
    /** The line the next entry goes on (the header is line 1). */
    get nextLine() {
      return id + 2;
    },
  };
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Latency from append to printed finding over 1,000 appends. */
export async function watchLatency(ctx, { appends = 1000, sessions = 10 } = {}) {
  const dir = join(ctx.out, "watch-latency");
  rmSync(dir, { recursive: true, force: true });
  const folder = join(dir, "agents", "main", "sessions");
  mkdirSync(folder, { recursive: true });
  const writers = Array.from({ length: sessions }, (_, i) => {
    const id = `lat-${String(i).padStart(4, "0")}`;
    const t = transcript(id);
    const file = join(folder, `${id}.jsonl`);
    // Existing content: the run's first ten calls (no finding yet), read before the watch is ready.
    let text = t.header() + t.user("run the tests until they pass");
    for (let c = 0; c < 10; c++) text += t.call(`c${c}`, "exec", { command: "npm test" }) + t.result(`c${c}`, "exec", "1 failed");
    writeFileSync(file, text);
    return { t, file, calls: 10 };
  });
  const watch = startWatch(ctx, [dir]);
  await watch.ready;
  const pending = new Map();
  watch.onLine((line, at) => {
    if (!line.startsWith('{"run"')) return;
    const { file, line: lineNo } = JSON.parse(line);
    const waiting = pending.get(`${file}:${lineNo}`);
    if (waiting) waiting(at);
  });
  const latencies = [];
  for (let n = 0; n < appends; n++) {
    const w = writers[n % sessions];
    const callId = `c${w.calls++}`;
    const lineNo = w.t.nextLine;
    const text = w.t.call(callId, "exec", { command: "npm test" });
    const printed = new Promise((resolve) => pending.set(`${w.file}:${lineNo}`, resolve));
    const start = performance.now();
    appendFileSync(w.file, text);
    const at = await Promise.race([printed, sleep(10_000).then(() => undefined)]);
    pending.delete(`${w.file}:${lineNo}`);
    latencies.push(at === undefined ? Infinity : at - start);
    appendFileSync(w.file, w.t.result(callId, "exec", "1 failed"));
    await sleep(n % 7); // writers are not in lockstep
  }
  await watch.stop();
  rmSync(dir, { recursive: true, force: true });
  const sorted = [...latencies].sort((a, b) => a - b);
  return { appends, sessions, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1), missed: latencies.filter((l) => l === Infinity).length };
}

/** A real-shaped state folder of `count` session files (bench/generateReal.mjs), cached. */
function stateFolder(ctx, count, seed) {
  const dir = join(ctx.out, "inputs", `watch-state-${count}-seed${seed}-v1`);
  const done = join(dir, ".done");
  if (existsSync(done)) return { dir, ...JSON.parse(readFileSync(done, "utf8")) };
  rmSync(dir, { recursive: true, force: true });
  const r = rng(seed);
  const corpusRng = { ...rng(seed + 1), seed };
  // ~80 KB a file on average (a 10 MB one in 400): 120 KB a file asked for gives `count` of them.
  const sizes = realFileSizes(r, count * 0.12).slice(0, count);
  let bytes = 0;
  for (const [i, size] of sizes.entries()) {
    const { path, sessionId } = realFilePath(dir, r, i);
    const fd = openSync(path, "w");
    // The generator stops once `progress.bytes` reaches the file's size: the writer counts them.
    const progress = { bytes: 0 };
    const lines = [];
    for (const line of realSessionLines(textMaker(corpusRng, rng(seed * 7919 + i)), rng(seed * 7919 + i + 1), sessionId, size, progress)) {
      const text = `${JSON.stringify(line)}\n`;
      progress.bytes += text.length;
      lines.push(text);
    }
    bytes += writeSync(fd, lines.join(""));
    closeSync(fd);
  }
  writeFileSync(done, JSON.stringify({ files: sizes.length, bytes }));
  return { dir, files: sizes.length, bytes };
}

/** Idle CPU over `seconds` and peak RSS, watching a real-shaped state folder of 5,000 files. */
export async function watchIdle(ctx, { files = 5000, seconds = 60, seed = 42 } = {}) {
  const state = stateFolder(ctx, files, seed);
  const started = performance.now();
  const watch = startWatch(ctx, [join(state.dir, "agents")]);
  const ready = await watch.ready;
  const readyMs = performance.now() - started;
  const cpu0 = watch.cpuSeconds();
  const wall0 = performance.now();
  await sleep(seconds * 1000);
  const idleCpu = ((watch.cpuSeconds() - cpu0) / ((performance.now() - wall0) / 1000)) * 100;
  const rssMb = await watch.stop();
  return { files: state.files, mb: state.bytes / 1e6, readyMs, findings: ready.findings, seconds, idleCpu, rssMb };
}

/**
 * Appends at `mbPerSecond` across `sessions` transcripts for `seconds`; how the watch keeps up. Each
 * writer appends to two live transcripts: the bulk (reads of distinct files with ~10 KB results: no
 * finding), and every 200 ms a call of a looping run (a finding from its 11th call on).
 */
export async function watchThroughput(ctx, { mbPerSecond = 50, sessions = 20, seconds = 10 } = {}) {
  const dir = join(ctx.out, "watch-throughput");
  rmSync(dir, { recursive: true, force: true });
  const folder = join(dir, "agents", "main", "sessions");
  mkdirSync(folder, { recursive: true });
  const filler = Buffer.from("x".repeat(10_000));
  const open = (id, prompt) => {
    const t = transcript(id);
    const file = join(folder, `${id}.jsonl`);
    writeFileSync(file, t.header() + t.user(prompt));
    return { t, file, fd: openSync(file, "a"), n: 0 };
  };
  /**
   * A bulk step (a read, its ~20 KB result: `${n} ${filler}` as its text and again in its details), as
   * bytes in pieces: the filler is encoded once, not for every step. Encoding and joining 20 KB
   * strings took most of the writers' CPU (a profile: ~20 ms per MB), which on a loaded machine capped
   * the rate they reached (27–42 MB/s at load 9).
   */
  const MARK = "@@filler@@";
  const bulkStep = (bulk) => {
    const callId = `r${bulk.n++}`;
    const [head, middle, tail] = (bulk.t.call(callId, "read", { path: `src/file-${bulk.n}.ts` }) + bulk.t.result(callId, "read", `${bulk.n} ${MARK}`)).split(MARK);
    return [Buffer.from(head), filler, Buffer.from(middle), filler, Buffer.from(tail)];
  };
  const writeAll = (fd, buffers) => {
    for (let at = 0; at < buffers.length; at += 1000) writevSync(fd, buffers.slice(at, at + 1000));
  };
  const writers = Array.from({ length: sessions }, (_, i) => ({ bulk: open(`tp-bulk-${i}`, "read everything"), loop: open(`tp-loop-${i}`, "run the tests") }));
  const watch = startWatch(ctx, [dir]);
  await watch.ready;
  let printed = 0;
  let lastAt = 0;
  let twice = 0;
  const seen = new Set();
  /** When each looping call was written (by file and line), and how long its finding took. */
  const writtenAt = new Map();
  const latencies = [];
  watch.onLine((line, at) => {
    if (!line.startsWith('{"run"')) return;
    const { file, line: lineNo, call } = JSON.parse(line);
    const key = `${file}:${lineNo}:${call}`;
    if (seen.has(key)) twice++;
    seen.add(key);
    printed++;
    lastAt = at;
    const when = writtenAt.get(`${file}:${lineNo}`);
    if (when !== undefined) latencies.push(at - when);
  });
  const cpu0 = watch.cpuSeconds();
  const writerCpu0 = process.cpuUsage();
  const start = performance.now();
  let written = 0;
  let expected = 0;
  for (let tick = 0; performance.now() - start < seconds * 1000; tick++) {
    // Every 20 ms (a tick that took longer is caught up on the next).
    const share = ((performance.now() - start) / 1000) * mbPerSecond * 1e6 - written;
    for (const { bulk, loop } of writers) {
      const parts = [];
      for (let bytes = 0; bytes < share / sessions; ) {
        const step = bulkStep(bulk);
        const length = step.reduce((sum, part) => sum + part.length, 0);
        parts.push(...step);
        bytes += length;
        written += length;
      }
      writeAll(bulk.fd, parts);
      // The looping run's calls, one every 200 ms of the writing (caught up as the bulk is).
      while (loop.n < Math.floor((performance.now() - start) / 200) + 1) {
        const callId = `l${loop.n++}`;
        const lineNo = loop.t.nextLine;
        const step = loop.t.call(callId, "exec", { command: "npm test" }) + loop.t.result(callId, "exec", "1 failed");
        writeSync(loop.fd, step);
        writtenAt.set(`${loop.file}:${lineNo}`, performance.now());
        written += step.length;
        if (loop.n > 10) expected++;
      }
    }
    await sleep(Math.max(0, start + (tick + 1) * 20 - performance.now()));
  }
  const writeSeconds = (performance.now() - start) / 1000;
  for (const { bulk, loop } of writers) for (const { fd } of [bulk, loop]) closeSync(fd);
  const writerCpu = process.cpuUsage(writerCpu0);
  // The writers' own share of a core: near 100%, they (not the watch) set the rate reached.
  const writerCpuPercent = ((writerCpu.user + writerCpu.system) / 1e6 / writeSeconds) * 100;
  const stopped = performance.now();
  for (const end = stopped + 120_000; printed < expected && performance.now() < end; ) await sleep(50);
  const caughtUpMs = printed >= expected ? Math.max(0, lastAt - stopped) : undefined;
  const cpu = watch.cpuSeconds() - cpu0;
  const cpuPercent = (cpu / ((performance.now() - start) / 1000)) * 100;
  const rssMb = await watch.stop();
  rmSync(dir, { recursive: true, force: true });
  const sorted = latencies.sort((a, b) => a - b);
  const latency = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
  return { sessions, mb: written / 1e6, mbPerSecond: written / 1e6 / writeSeconds, writerCpuPercent, expected, printed, twice, caughtUpMs, latency, cpuPercent, rssMb };
}

/** The watch section of bench/RESULTS.md. */
export function watchMarkdown({ latency, idle, throughput, growth }, fmt, check) {
  return [
    "`looplens watch --format ndjson` beside writers (bench/watch.mjs; `npm run bench -- --watch` runs this section alone):",
    "",
    "| measure | result | target |",
    "|---|---:|---|",
    `| append → printed finding, p99 over ${latency.appends} appends (${latency.sessions} live transcripts) | ${fmt(latency.p99)} ms ${check(latency.p99 <= 250 && latency.missed === 0)} (p50 ${fmt(latency.p50)}, max ${fmt(latency.max)}, ${latency.missed} missed) | ≤ 250 ms |`,
    `| idle CPU over ${idle.seconds} s watching ${idle.files} files (${fmt(idle.mb)} MB, ready in ${fmt(idle.readyMs / 1000, 1)} s) | ${fmt(idle.idleCpu, 2)}% ${check(idle.idleCpu < 1)} | < 1% |`,
    `| peak RSS watching ${idle.files} sessions (existing content read first: ${idle.findings} findings) | ${fmt(idle.rssMb)} MB ${check(idle.rssMb <= 150)} | ≤ 150 MB |`,
    `| appends at ${fmt(throughput.mbPerSecond, 1)} MB/s across ${2 * throughput.sessions} transcripts for 10 s (${fmt(throughput.mb)} MB; the writers' own CPU ${fmt(throughput.writerCpuPercent)}%) | ${throughput.printed}/${throughput.expected} findings, ${throughput.twice} twice ${check(throughput.printed === throughput.expected && throughput.twice === 0)}; append → finding p50 ${fmt(throughput.latency.p50 / 1000, 1)} s, p99 ${fmt(throughput.latency.p99 / 1000, 1)} s; last one ${throughput.caughtUpMs === undefined ? "never" : `${fmt(throughput.caughtUpMs / 1000, 1)} s`} after the writers stopped; CPU ${fmt(throughput.cpuPercent)}%, peak RSS ${fmt(throughput.rssMb)} MB | keeps up (nothing lost) |`,
    watchGrowthRow(growth, fmt, check),
    "",
    `Load average (1 min; 2 cores) at the start → end of each measure: latency ${fmt(latency.load[0], 1)} → ${fmt(latency.load[1], 1)}, idle ${fmt(idle.load[0], 1)} → ${fmt(idle.load[1], 1)}, throughput ${fmt(throughput.load[0], 1)} → ${fmt(throughput.load[1], 1)}, one file grown ${fmt(growth.load[0], 1)} → ${fmt(growth.load[1], 1)}.`,
    "",
  ].join("\n");
}
