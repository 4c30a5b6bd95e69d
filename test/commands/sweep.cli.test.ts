/** `looplens sweep` through the real CLI: the spec's ndjson line, json, table, labels, exit codes. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BASE_FIXTURES, ndjsonFindings, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const GRID = ["--vary", "criticalThreshold=11,15,20,25", "--vary", "warningThreshold=5,10"];

function sweep(...args: string[]) {
  const result = runCli(["sweep", ...args]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout;
}

describe("sweep --format ndjson", () => {
  it("prints one line per config, first --vary outermost, with exactly the spec's keys", () => {
    const stdout = sweep(...BASE_FIXTURES, ...GRID, "--format", "ndjson");
    const rows = ndjsonFindings(stdout);
    const line = (c: number, w: number, warned: number, blocked: number, median: number) => ({
      vary: { criticalThreshold: c, warningThreshold: w },
      runs: 7,
      warned,
      blocked,
      aborted: 1,
      firstBlockMedianCall: median,
    });
    expect(rows).toEqual([
      line(11, 5, 4, 3, 11),
      line(11, 10, 3, 3, 11),
      line(15, 5, 4, 3, 15),
      line(15, 10, 3, 3, 15),
      line(20, 5, 4, 3, 20),
      line(20, 10, 3, 3, 20),
      // Neither the ping-pong (20 calls) nor the poll loop (22) reaches 25: only the unknown tool blocks.
      line(25, 5, 4, 1, 11),
      line(25, 10, 3, 1, 11),
    ]);
    for (const text of stdout.trimEnd().split("\n")) {
      expect(Object.keys(JSON.parse(text))).toEqual(["vary", "runs", "warned", "blocked", "aborted", "firstBlockMedianCall"]);
    }
  });

  it("each row agrees with analyze under the same values", () => {
    const rows = ndjsonFindings(sweep(...BASE_FIXTURES, "--vary", "criticalThreshold=12,24", "--vary", "detectors.pingPong=false", "-f", "ndjson"));
    for (const row of rows) {
      const vary = row.vary as Record<string, number | boolean>;
      const sets = Object.entries(vary).flatMap(([key, value]) => ["--set", `${key}=${value}`]);
      const doc = JSON.parse(runCli(["analyze", ...BASE_FIXTURES, "-f", "json", ...sets]).stdout) as {
        runs: Array<{ firstStop: { kind: string; call: number } | null; findings: Array<{ level: string; afterStop: boolean }> }>;
      };
      const stops = doc.runs.map((r) => r.firstStop);
      expect(row.blocked).toBe(stops.filter((s) => s?.kind === "critical").length);
      expect(row.aborted).toBe(stops.filter((s) => s?.kind === "abort").length);
      expect(row.warned).toBe(doc.runs.filter((r) => r.findings.some((f) => f.level === "warning" && !f.afterStop)).length);
    }
    expect(rows.map((r) => r.blocked)).toEqual([2, 1]);
  });

  it("the median of an even number of first blocks is the mean of the middle two; no block gives null", () => {
    const rows = ndjsonFindings(sweep(...BASE_FIXTURES, "--set", "unknownToolThreshold=50", "--vary", "criticalThreshold=20,29", "-f", "ndjson"));
    // ping-pong blocks at call 20, the poll loop at 21; nothing reaches 29.
    expect(rows.map((r) => [r.blocked, r.firstBlockMedianCall])).toEqual([
      [2, 20.5],
      [0, null],
    ]);
  });

  it("reads the input once: standard input works", () => {
    const input = readFileSync("fixtures/poll-loop.jsonl");
    const result = runCli(["sweep", "-", "--vary", "criticalThreshold=15,20", "-f", "ndjson"], { input });
    expect(result.status).toBe(0);
    expect(ndjsonFindings(result.stdout).map((r) => r.firstBlockMedianCall)).toEqual([16, 21]);
  });

  it("starts from the base config of --config and --set", () => {
    const dir = tempDir("looplens-sweep-");
    const config = join(dir, "openclaw.json");
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 4 } } }");
    const rows = ndjsonFindings(sweep(...BASE_FIXTURES, "--config", config, "--set", "detectors.pingPong=false", "--vary", "criticalThreshold=20", "-f", "ndjson"));
    // ping-pong off: only the poll loop and the unknown tool block; warnings from 4 reach 4 runs.
    expect(rows).toEqual([{ vary: { criticalThreshold: 20 }, runs: 7, warned: 4, blocked: 2, aborted: 1, firstBlockMedianCall: 16 }]);
  });
});

describe("sweep --format json", () => {
  type Config = { vary: Record<string, unknown>; clamped: boolean; adjustments: string[]; changed: Array<Record<string, string>>; blocked: number };
  const doc = () =>
    JSON.parse(sweep(...BASE_FIXTURES, "--vary", "warningThreshold=10,15", "--vary", "criticalThreshold=15,25", "-f", "json")) as {
      grid: Record<string, unknown[]>;
      configs: Config[];
      summary: { runs: number; configs: number };
      best: unknown;
    };

  it("holds the grid, and per config the ndjson keys plus clamping and changed runs", () => {
    const d = doc();
    expect(d.grid).toEqual({ warningThreshold: [10, 15], criticalThreshold: [15, 25] });
    expect(d.summary).toMatchObject({ runs: 7, configs: 4 });
    expect(d.best).toBeNull();
    expect(d.configs.map((c) => c.clamped)).toEqual([false, false, true, false]);
    expect(d.configs[2]!.adjustments).toEqual(["criticalThreshold 15 is not above warningThreshold 15; raised to 16"]);
    expect(d.configs.map((c) => c.changed.map((x) => `${x.run}:${x.from}>${x.to}`))).toEqual([
      [],
      ["pingpong-1:blocked>warned", "poll-1:blocked>warned"],
      // warningThreshold 15 with critical clamped to 16: both loops block again; exec-retry's 12 calls no longer warn.
      ["exec-retry:warned>ok", "pingpong-1:warned>blocked", "poll-1:warned>blocked"],
      ["pingpong-1:blocked>warned", "poll-1:blocked>warned"],
    ]);
    expect(Object.keys(d.configs[0]!).slice(0, 6)).toEqual(["vary", "runs", "warned", "blocked", "aborted", "firstBlockMedianCall"]);
  });
});

describe("sweep --format table", () => {
  it("one row per config, clamped rows marked, changed runs named", () => {
    const stdout = sweep(...BASE_FIXTURES, "--vary", "warningThreshold=10,15", "--vary", "criticalThreshold=15,25");
    // Fitted to 80 columns (the width when unknown): short heads, the change list cut to the room left.
    expect(stdout).toMatch(/\n warning +critical +warned +blocked +aborted +1st block +changed\n/);
    expect(stdout).toMatch(/\n 15\* +15 +2 +3 +1 +16 +exec-retry warned→ok, pingpo…\n/);
    const table = stdout.split("\n\n")[1]!.split("\n");
    expect(Math.max(...table.map((line) => line.length))).toBe(80);
    expect(stdout).toContain("row 3 (warningThreshold=15 criticalThreshold=15): criticalThreshold 15 is not above warningThreshold 15; raised to 16");
    expect(stdout).toContain("4 configs over 7 runs");
  });

  it("with labels: a precision/recall column and the config that stops the stuck runs earliest", () => {
    const stdout = sweep(
      ...BASE_FIXTURES,
      "--vary",
      "criticalThreshold=12..24:4",
      "--expect-stuck",
      "poll-1",
      "pingpong-1",
      "unknown-1",
      "compact-stuck",
      "--expect-healthy",
      "exec-retry,healthy-1",
    );
    expect(stdout).toMatch(/\n 12 +.*1\.00\/1\.00 ◀ best/);
    expect(stdout).toMatch(/\n 24 +.*1\.00\/0\.50/);
    expect(stdout).toContain("◀ best: criticalThreshold=12 stops 4/4 stuck runs earliest and no healthy run");
  });

  it("says so when no config leaves the healthy runs alone", () => {
    const stdout = sweep(...BASE_FIXTURES, "--vary", "criticalThreshold=20", "--expect-stuck", "pingpong-1");
    // Unlabelled runs count as healthy: the poll loop, the unknown tool and the compaction loop are stopped too.
    expect(stdout).toMatch(/0\.25\/1\.00/);
    expect(stdout).toContain("no config of the grid stops a stuck run without also stopping a healthy one");
  });

  it("json carries the labels and the best config", () => {
    const d = JSON.parse(sweep(...BASE_FIXTURES, "--vary", "criticalThreshold=12,24", "--expect-stuck", "poll-1", "--expect-healthy", "healthy-1", "-f", "json"));
    expect(d.labels).toEqual({ stuck: ["poll-1"], healthy: ["healthy-1"] });
    expect(d.best).toEqual({ index: 0, vary: { criticalThreshold: 12 } });
    expect(d.configs.map((c: { precision: number | null; recall: number }) => [c.precision, c.recall])).toEqual([
      [1, 1],
      [null, 0],
    ]);
  });
});

describe("sweep on worker threads", () => {
  it.each([
    [["fixtures", "--vary", "criticalThreshold=3..8", "--vary", "warningThreshold=2,4"]],
    [["fixtures", "fixtures/config/two-agents.jsonl", "--config", "fixtures/config/openclaw.json5", "--set", "criticalThreshold=5", "--vary", "warningThreshold=3..7"]],
    [["fixtures", "--vary", "profile=configurable,newest", "--expect-stuck", "poll-1"]],
    [["fixtures", "--vary", "criticalThreshold=4,8", "--agent", "openclaw"]],
  ])("%j: the same output as one thread", (args) => {
    // Forced: a worker beside the main thread, whatever the input's size and the machine's load.
    const serial = runCli(["sweep", ...args, "--format", "json"], { env: { LOOPLENS_WORKERS: "0" } });
    const parallel = runCli(["sweep", ...args, "--format", "json"], { env: { LOOPLENS_WORKERS: "1" } });
    expect(serial.status, serial.stderr).toBe(0);
    expect(JSON.parse(serial.stdout).configs.length).toBeGreaterThan(1);
    expect(parallel.stdout).toBe(serial.stdout);
    expect(parallel.stderr).toBe(serial.stderr);
    expect(parallel.status).toBe(serial.status);
  });
});

describe("sweep exit status 2", () => {
  it.each([
    [["--vary", "criticalThreshold=10..30:0"], /--vary "criticalThreshold=10\.\.30:0": step "0" must be a positive integer/],
    [["--vary", "warningTreshold=5"], /unknown config key "warningTreshold" \(did you mean warningThreshold\?\)/],
    [["--vary", "criticalThreshold=1..5000"], /a sweep takes at most 1000 configs/],
    [[], /sweep needs at least one --vary/],
    [["--vary", "criticalThreshold=10", "--expect-stuck", "nope"], /--expect-stuck: no run named "nope"/],
    [["--vary", "criticalThreshold=10", "--expect-stuck", "poll-1", "--expect-healthy", "poll-1"], /labelled both stuck and healthy/],
  ])("%j", (args, message) => {
    const result = runCli(["sweep", ...BASE_FIXTURES, ...args]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a missing input and --strict with skipped lines", () => {
    expect(runCli(["sweep", "no/such/dir", "--vary", "criticalThreshold=10"]).status).toBe(2);
    const dir = tempDir("looplens-sweep-");
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, `${readFileSync("fixtures/healthy.jsonl", "utf8")}not json\n`);
    expect(runCli(["sweep", file, "--vary", "criticalThreshold=10", "-q"]).status).toBe(0);
    expect(runCli(["sweep", file, "--vary", "criticalThreshold=10", "-q", "--strict"]).status).toBe(2);
  });
});
