/**
 * The result cache as a user meets it, through the real CLI: worker threads use it (and write what
 * they analyse), two processes at once on one cache folder print what looplens prints without it and
 * leave it whole, an unwritable folder is one notice, `sweep` and `check --cache` print the same warm
 * as cold, another version never reads an entry, a folder of the layout before packs is ignored and
 * removed, and `looplens cache info|clear`.
 */
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readUsage } from "../../src/pipeline/cache/cacheUsage.js";
import { BIN, ROOT, runCli, runMain, type CliResult } from "../helpers/cli.js";
import { makeInputs } from "../pipeline/cache/cacheBench.js";
import { tempDir } from "../helpers/tempDir.js";

let root: string;
let inputs: string;
beforeAll(() => {
  root = tempDir("looplens-cache-cli-");
  inputs = makeInputs(root);
});

const cacheEnv = (dir: string, more: NodeJS.ProcessEnv = {}) => ({ LOOPLENS_CACHE_DIR: dir, ...more });

/** The CLI in a child process, without waiting for it (two at once). */
function spawned(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const same = (a: CliResult, b: CliResult, why: string) => {
  expect(a.stdout, why).toBe(b.stdout);
  expect(a.stderr, `${why} (stderr)`).toBe(b.stderr);
  expect(a.status, `${why} (status)`).toBe(b.status);
};

describe("looplens with the result cache", () => {
  it("uses it on worker threads: the workers keep what they analyse, the next run reads it all", () => {
    const dir = join(root, "workers");
    const args = ["analyze", "--all", "-f", "json", inputs];
    const fresh = runCli([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: "0" } });
    const cold = runCli(args, { env: cacheEnv(dir, { LOOPLENS_WORKERS: "1" }) });
    same(cold, fresh, "cold, one worker");
    expect(readUsage(dir)?.last?.misses).toBeGreaterThan(1);
    const warm = runCli(args, { env: cacheEnv(dir, { LOOPLENS_WORKERS: "1" }) });
    same(warm, fresh, "warm, one worker");
    expect(readUsage(dir)?.last).toMatchObject({ misses: 0 });
    // A unit grown since: analysed again (here on the main thread alone: one unit is little data).
    appendFileSync(join(inputs, "events", "healthy.jsonl"), `${readFileSync(join(inputs, "events", "healthy.jsonl"), "utf8").split("\n")[0]}\n`);
    same(runCli(args, { env: cacheEnv(dir, { LOOPLENS_WORKERS: "1" }) }), runCli([...args, "--no-cache"]), "after an append");
    expect(readUsage(dir)?.last).toMatchObject({ misses: 1 });
  }, 240_000);

  it("prints the same from two processes at once on one cache folder, and leaves every entry whole", async () => {
    const dir = join(root, "concurrent");
    for (const format of ["json", "table"]) {
      const args = ["analyze", "--all", "-f", format, inputs];
      const fresh = runCli([...args, "--no-cache"]);
      const [a, b] = await Promise.all([spawned(args, cacheEnv(dir)), spawned(args, cacheEnv(dir, { LOOPLENS_WORKERS: "1" }))]);
      same(a, fresh, `first of two at once, -f ${format}`);
      same(b, fresh, `second of two at once, -f ${format}`);
    }
    // No temporary file left (of the index, of the counts): each process wrote packs of its own.
    const files = readdirSync(dir, { recursive: true }).map(String);
    expect(files.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    // Whole entries: the next run reads every unit from them.
    same(runCli(["analyze", "--all", "-f", "json", inputs], { env: cacheEnv(dir) }), runCli(["analyze", "--all", "-f", "json", inputs, "--no-cache"]), "after both");
    expect(readUsage(dir)?.last).toMatchObject({ misses: 0 });
  }, 240_000);

  it("says once that a folder it cannot write is not used, and prints the same otherwise", () => {
    const notAFolder = join(root, "a-file");
    writeFileSync(notAFolder, "");
    for (const workers of ["0", "1"]) {
      const args = ["analyze", "-f", "json", inputs];
      const cached = runCli(args, { env: cacheEnv(join(notAFolder, "cache"), { LOOPLENS_WORKERS: workers }) });
      const fresh = runCli([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: workers } });
      expect(cached.stdout).toBe(fresh.stdout);
      expect(cached.status).toBe(fresh.status);
      const notices = cached.stderr.split("\n").filter((line) => line.includes("cache: cannot write"));
      expect(notices).toHaveLength(1);
      expect(cached.stderr.replace(`${notices[0]}\n`, "")).toBe(fresh.stderr);
      expect(runCli([...args, "--quiet"], { env: cacheEnv(join(notAFolder, "cache")) }).stderr).toBe("");
    }
  }, 240_000);

  it("sweeps the same warm as cold, on one thread and on workers, and misses when the grid changes", () => {
    const dir = join(root, "sweep");
    for (const vary of [["--vary", "criticalThreshold=10..30:5", "--vary", "warningThreshold=5,10"], ["--vary", "profile=configurable,newest"]]) {
      const args = ["sweep", "-f", "json", ...vary, inputs];
      const fresh = runCli([...args, "--no-cache"]);
      same(runCli(args, { env: cacheEnv(dir) }), fresh, `cold sweep ${vary.join(" ")}`);
      expect(readUsage(dir)?.last?.hits).toBe(0);
      same(runCli(args, { env: cacheEnv(dir, { LOOPLENS_WORKERS: "1" }) }), fresh, `warm sweep ${vary.join(" ")}`);
      expect(readUsage(dir)?.last).toMatchObject({ misses: 0 });
    }
  }, 240_000);

  it("check reads and keeps it only with --cache", async () => {
    const dir = join(root, "check");
    const fixtures = ["check", "fixtures/healthy.jsonl", "fixtures/ping-pong.jsonl", "fixtures/openclaw"];
    const plain = await runMain(fixtures, { env: cacheEnv(dir) });
    expect(readUsage(dir)).toBeUndefined();
    same(await runMain([...fixtures, "--cache"], { env: cacheEnv(dir) }), plain, "check --cache, cold");
    same(await runMain([...fixtures, "--cache"], { env: cacheEnv(dir) }), plain, "check --cache, warm");
    expect(readUsage(dir)?.last).toMatchObject({ command: "check", misses: 0 });
  }, 240_000);

  it("never reads an entry of another version", async () => {
    const { runAnalyze } = await import("../../src/commands/analyze.js");
    const dir = join(root, "versions");
    const io = (out: string[]) => ({ stdout: (text: string) => void out.push(text), stderr: () => {}, stdoutIsTTY: false, stdin: "terminal" as const, stderrIsTTY: false, columns: 80, env: cacheEnv(dir) });
    const report = async (version: string) => {
      const out: string[] = [];
      await runAnalyze([inputs], { format: "json", all: true }, io(out), version);
      return { text: out.join(""), usage: readUsage(dir)?.last };
    };
    const one = await report("1.0.0");
    expect((await report("1.0.0")).usage).toMatchObject({ misses: 0 });
    const two = await report("2.0.0");
    expect(two.usage).toMatchObject({ hits: 0 });
    expect(two.text).toBe(one.text.replace('"version": "1.0.0"', '"version": "2.0.0"'));
  }, 240_000);

  it("ignores a cache folder of the layout before packs, and removes it on the first run that writes", async () => {
    const dir = join(root, "old-layout");
    // As the build before packs left it: an entry file per unit under entries/, and its counts.
    mkdirSync(join(dir, "entries", "ab"), { recursive: true });
    writeFileSync(join(dir, "entries", "ab", "ab00000000000000.ndjson"), '{"key":"an old entry"}\nS{}\n#0000000000000000\n');
    writeFileSync(join(dir, "usage.json"), JSON.stringify({ bytes: 50, scannedAt: 0, since: 0, hits: 4, misses: 2 }));
    const args = ["analyze", "--all", "-f", "json", inputs];
    same(runCli(args, { env: cacheEnv(dir) }), runCli([...args, "--no-cache"]), "over an old layout");
    expect(existsSync(join(dir, "entries"))).toBe(false);
    expect(readUsage(dir)).toMatchObject({ hits: 4 });
    same(runCli(args, { env: cacheEnv(dir) }), runCli([...args, "--no-cache"]), "warm after it");
    expect(readUsage(dir)?.last).toMatchObject({ misses: 0 });
  }, 240_000);

  it("cache info tells where it is and what it holds; cache clear empties it", () => {
    const dir = join(root, "info");
    runCli(["analyze", inputs], { env: cacheEnv(dir) });
    runCli(["analyze", inputs], { env: cacheEnv(dir) });
    const info = runCli(["cache", "info"], { env: cacheEnv(dir) });
    expect(info.status).toBe(0);
    expect(info.stdout).toContain(`folder   ${dir} ($LOOPLENS_CACHE_DIR)`);
    expect(info.stdout).toMatch(/entries  [1-9]\d* \(\d+\.\d MB of at most 256\.0 MB/);
    expect(info.stdout).toMatch(/last run .*, analyze: [1-9]\d* hits, 0 misses/);
    const cleared = runCli(["cache", "clear"], { env: cacheEnv(dir) });
    expect(cleared.stdout).toMatch(/^removed [1-9]\d* entries \(\d+\.\d MB\) from /);
    expect(runCli(["cache", "info"], { env: cacheEnv(dir) }).stdout).toContain("entries  0 (0.0 MB");
  }, 240_000);
});
