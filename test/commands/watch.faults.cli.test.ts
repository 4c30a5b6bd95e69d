/**
 * `looplens watch` under the faults of watch.md §1 that watch.cli.test.ts does not reach: a burst of
 * thousands of new files (past the event count after which the watch looks again: treeWatcher.ts),
 * a file deleted while it is being read, and a line far over the line limit still being written.
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isReady, jsonLines, killWatchChildren, sleep, startWatch, watchFolder, type WatchChild } from "../helpers/watchChild.js";

afterEach(killWatchChildren);

const GENERIC_REPEAT = readFileSync("fixtures/generic-repeat.jsonl", "utf8");
const PING_PONG = readFileSync("fixtures/ping-pong.jsonl", "utf8");
const findingLines = (lines: readonly string[]) => jsonLines(lines).filter((line) => line.type === undefined);

/** Whether the watch process has `file` open now (Linux: its /proc/<pid>/fd links). */
function hasOpen(watch: WatchChild, file: string): boolean {
  const fds = `/proc/${watch.process.pid}/fd`;
  try {
    return readdirSync(fds).some((fd) => {
      try {
        return readlinkSync(join(fds, fd)) === file;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false;
  }
}

/** The watch's peak resident set (MB), from /proc. */
const peakRssMb = (watch: WatchChild) => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${watch.process.pid}/status`, "utf8"))![1]) / 1024;

describe("watch: faults", () => {
  it("a burst of 2,000 new files in new folders, written at once: every one read, none twice", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    // generic-repeat.jsonl: 2 findings; its run named after the file, to tell them apart.
    for (let i = 0; i < 2000; i++) {
      const dir = join(root, `p${i % 40}`);
      if (i < 40) mkdirSync(dir);
      writeFileSync(join(dir, `s${i}.jsonl`), GENERIC_REPEAT.replaceAll("exec-retry", `run-${i}`));
    }
    await watch.waitUntil(() => findingLines(watch.lines).length >= 4000, 90_000);
    await sleep(500);
    const printed = findingLines(watch.lines);
    expect(printed).toHaveLength(4000);
    expect(new Set(printed.map((finding) => finding.run)).size).toBe(2000);
    expect(new Set(printed.map((finding) => `${finding.file}:${finding.line}`)).size).toBe(4000);
  }, 120_000);

  it("a file deleted while it is read: what was printed stands, said once, no read error; the watch goes on", async () => {
    const root = watchFolder();
    const file = join(root, "s.jsonl");
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    writeFileSync(file, PING_PONG);
    await watch.waitUntil(() => findingLines(watch.lines).length === 11);
    // Then ~40 MB more (reads of distinct files: no finding), deleted as soon as the watch has it open again.
    const pad = "x".repeat(4000);
    const lines = Array.from({ length: 10_000 }, (_, i) => `${JSON.stringify({ type: "tool_call", run: "other", id: `x${i}`, tool: "read", args: { path: `f${i}`, pad } })}\n`);
    appendFileSync(file, lines.join(""));
    // Deleted while the watch has it open when that is seen (it nearly always is); on a loaded machine
    // the read may be over before the first look, and then the file is deleted after it: what is
    // checked below holds either way (the runs end with what was read, said once, no read error).
    const deadline = Date.now() + 5_000;
    while (!hasOpen(watch, file) && Date.now() < deadline) await sleep(1);
    rmSync(file);
    writeFileSync(join(root, "next.jsonl"), PING_PONG.replaceAll("pingpong-1", "next-run"));
    await watch.waitFor((text) => text.includes("next-run") && text.includes('"level":"critical"'), 30_000);
    expect(findingLines(watch.lines).filter((finding) => finding.file === file)).toHaveLength(11);
    expect(watch.stderr().match(/s\.jsonl is gone: its runs end with what was read of it/g)).toHaveLength(1);
    expect(watch.stderr()).not.toMatch(/cannot read|internal error/);
  }, 60_000);

  it("a line far over the limit, written in pieces: skipped with one diagnostic, the watch's memory bounded", async () => {
    const root = watchFolder();
    const file = join(root, "s.jsonl");
    const watch = startWatch([root, "-f", "ndjson", "--max-line-bytes", "1000000"]);
    await watch.waitFor(isReady);
    writeFileSync(file, `{"type":"tool_call","run":"r","id":"x","tool":"read","args":{"pad":"`);
    // 200 MB of one line, appended while the watch reads the file again and again.
    const piece = "x".repeat(10 * 1024 * 1024);
    for (let i = 0; i < 20; i++) {
      appendFileSync(file, piece);
      await sleep(20);
    }
    appendFileSync(file, `"}}\n${PING_PONG}`);
    await watch.waitFor((text) => text.includes('"level":"critical"'), 60_000);
    expect(watch.stderr().match(/s\.jsonl:1: line too long/g)).toHaveLength(1);
    // The line is never held: far less than its 200 MB (a watch of one small file peaks near 60 MB).
    expect(peakRssMb(watch)).toBeLessThan(150);
  }, 90_000);
});
