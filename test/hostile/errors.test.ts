/**
 * Errors the user can fix: one clear line on stderr, the right exit status, never a stack trace
 * (`--debug` may add one for internal errors). Most cases run `main` in-process; a few spawn the
 * real binary to prove what reaches a user's terminal.
 */
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { runMain, tempDir } from "./harness.js";

const tmp = tempDir();
const CALL = '{"type":"tool_call","run":"r1","id":"c1","tool":"exec","args":{}}\n';
const good = tmp.write("good.jsonl", CALL);
const STACK_FRAME = /^\s+at /m;

/** One line, starting with `looplens: `, matching `pattern`. */
function expectOneLine(stderr: string, pattern: RegExp): void {
  expect(stderr.endsWith("\n")).toBe(true);
  const lines = stderr.slice(0, -1).split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^looplens: /);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(STACK_FRAME);
}

describe("errors", () => {
  it.each([
    ["a missing path", [join(tmp.dir, "nope.jsonl")], /cannot read .*nope\.jsonl: no such file or directory$/],
    ["a path through a file", [join(good, "x.jsonl")], /cannot read .*: a component of the path is not a directory$/],
    ["a folder without inputs", [(() => (mkdirSync(join(tmp.dir, "empty-dir/sub"), { recursive: true }), join(tmp.dir, "empty-dir")))()], /no input files .* under .*empty-dir$/],
    ["an unknown subcommand", ["frobnicate"], /cannot read frobnicate: no such file or directory \(and it is not a command: see looplens --help\)$/],
    ["help on an unknown command", ["help", "frob"], /^looplens: unknown command 'frob' \(see looplens --help\)$/],
    ["an unknown flag", ["analyze", good, "--frob"], /unknown option '--frob' \(see looplens analyze --help\)$/],
    ["a misspelt flag", [good, "--formt", "json"], /unknown option '--formt' \(Did you mean --format\?\) \(see looplens analyze --help\)$/],
    ["a bad --format value", [good, "--format", "xml"], /argument 'xml' is invalid\. Allowed choices are .* \(see looplens analyze --help\)$/],
    ["a missing option value", [good, "--config"], /option '--config <file>' argument missing/],
    ["a bad --set", [good, "--set", "criticalThreshold=0"], /--set criticalThreshold: "0" is not a positive integer$/],
    ["a missing config", [good, "--config", join(tmp.dir, "none.json")], /cannot read config .*none\.json: no such file$/],
    ["a bad flag on events", ["events", good, "--format", "json"], /unknown option '--format'/],
  ])("%s: exit 2", async (_what, args, pattern) => {
    const result = await runMain(args);
    expect(result.status).toBe(2);
    expectOneLine(result.stderr, pattern);
    expect(result.stdout).toBe("");
  });

  it("an empty file is not an error: exit 0, one line saying so", async () => {
    const empty = tmp.write("empty.jsonl", "");
    const result = await runMain([empty]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(`${empty}:1: empty file: nothing to analyse\n`);
    expect(result.stdout).toMatch(/0 runs/);
  });

  it("a .gz corrupt from its start holds nothing to read: a file not read, exit 2 when it is the only input", async () => {
    const corrupt = tmp.write("corrupt.jsonl.gz", Buffer.concat([gzipSync(CALL).subarray(0, 10), Buffer.from("this is not deflate data")]));
    const result = await runMain(["events", corrupt]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").filter(Boolean)).toEqual([
      expect.stringMatching(new RegExp(`^${corrupt}:1: gzip data ends early or is corrupt \\(.+\\); read up to here$`)),
      expect.stringMatching(/^looplens: nothing in the input could be used: 1 file\(s\) not read \(gzip data ends early or is corrupt \(.+\)\)$/),
    ]);
    // Beside a transcript it is one file not read; the transcript is reported, exit 0.
    const both = await runMain(["analyze", "-f", "json", corrupt, tmp.write("good.jsonl", CALL)]);
    expect(both.status).toBe(0);
    const summary = (JSON.parse(both.stdout) as { summary: { files: number; filesNotRead: number } }).summary;
    expect([summary.files, summary.filesNotRead]).toEqual([1, 1]);
  });

  it("an empty .gz file reads as an empty file", async () => {
    const empty = tmp.write("empty.jsonl.gz", gzipSync(""));
    const result = await runMain(["events", empty]);
    expect(result).toEqual({ status: 0, stdout: "", stderr: `${empty}:1: empty file: nothing to analyse\n` });
  });

  it.skipIf(process.getuid?.() === 0)("an unreadable file: exit 2, permission denied", async () => {
    const locked = tmp.write("locked.jsonl", CALL);
    chmodSync(locked, 0o000);
    const result = await runMain([locked]);
    expect(result.status).toBe(2);
    expectOneLine(result.stderr, /cannot read .*locked\.jsonl: permission denied$/);
  });

  // stat() succeeds, then reading fails (EIO): the error comes from the stream, mid-read.
  it.skipIf(process.platform !== "linux")("a file whose read fails after opening: exit 2, one line", async () => {
    const result = await runMain(["analyze", "/proc/self/mem"]);
    expect(result.status).toBe(2);
    expectOneLine(result.stderr, /^looplens: cannot read \/proc\/self\/mem: input\/output error$/);
  });

  it("--help and --version exit 0 on stdout", async () => {
    expect(await runMain(["--version"])).toMatchObject({ status: 0, stderr: "" });
    const help = await runMain(["help", "analyze"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--strict/);
  });
});

describe("errors through the real binary", () => {
  it("a missing path: one line, exit 2, no stack trace", () => {
    const result = runCli(["analyze", "does/not/exist.jsonl"]);
    expect(result.status).toBe(2);
    expectOneLine(result.stderr, /cannot read does\/not\/exist\.jsonl: no such file or directory$/);
  });

  it("a directory given as --config: one line, exit 2", () => {
    const dir = join(tmp.dir, "config-dir");
    mkdirSync(dir, { recursive: true });
    const plain = runCli([good, "--config", dir]);
    expect(plain.status).toBe(2);
    expectOneLine(plain.stderr, /cannot read config .*config-dir: is a directory$/);
  });

  it("stdin: an empty pipe and a pipe of gzip garbage", () => {
    const empty = runCli(["analyze", "-", "--format", "json"], { input: "" });
    expect(empty.status).toBe(0);
    expect(empty.stderr).toBe("-:1: empty file: nothing to analyse\n");
    const garbage = runCli(["analyze", "--format", "ndjson"], { input: Buffer.from([0x1f, 0x8b, 0x00, 0xff, 0xff]), stdin: "pipe" });
    // Nothing of it could be read: wholly unusable input, exit 2 (an empty pipe is an empty input).
    expect(garbage.status).toBe(2);
    expect(garbage.stdout).toBe("");
    expect(garbage.stderr).toMatch(/^-:1: gzip data ends early or is corrupt \(.+\); read up to here\nlooplens: nothing in the input could be used: 1 file\(s\) not read \(.+\)\n$/);
    expect(garbage.stderr).not.toMatch(STACK_FRAME);
  });
});

describe("--debug", () => {
  it("adds the stack trace to an internal error, and only then", async () => {
    const deep = tmp.write("throws.jsonl", CALL);
    // Internal errors are not reachable from any input (that is the point of this suite), so a
    // reporter is made to throw by replacing it in the registry.
    const { REPORTERS } = await import("../../src/reporters/index.js");
    const reporters = REPORTERS.analyze as Record<string, unknown>;
    const original = reporters.ndjson;
    reporters.ndjson = () => {
      throw new Error("boom");
    };
    try {
      const plain = await runMain([deep, "--format", "ndjson"]);
      expect(plain.status).toBe(2);
      expectOneLine(plain.stderr, /^looplens: internal error: boom$/);
      const debug = await runMain([deep, "--format", "ndjson", "--debug"]);
      expect(debug.status).toBe(2);
      expect(debug.stderr).toMatch(/^looplens: internal error: boom\nError: boom\n\s+at /);
    } finally {
      reporters.ndjson = original;
    }
  });
});
