/**
 * `looplens watch` as a user runs it (a child process beside files being written): what it prints
 * for new files and lines, partial lines, truncation, deletion, a Gateway log's next day, polling,
 * `--from-start`, `--exit-on`, and Ctrl-C.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { isReady, jsonLines, killWatchChildren, sleep, startWatch, watchFolder } from "../helpers/watchChild.js";

afterEach(killWatchChildren);

const PING_PONG = readFileSync("fixtures/ping-pong.jsonl", "utf8");
const POLL_LOOP = readFileSync("fixtures/poll-loop.jsonl", "utf8");
const TRANSCRIPT = readFileSync("fixtures/openclaw/agents/main/sessions/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl", "utf8");
const findingLines = (lines: readonly string[]) => jsonLines(lines).filter((line) => line.type === undefined);
const isFinding = (line: string) => line.startsWith('{"run"');

describe("watch: what it follows", () => {
  it("reads existing content silently, then prints each finding of lines appended, with observedAt", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "old.jsonl"), PING_PONG);
    const watch = startWatch([root, "-f", "ndjson"]);
    const ready = JSON.parse(await watch.waitFor(isReady));
    expect(ready.findings).toBe(11);
    appendFileSync(join(root, "new.jsonl"), POLL_LOOP);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    await sleep(300);
    const printed = findingLines(watch.lines);
    expect(printed.every((finding) => String(finding.file).endsWith("new.jsonl"))).toBe(true);
    expect(printed).toHaveLength(12);
    expect(Date.parse(String(printed[0]!.observedAt))).toBeGreaterThan(Date.now() - 60_000);
    expect(jsonLines(watch.lines)[0]).toMatchObject({ type: "watching", files: 1, mode: "inotify" });
  });

  it("--from-start prints the findings of existing content too", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "old.jsonl"), PING_PONG);
    const watch = startWatch([root, "-f", "ndjson", "--from-start"]);
    await watch.waitFor(isReady);
    expect(findingLines(watch.lines)).toHaveLength(11);
  });

  it("holds a line until its newline: half a line prints nothing, its end prints the finding", async () => {
    const root = watchFolder();
    const file = join(root, "s.jsonl");
    // poll-loop.jsonl: its first block is the call on line 42 (the 21st poll), after a warning on line 40.
    const lines = POLL_LOOP.split("\n");
    writeFileSync(file, "");
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    appendFileSync(file, `${lines.slice(0, 41).join("\n")}\n`);
    await watch.waitFor((line) => line.includes('"line":40'));
    const cut = lines[41]!;
    appendFileSync(file, cut.slice(0, cut.length - 5));
    await sleep(400);
    expect(watch.lines.some((line) => line.includes('"level":"critical"'))).toBe(false);
    appendFileSync(file, `${cut.slice(cut.length - 5)}\n`);
    expect(JSON.parse(await watch.waitFor((line) => line.includes('"level":"critical"')))).toMatchObject({ line: 42, call: 21 });
    expect(watch.stderr()).not.toMatch(/truncated|not valid JSON/);
  });

  it("follows new files in new folders, a burst of them included", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    for (let i = 0; i < 300; i++) {
      const dir = join(root, `p${i % 30}`, `d${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `s${i}.jsonl`), PING_PONG.replaceAll("pingpong-1", `run-${i}`));
    }
    await watch.waitUntil(() => watch.lines.filter(isFinding).length === 300 * 11, 30_000);
    expect(new Set(findingLines(watch.lines).map((finding) => finding.run)).size).toBe(300);
  }, 40_000);

  it("a truncated file is read again from its start, said once; what was printed stands", async () => {
    const root = watchFolder();
    const file = join(root, "s.jsonl");
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    writeFileSync(file, PING_PONG);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    truncateSync(file, 0);
    appendFileSync(file, POLL_LOOP);
    await watch.waitFor((line) => line.includes('"tool":"command_status"') && line.includes('"call":22'));
    await sleep(300);
    // Emptied and written again: seen as cut short, or (when both happened between two looks) as rewritten.
    expect(watch.stderr().match(/was (truncated|rewritten): read again from its start/g)).toHaveLength(1);
    const printed = findingLines(watch.lines);
    expect(printed.filter((finding) => finding.tool === "command_status")).toHaveLength(12);
    expect(printed.length).toBe(23);
  });

  it("a deleted file's runs end with what was read; the watch goes on", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    writeFileSync(join(root, "a.jsonl"), PING_PONG);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    rmSync(join(root, "a.jsonl"));
    await sleep(200);
    writeFileSync(join(root, "b.jsonl"), POLL_LOOP);
    await watch.waitFor((line) => line.includes("b.jsonl") && line.includes('"level":"critical"'));
    expect(watch.stderr()).toMatch(/a\.jsonl is gone: its runs end with what was read of it/);
    expect(watch.stderr()).not.toMatch(/cannot read/);
  });

  it("a session's next life started at once, repeating the archived life's entries (same ids): printed once, as analyze replays them", async () => {
    const root = watchFolder();
    const sessions = join(root, "agents", "main", "sessions");
    mkdirSync(sessions, { recursive: true });
    const live = join(sessions, "7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl");
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    writeFileSync(live, TRANSCRIPT);
    await watch.waitUntil(() => findingLines(watch.lines).length === 12);
    // The runtime archives the live transcript and starts the next one in the same instant.
    renameSync(live, `${live}.reset.2026-05-01T12-00-00.000Z`);
    writeFileSync(live, TRANSCRIPT);
    await watch.waitFor((line) => line.includes('"type":"file_renamed"'));
    appendFileSync(join(root, "marker.jsonl"), PING_PONG);
    await watch.waitFor((line) => line.includes("marker.jsonl") && line.includes('"level":"critical"'));
    const analyzed = runCli(["analyze", root, "-f", "ndjson"]).stdout.trim().split("\n");
    expect(analyzed).toHaveLength(12 + 11);
    expect(findingLines(watch.lines)).toHaveLength(12 + 11);
    // Those printed before the rename are the archive's now; none is printed for the new life.
    const renamed = watch.lines.findIndex((line) => line.includes('"type":"file_renamed"'));
    expect(findingLines(watch.lines.slice(renamed)).filter((finding) => finding.file === live)).toEqual([]);
  });

  it("a Gateway log named as a file is followed into the next day's file", async () => {
    const root = watchFolder();
    const today = join(root, "openclaw-2026-05-02.log");
    writeFileSync(today, "");
    const watch = startWatch([today, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    appendFileSync(today, readFileSync("fixtures/gateway/openclaw-2026-05-02.log"));
    await watch.waitFor((line) => line.includes("openclaw-2026-05-02.log") && isFinding(line));
    writeFileSync(join(root, "unrelated.log"), readFileSync("fixtures/gateway/openclaw-2026-05-03.log"));
    writeFileSync(join(root, "openclaw-2026-05-03.log"), readFileSync("fixtures/gateway/openclaw-2026-05-03.log"));
    await watch.waitFor((line) => line.includes("openclaw-2026-05-03.log") && isFinding(line));
    await sleep(300);
    expect(findingLines(watch.lines).every((finding) => finding.source === "log" && !String(finding.file).includes("unrelated"))).toBe(true);
  });

  it("--poll MS polls instead of inotify, and still sees appends and new files", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson", "--poll", "100"]);
    expect(JSON.parse(await watch.waitFor((line) => line.includes('"type":"watching"'))).mode).toBe("polling");
    await watch.waitFor(isReady);
    writeFileSync(join(root, "s.jsonl"), PING_PONG);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    expect(watch.stderr()).toMatch(/watching .*polling/);
  });

  it("a line over the line limit is skipped with a diagnostic, and the rest is read", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson", "--max-line-bytes", "2000"]);
    await watch.waitFor(isReady);
    writeFileSync(join(root, "s.jsonl"), `{"type":"tool_call","run":"r","id":"x","tool":"read","args":{"pad":"${"x".repeat(5000)}"}}\n${PING_PONG}`);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    expect(watch.stderr()).toMatch(/s\.jsonl:1: line too long \(5\d+ bytes, over the 2000-byte limit/);
  });

  it("a file that cannot be read is said once; the other files are followed", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "a.jsonl"), "");
    // Reading /proc/self/mem from its start fails (EIO) even for root, whom file modes do not stop.
    const unreadable = join(root, "b.jsonl");
    symlinkSync("/proc/self/mem", unreadable);
    const watch = startWatch([join(root, "a.jsonl"), unreadable, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    for (const half of [PING_PONG.slice(0, 400), PING_PONG.slice(400)]) {
      appendFileSync(join(root, "a.jsonl"), half);
      await sleep(300);
    }
    await watch.waitFor((line) => line.includes('"level":"critical"'));
    expect(watch.stderr().match(/cannot read .*b\.jsonl/g)).toHaveLength(1);
  });
});

describe("watch: stopping", () => {
  it("Ctrl-C prints a one-screen summary and exits 0", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "a.jsonl"), POLL_LOOP);
    const watch = startWatch([root]);
    await watch.waitFor((line) => line.includes("existing content read"));
    appendFileSync(join(root, "b.jsonl"), PING_PONG);
    await watch.waitFor((line) => line.includes("BLOCK"));
    const { code } = await watch.stop("SIGINT");
    expect(code).toBe(0);
    const text = watch.lines.join("\n");
    expect(text).toMatch(/looplens watch: \d+s, 2 files, 2 runs/);
    expect(text).toMatch(/findings: 23 \(20 warnings, 3 blocks\); printed while watching: 11 \(10 warnings, 1 block\)/);
    expect(text).toMatch(/worst runs \(2 of 2 with findings\):\n {2}pingpong-1 \(main\): block at call 20, 11 findings, 20 calls\n {2}poll-1 \(main\): block at call 21/);
    expect(watch.lines.length).toBeLessThan(40);
  });

  it("SIGTERM does the same; in ndjson the summary is the last line", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "a.jsonl"), PING_PONG);
    const watch = startWatch([root, "-f", "ndjson"]);
    await watch.waitFor(isReady);
    const { code } = await watch.stop("SIGTERM");
    expect(code).toBe(0);
    expect(jsonLines(watch.lines).at(-1)).toMatchObject({ type: "summary", files: 1, runs: 1, findings: { warning: 10, critical: 1, total: 11 }, printed: { total: 0 } });
  });

  it("--exit-on critical exits 1 at the first critical finding, printing nothing after it", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson", "--exit-on", "critical"]);
    await watch.waitFor(isReady);
    writeFileSync(join(root, "a.jsonl"), POLL_LOOP);
    const { code } = await watch.exited();
    expect(code).toBe(1);
    const printed = findingLines(watch.lines);
    expect(printed.at(-1)).toMatchObject({ level: "critical", call: 21 });
    expect(printed.filter((finding) => finding.level === "critical")).toHaveLength(1);
    expect(watch.stderr()).toMatch(/stopped at the first finding at or above critical/);
  });

  it("--exit-on warning does not fire on the silent replay of existing content", async () => {
    const root = watchFolder();
    writeFileSync(join(root, "a.jsonl"), PING_PONG);
    const watch = startWatch([root, "-f", "ndjson", "--exit-on", "warning"]);
    await watch.waitFor(isReady);
    await sleep(300);
    expect(watch.process.exitCode).toBeNull();
    appendFileSync(join(root, "b.jsonl"), PING_PONG);
    expect((await watch.exited()).code).toBe(1);
  });
});

describe("watch: usage", () => {
  it("standard input cannot be watched, and --exec needs its command after --", async () => {
    const stdin = startWatch(["-"]);
    expect((await stdin.exited()).code).toBe(2);
    expect(stdin.stderr()).toMatch(/standard input cannot be watched.*analyze - --format ndjson/);
    const exec = startWatch([watchFolder(), "--exec"]);
    expect((await exec.exited()).code).toBe(2);
    expect(exec.stderr()).toMatch(/--exec needs the command after --/);
  });
});
