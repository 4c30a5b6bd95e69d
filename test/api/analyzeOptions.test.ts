/**
 * The CLI's analyze flags as `analyze` options: each gives what the flag gives (the --format json
 * document, the error the CLI exits 2 with, the verdict its exit status 1 carries).
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { analyze, InputError, UsageError, type Report } from "../../src/index.js";
import { readUsage } from "../../src/pipeline/cache/cacheUsage.js";
import { runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

async function cliJson(args: readonly string[]): Promise<Report> {
  const { status, stdout, stderr } = await runMain(["analyze", "-f", "json", ...args]);
  expect(status, stderr).not.toBe(2);
  return JSON.parse(stdout) as Report;
}

/** The CLI's exit status and the last line it said on stderr, without `looplens: `. */
async function cliEnd(args: readonly string[]): Promise<{ status: number | null; last: string }> {
  const { status, stderr } = await runMain(["analyze", "-f", "json", ...args]);
  return { status, last: stderr.trimEnd().split("\n").at(-1)!.replace(/^looplens: /, "") };
}

const CALL = (i: number, pad = "") => JSON.stringify({ type: "tool_call", run: "r1", id: `c${i}`, tool: "exec", args: { command: `make${pad}` } });

/**
 * A folder of canonical-event files, each with calls whose lines are about 60 bytes and one of about
 * 300: gzip files, which are read as a stream (a small plain file is read at once), so that analyses
 * at once take turns in the middle of reading them.
 */
function longLineFolder(): string {
  const dir = join(tempDir(), "long");
  mkdirSync(dir);
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `${i}.jsonl.gz`), gzipSync([CALL(1), CALL(2, " ".repeat(240)), CALL(3)].join("\n") + "\n"));
  return dir;
}

const FILES = 8;

describe("maxLineBytes", () => {
  it("skips longer lines as --max-line-bytes does, and two analyses at once each keep their own limit", async () => {
    const dir = longLineFolder();
    const limited = await analyze(dir, { maxLineBytes: 200 });
    expect(limited).toEqual(await cliJson([dir, "--max-line-bytes", "200"]));
    expect(limited.summary.lines.skipped).toBe(FILES);
    expect(limited.diagnostics[0]!.reason).toContain("over the 200-byte limit");
    const whole = await analyze(dir);
    expect(whole.summary.lines.skipped).toBe(0);
    const together = await Promise.all([analyze(dir, { maxLineBytes: 200 }), analyze(dir), analyze(dir, { maxLineBytes: 100 })]);
    expect(together[0]).toEqual(limited);
    expect(together[1]).toEqual(whole);
    expect(together[2].summary.lines.skipped).toBe(FILES);
    expect(together[2].diagnostics.every((d) => d.reason.includes("over the 100-byte limit"))).toBe(true);
    expect(together[2].diagnostics[0]!.reason).toContain("over the 100-byte limit");
  });

  it("refuses a limit the CLI refuses", async () => {
    for (const bytes of [0, 1.5, -1, 2 ** 40]) await expect(analyze("fixtures/healthy.jsonl", { maxLineBytes: bytes })).rejects.toThrow(UsageError);
  });
});

describe("strict", () => {
  it("a skipped line is an InputError with the CLI's message; without it, a diagnostic", async () => {
    const file = join(tempDir(), "bad.jsonl");
    writeFileSync(file, `${CALL(1)}\nnot json\n`);
    const error = await analyze(file, { strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe((await cliEnd([file, "--strict"])).last);
    expect((await analyze(file)).summary.lines.skipped).toBe(1);
  });
});

describe("failOn and maxWarnings", () => {
  const STUCK = "fixtures/ping-pong.jsonl"; // 10 warnings, then a block at call 20

  it("the report's gate says what the exit status says, with the CLI's closing line", async () => {
    const failing = await analyze(STUCK, { failOn: "block" });
    const cli = await cliEnd([STUCK, "--fail-on", "block"]);
    expect(cli.status).toBe(1);
    expect(failing.gate).toEqual({ failOn: "block", failing: { findings: 1, runs: 1 }, warnings: 10, failed: true, reasons: [cli.last] });
    const { gate, ...document } = failing;
    expect(document).toEqual(await cliJson([STUCK]));
    expect(gate?.reasons[0]).toMatch(/^✖ 1 finding at or above block in 1 run$/);

    expect((await analyze(STUCK, { failOn: "abort" })).gate).toMatchObject({ failed: false, reasons: [] });
    expect((await runMain(["analyze", STUCK, "--fail-on", "abort"])).status).toBe(0);
    const warnings = await analyze(STUCK, { maxWarnings: 3 });
    expect(warnings.gate).toMatchObject({ maxWarnings: 3, warnings: 10, failed: true, reasons: [(await cliEnd([STUCK, "--max-warnings", "3"])).last] });
    expect((await analyze(STUCK)).gate).toBeUndefined();
  });

  it("an input with no run under failOn is the CLI's 'nothing was analysed' InputError; a bad level a UsageError", async () => {
    const empty = join(tempDir(), "empty.jsonl");
    writeFileSync(empty, "");
    const error = await analyze(empty, { failOn: "warning" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe((await cliEnd([empty, "--fail-on", "warning"])).last);
    expect((error as Error).message).toMatch(/^nothing was analysed/);
    await expect(analyze(STUCK, { failOn: "loud" as "warning" })).rejects.toThrow(UsageError);
    await expect(analyze(STUCK, { maxWarnings: -1 })).rejects.toThrow(UsageError);
  });
});

describe("cache", () => {
  it("cache: true reads and keeps results in the CLI's cache folder: the same report, the second time from it; off by default", async () => {
    const paths = ["fixtures/ping-pong.jsonl", "fixtures/poll-loop.jsonl"];
    const folder = tempDir();
    const env = { ...process.env, LOOPLENS_CACHE_DIR: folder };
    const fresh = await analyze(paths);
    expect(await analyze(paths, { cache: true, env })).toEqual(fresh);
    expect(readUsage(folder)?.last).toMatchObject({ command: "library", hits: 0, misses: 2 });
    expect(await analyze(paths, { cache: true, env })).toEqual(fresh);
    expect(readUsage(folder)?.last).toMatchObject({ command: "library", hits: 2, misses: 0 });
    const untouched = tempDir();
    expect(await analyze(paths, { env: { ...process.env, LOOPLENS_CACHE_DIR: untouched } })).toEqual(fresh);
    expect(readdirSync(untouched)).toEqual([]);
  });
});

describe("the other analyze flags", () => {
  it("activeBranch is --active-branch", async () => {
    const branches = await analyze("fixtures/openclaw", { activeBranch: true });
    expect(branches).toEqual(await cliJson(["fixtures/openclaw", "--active-branch"]));
    expect(branches.summary.calls).toBeLessThan((await analyze("fixtures/openclaw")).summary.calls);
  });
});
