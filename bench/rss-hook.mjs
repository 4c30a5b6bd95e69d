// Preloaded with `node --import` into every measured process: on exit, writes the process's peak
// resident set size (KB, worker threads included) to $BENCH_RSS_FILE (and its CPU time to $BENCH_CPU_FILE).
//
// Linux: VmHWM of /proc/self/status, the high-water mark of this process's own memory since exec.
// Not `process.resourceUsage().maxRSS`: getrusage keeps the larger of that and the RSS of the
// process it was forked from, so every run after one with a large report (which the bench process
// held as a buffer) counted the bench's own ~1 GB (a sweep of 165 MB "peaked at 1105 MB").
import { readFileSync, writeFileSync } from "node:fs";

function peakKb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]);
  } catch {
    // not Linux: getrusage below
  }
  return process.resourceUsage().maxRSS;
}

const target = process.env.BENCH_RSS_FILE;
if (target) process.on("exit", () => writeFileSync(target, String(peakKb())));

// And, when asked ($BENCH_CPU_FILE), the CPU time of the process (user + system, every thread), in ms.
const cpuTarget = process.env.BENCH_CPU_FILE;
if (cpuTarget)
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(cpuTarget, String((user + system) / 1000));
  });
