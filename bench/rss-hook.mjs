// Preloaded with `node --import` into every measured process: on exit, writes the process's peak
// resident set size (KB, worker threads included) to $BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const target = process.env.BENCH_RSS_FILE;
if (target) process.on("exit", () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
