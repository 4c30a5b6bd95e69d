/**
 * Many files are analysed on several threads (parallelAnalysis.ts); the report must be exactly the
 * serial one: same stdout in every format, same stderr (diagnostics, config notices), same status.
 * LOOPLENS_WORKERS forces the mode (0 = serial, N = N worker threads) whatever the input size.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { generate } from "../../bench/generate.mjs";
import { lanesFor, withSpillBudgetShared, workersFor } from "../../src/pipeline/parallel.js";
import { runCli } from "../helpers/cli.js";

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-parallel-"));
  const inputs = join(dir, "inputs");
  // Realistic runs (loops included) spread over files of different sizes...
  generate({ dir: inputs, seed: 11, files: 5, fileMb: 0.15, format: "events" });
  generate({ dir: join(inputs, "more"), seed: 12, files: 2, fileMb: 0.4, format: "events" });
  // ...and bad lines in two files: 700 + 700 diagnostics, more than the 1000 a report keeps.
  const bad = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? "{not json" : '{"type":"tool_call"}')).join("\n") + "\n";
  writeFileSync(join(inputs, "bad-a.jsonl"), bad(700));
  writeFileSync(join(inputs, "bad-b.jsonl"), bad(700));
  // Every input format, compressed and cut-off streams, and the hostile-input cases, side by side.
  const mixed = join(dir, "mixed");
  cpSync("fixtures/openclaw", join(mixed, "openclaw"), { recursive: true });
  cpSync("fixtures/gateway", join(mixed, "gateway"), { recursive: true });
  generate({ dir: join(mixed, "sessions"), seed: 13, files: 3, fileMb: 0.2, format: "session" });
  generate({ dir: join(mixed, "events"), seed: 14, files: 2, fileMb: 0.2, format: "events" });
  const gz = gzipSync(readFileSync("fixtures/ping-pong.jsonl"));
  writeFileSync(join(mixed, "ping-pong.jsonl.gz"), gz);
  writeFileSync(join(mixed, "cut-off.jsonl.gz"), gz.subarray(0, Math.floor(gz.length * 0.6)));
  const healthy = readFileSync("fixtures/healthy.jsonl");
  writeFileSync(join(mixed, "hostile.jsonl"), Buffer.concat([healthy, Buffer.from("\uFEFF"), healthy, Buffer.from([0xff, 0xfe, 0x0a])]));
  // Per-agent overrides that get clamped: their notices appear in the order agents are first met.
  config = join(dir, "openclaw.json");
  writeFileSync(
    config,
    JSON.stringify({
      tools: { loopDetection: { enabled: true } },
      agents: {
        list: [
          { id: "ops", tools: { loopDetection: { criticalThreshold: 5 } } },
          { id: "research", tools: { loopDetection: { globalCircuitBreakerThreshold: 12 } } },
        ],
      },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (workers: string, args: string[]) => runCli(["analyze", ...args], { env: { LOOPLENS_WORKERS: workers } });

describe("parallel analysis", () => {
  for (const format of ["json", "ndjson", "table"]) {
    it(`gives the serial report byte for byte (--format ${format})`, () => {
      const args = [join(dir, "inputs"), "--format", format, "--config", config, "--all"];
      const serial = run("0", args);
      expect(serial.status).toBe(0);
      expect(serial.stdout.length).toBeGreaterThan(1000);
      expect(serial.stderr).toContain("not valid JSON");
      expect(serial.stderr).toMatch(/globalCircuitBreakerThreshold 12 .*\n.*criticalThreshold 5 /);
      const parallel = run("2", args);
      expect(parallel.stdout).toBe(serial.stdout);
      expect(parallel.stderr).toBe(serial.stderr);
      expect(parallel.status).toBe(serial.status);
    });
  }

  for (const format of ["json", "table"]) {
    it(`gives the serial report byte for byte on every input format (--format ${format})`, () => {
      const args = [join(dir, "mixed"), "--format", format, "--all"];
      const serial = run("0", args);
      expect(serial.stdout.length).toBeGreaterThan(1000);
      expect(serial.stderr).toMatch(/cut-off\.jsonl\.gz:\d+: gzip data ends early/);
      const parallel = run("2", args);
      expect(parallel.stdout).toBe(serial.stdout);
      expect(parallel.stderr).toBe(serial.stderr);
      expect(parallel.status).toBe(serial.status);
    });
  }

  it("the mixed folder reads every format, Gateway logs included", () => {
    const report = JSON.parse(run("2", [join(dir, "mixed"), "--format", "json", "--quiet", "--all"]).stdout);
    const runFiles: string[] = report.runs.map((r: { file: string }) => r.file);
    for (const part of ["/openclaw/agents/", "/trajectory-exports/", "/sessions/agents/", "/events/", "ping-pong.jsonl.gz"]) {
      expect(runFiles.some((file) => file.includes(part))).toBe(true);
    }
    expect(report.summary.live.runs).toBeGreaterThan(0);
    expect(report.liveFindings.length).toBeGreaterThan(0);
  });

  it("the merged report accounts for every line of every file", () => {
    const report = JSON.parse(run("3", [join(dir, "inputs"), "--format", "json", "--quiet"]).stdout);
    expect(report.summary.files).toBe(9);
    expect(report.summary.lines.skipped).toBe(1400);
    expect(report.summary.lines.read).toBe(report.summary.lines.used + report.summary.lines.ignored + report.summary.lines.skipped);
    expect(report.diagnostics).toHaveLength(1000);
    expect(report.summary.diagnostics).toBe(1400);
    expect(report.summary.findings.total).toBeGreaterThan(0);
  });
});

describe("one file on a worker thread", () => {
  it("gives the main thread's report byte for byte (a session transcript: both passes, byte strings)", () => {
    const sessions = join(dir, "mixed", "sessions");
    for (const format of ["json", "table"]) {
      const serial = run("0", [sessions, "--format", format, "--all"]);
      expect(serial.stdout.length).toBeGreaterThan(1000);
      const file = JSON.parse(run("0", [sessions, "--format", "json", "--quiet"]).stdout).runs[0].file as string;
      const one = [file, "--format", format, "--all"];
      const onMain = run("0", one);
      const onWorker = run("1", one);
      expect(onWorker.stdout).toBe(onMain.stdout);
      expect(onWorker.stderr).toBe(onMain.stderr);
      expect(onWorker.status).toBe(onMain.status);
    }
  });

  it("happens only when LOOPLENS_WORKERS asks for workers, never for standard input", () => {
    const huge = 1 << 30;
    expect(lanesFor([["a.jsonl"]], 1 << 20, { LOOPLENS_WORKERS: "2" }, 0)).toEqual({ workers: 1, mainThread: false });
    expect(lanesFor([["a.jsonl"]], huge, {}, 0)).toEqual({ workers: 0, mainThread: true });
    expect(lanesFor([["a.jsonl"], ["b.jsonl"]], huge, {}, 9)).toEqual({ workers: 0, mainThread: true }); // busy machine
    expect(lanesFor([["a.jsonl"]], huge, { LOOPLENS_WORKERS: "0" }, 0)).toEqual({ workers: 0, mainThread: true });
    expect(lanesFor([["-"]], huge, { LOOPLENS_WORKERS: "2" }, 0)).toEqual({ workers: 0, mainThread: true });
  });
});

describe("the budgets of runs held in memory", () => {
  const setup = { config: {}, input: { spill: { dir: "/tmp/spill", plainRunsInMemory: 1000, findingsInMemory: 300 } } };

  it("are the whole analysis's, shared among the threads that analyse", () => {
    expect(withSpillBudgetShared(setup, { workers: 1, mainThread: true }).input.spill).toEqual({ dir: "/tmp/spill", plainRunsInMemory: 500, findingsInMemory: 150 });
    expect(withSpillBudgetShared(setup, { workers: 2, mainThread: true }).input.spill).toEqual({ dir: "/tmp/spill", plainRunsInMemory: 334, findingsInMemory: 100 });
    expect(withSpillBudgetShared(setup, { workers: 1, mainThread: false }).input.spill).toEqual(setup.input.spill);
    expect(withSpillBudgetShared({ config: {}, input: {} }, { workers: 3, mainThread: true }).input.spill).toBeUndefined();
  });
});

describe("when to use worker threads", () => {
  const files = [["a.jsonl"], ["b.jsonl"], ["c.jsonl"]]; // one unit per file
  const big = 64 << 20;
  const cores = availableParallelism();

  it("never for one file or standard input; as forced by LOOPLENS_WORKERS otherwise", () => {
    expect(workersFor([["a.jsonl"]], big, { LOOPLENS_WORKERS: "4" }, 0)).toBe(0);
    expect(workersFor([["a.jsonl"], ["-"]], big, { LOOPLENS_WORKERS: "4" }, 0)).toBe(0);
    expect(workersFor(files, 10, { LOOPLENS_WORKERS: "4" }, 9)).toBe(2);
    expect(workersFor(files, big, { LOOPLENS_WORKERS: "0" }, 0)).toBe(0);
  });

  it.skipIf(cores < 2)("by default only for enough input on a machine with a free core", () => {
    expect(workersFor(files, big, {}, 0)).toBe(1);
    expect(workersFor(files, 1 << 20, {}, 0)).toBe(0);
    expect(workersFor(files, big, {}, cores)).toBe(0);
  });

  it("by default one worker however many cores (each costs ~30 MB of peak memory); more when forced", () => {
    expect(workersFor(files, big, {}, 0, 1)).toBe(0);
    expect(workersFor(files, big, {}, 0, 2)).toBe(1);
    expect(workersFor(files, big, {}, 0, 32)).toBe(1);
    expect(workersFor(files, big, {}, 31.6, 32)).toBe(0);
    expect(workersFor(files, big, { LOOPLENS_WORKERS: "2" }, 0, 32)).toBe(2);
  });
});
