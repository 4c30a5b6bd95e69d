/**
 * What looplens reads with no path (commands/common.ts `inputPaths`), through the real CLI with its
 * standard input as cron, CI and shells give it: /dev/null or a socket (not input: the state
 * directory is read), a pipe or a regular file (read). Node's own stdin "pipe" is a socket. And the exit-2 rules that keep such runs from
 * passing silently: a gate over an input with no run at all exits 2, and an input that ends in
 * exit 2 prints no report.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, ndjsonFindings, runCli, type CliResult } from "../helpers/cli.js";
import { TranscriptBuilder } from "../helpers/openclawTranscript.js";
import { tempDir } from "../helpers/tempDir.js";

/** One run of 25 identical reads: blocked at the 20th call (criticalThreshold 20). */
function loopingTranscript(): string {
  const t = new TranscriptBuilder("s-loop");
  t.user("read the file until it changes");
  for (let c = 1; c <= 25; c++) {
    const call = { id: `c${c}`, name: "read", args: { path: "notes.txt" } };
    t.calls([call]);
    t.result(call, { kind: "result", text: "unchanged" });
  }
  t.assistantText("done");
  t.bootstrap("req_loop");
  return t.text();
}

/** A state directory whose one session loops: the terminal run `looplens --fail-on block` exits 1. */
function loopingState(dir = tempDir("looplens-input-state-")): string {
  const sessions = join(dir, "agents", "main", "sessions");
  mkdirSync(sessions, { recursive: true });
  writeFileSync(join(sessions, "s-loop.jsonl"), loopingTranscript());
  return dir;
}

const STATE_READ = /looplens: reading the OpenClaw state directory .* \(no path given\)/;

/** The CLI with standard input a regular file (`looplens < file`). */
function withStdinFile(args: string[], file: string, env: NodeJS.ProcessEnv): CliResult {
  const fd = openSync(file, "r");
  try {
    return runCli(args, { stdin: fd, env });
  } finally {
    closeSync(fd);
  }
}

/** The CLI with standard input a connected socket (as some service managers give it). */
async function withStdinSocket(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const path = join(tempDir("looplens-socket-"), "stdin.sock");
  const server = createServer(() => {}).listen(path);
  await new Promise((resolve) => server.once("listening", resolve));
  const client = connect(path);
  await new Promise((resolve) => client.once("connect", resolve));
  try {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: [client, "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { status, stdout, stderr };
  } finally {
    client.destroy();
    server.close();
  }
}

describe("with no path", () => {
  /** ~/.openclaw (no $OPENCLAW_STATE_DIR) or $OPENCLAW_STATE_DIR, each holding the looping session. */
  const installs = () => {
    const home = tempDir("looplens-input-home-");
    const state = loopingState(tempDir("looplens-input-state-"));
    return [
      { state: loopingState(join(home, ".openclaw")), env: { HOME: home, OPENCLAW_STATE_DIR: undefined } },
      { state, env: { OPENCLAW_STATE_DIR: state } },
    ];
  };

  it("/dev/null (cron, CI) is no input: the state directory is read, and --fail-on judges it", () => {
    for (const { state, env } of installs()) {
      const result = runCli(["--fail-on", "block", "-f", "ndjson"], { stdin: "null", env });
      expect(result.stderr).toMatch(STATE_READ);
      expect(result.status).toBe(1);
      const findings = ndjsonFindings(result.stdout);
      expect(new Set(findings.map((f) => f.file))).toEqual(new Set([join(state, "agents", "main", "sessions", "s-loop.jsonl")]));
      expect(findings.map((f) => f.level)).toContain("critical");
    }
  });

  it("a socket is no input either (Node's stdin \"pipe\" is one, given empty)", async () => {
    for (const { env } of installs()) {
      const result = await withStdinSocket(["--fail-on", "block", "-f", "ndjson"], env);
      expect(result.stderr).toMatch(STATE_READ);
      expect(result.status).toBe(1);
    }
    const spawned = runCli(["--fail-on", "block"], { env: installs()[0]!.env });
    expect([spawned.status, spawned.stderr]).toEqual([1, expect.stringMatching(STATE_READ)]);
  });

  it("a pipe is read, $OPENCLAW_STATE_DIR or not", () => {
    const healthy = readFileSync("fixtures/healthy.jsonl");
    const result = runCli(["--fail-on", "block", "-f", "json"], { input: healthy, stdin: "pipe", env: { OPENCLAW_STATE_DIR: loopingState() } });
    expect(result.stderr).not.toMatch(STATE_READ);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: unknown[]; summary: { runs: number; files: number } };
    expect(report.summary.runs).toBeGreaterThan(0);
    expect(report.summary.files).toBe(1);
  });

  it("a regular file (`looplens < run.jsonl`) is read", () => {
    const file = join(tempDir("looplens-input-file-"), "loop.jsonl");
    writeFileSync(file, loopingTranscript());
    const result = withStdinFile(["--fail-on", "block", "-f", "ndjson"], file, { OPENCLAW_STATE_DIR: join(tempDir("looplens-input-none-"), "missing") });
    expect(result.stderr).not.toMatch(STATE_READ);
    expect(result.status).toBe(1);
    const findings = ndjsonFindings(result.stdout);
    expect(findings.map((f) => f.level)).toContain("critical");
    expect(new Set(findings.map((f) => f.file))).toEqual(new Set(["-"]));
  });

  it("events reads the same way; check never reads standard input (it has no snapshot)", () => {
    const state = loopingState();
    const events = runCli(["events"], { stdin: "null", env: { OPENCLAW_STATE_DIR: state } });
    expect(events.stderr).toMatch(STATE_READ);
    expect(events.stdout.split("\n").filter((line) => line.includes('"tool_call"'))).toHaveLength(25);
    const check = runCli(["check", "-f", "ndjson"], { input: "anything", stdin: "pipe", env: { OPENCLAW_STATE_DIR: state } });
    expect(check.stderr).toMatch(STATE_READ);
    expect(check.stderr).not.toMatch(/standard input/);
    expect(check.status).toBe(1); // the state directory's session has no snapshot yet
  });

  it("sweep reads the state directory from /dev/null too", () => {
    const result = runCli(["sweep", "-f", "ndjson", "--vary", "criticalThreshold=15,30"], { stdin: "null", env: { OPENCLAW_STATE_DIR: loopingState() } });
    expect(result.stderr).toMatch(STATE_READ);
    expect(result.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { blocked: number }).blocked)).toEqual([1, 0]);
  });
});

describe("no silent pass", () => {
  it("an empty pipe under --fail-on or --max-warnings: nothing was analysed, exit 2, no report", () => {
    for (const gate of [["--fail-on", "warning"], ["--max-warnings", "0"]]) {
      const result = runCli(gate, { input: "", stdin: "pipe" });
      expect(result.status, gate[0]).toBe(2);
      expect(result.stdout, gate[0]).toBe("");
      expect(result.stderr, gate[0]).toMatch(new RegExp(`^looplens: nothing was analysed: the input holds no run, so ${gate[0]} had nothing to judge$`, "m"));
    }
  });

  it("without a gate, an input with no run is no error: the report says 0 runs", () => {
    const result = runCli([], { input: "", stdin: "pipe" });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("No loop findings in 0 runs.");
  });

  it("a folder of files that are not transcripts: exit 2 and no report, in every format", () => {
    const dir = tempDir("looplens-not-transcripts-");
    writeFileSync(join(dir, "runs.jsonl"), '{"ts":1,"job":"nightly","status":"ok"}\n');
    writeFileSync(join(dir, "audit.jsonl"), '{"at":"2026-05-01","change":"x"}\n');
    for (const format of ["table", "json", "ndjson", "markdown", "github", "html"]) {
      const result = runCli(["analyze", dir, "-f", format]);
      expect(result.status, format).toBe(2);
      expect(result.stdout, format).toBe("");
      expect(result.stderr, format).toMatch(/nothing in the input could be used: 2 file\(s\) not read/);
    }
    const sweep = runCli(["sweep", dir, "--vary", "criticalThreshold=10,20"]);
    expect([sweep.status, sweep.stdout]).toEqual([2, ""]);
  });

  it("--strict with a bad line: exit 2, the reason, and no report (analyze, sweep, explain)", () => {
    const file = join(tempDir("looplens-strict-"), "bad.jsonl");
    writeFileSync(file, `${readFileSync("fixtures/poll-loop.jsonl", "utf8")}{broken\n`);
    for (const args of [["analyze", file], ["sweep", file, "--vary", "criticalThreshold=10,20"], ["explain", `${file}:22`]]) {
      const result = runCli([...args, "--strict"]);
      expect(result.status, args[0]).toBe(2);
      expect(result.stdout, args[0]).toBe("");
      expect(result.stderr, args[0]).toContain("--strict: 1 input line(s) skipped as bad");
      // Without --strict the same input is reported.
      expect(runCli(args).stdout.length, args[0]).toBeGreaterThan(0);
    }
  });
});
