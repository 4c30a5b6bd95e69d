/**
 * What the cache tests share: a folder of inputs of every kind (OpenClaw sessions with archives and
 * a trajectory, a SQLite store, Gateway logs, Claude Code and canonical event files, and a canonical
 * events file over 128 KiB whose middle matters), and runs of `analyze` with the cache and without,
 * compared in every format.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { runMain, type CliResult } from "../../helpers/cli.js";
import { call, result, toJsonl } from "../../helpers/events.js";

export const FORMATS = ["table", "json", "ndjson", "markdown", "github", "html"] as const;

/** The file whose middle (beyond its first and last 64 KiB) holds calls that loop: a same-size edit there changes the report. */
export const BIG_FILE = "events/big.jsonl";

/** 1,400 calls, ~150 KB: a run of the same read in its middle, different reads around it. */
export function bigEvents(): string {
  const lines = [];
  for (let i = 0; i < 700; i++) {
    const looping = i >= 330 && i < 370;
    const args = { path: looping ? "/src/stuck.ts" : `/src/file-${String(i).padStart(4, "0")}.ts` };
    lines.push(call("big-run", `c${i}`, "read", args), result("big-run", `c${i}`, "read", { content: [{ type: "text", text: looping ? "same" : `text ${i}` }] }));
  }
  return toJsonl(lines);
}

/** A folder with inputs of every kind; returns its path. */
export function makeInputs(root: string): string {
  const inputs = join(root, "inputs");
  mkdirSync(join(inputs, "events"), { recursive: true });
  cpSync("fixtures/openclaw", join(inputs, "openclaw"), { recursive: true, filter: (path) => !path.endsWith(".looplens.json") });
  cpSync("fixtures/openclaw-store", join(inputs, "store"), { recursive: true, filter: (path) => !path.endsWith(".looplens.json") });
  cpSync("fixtures/gateway", join(inputs, "gateway"), { recursive: true, filter: (path) => !path.endsWith(".looplens.json") });
  for (const name of ["loop-v2.0.jsonl", "bad-lines-v2.0.jsonl"]) cpSync(`fixtures/agents/claude-code/${name}`, join(inputs, "claude", name));
  for (const name of ["generic-repeat.jsonl", "ping-pong.jsonl", "poll-loop.jsonl", "compaction-loop.jsonl", "healthy.jsonl"]) cpSync(`fixtures/${name}`, join(inputs, "events", name));
  writeFileSync(join(inputs, BIG_FILE), bigEvents());
  return inputs;
}

/** The same command with the cache (in `cacheDir`) and without, in one format. */
export async function bothWays(args: readonly string[], cacheDir: string, env: NodeJS.ProcessEnv = {}): Promise<{ cached: CliResult; fresh: CliResult }> {
  const cached = await runMain(args, { env: { LOOPLENS_CACHE_DIR: cacheDir, LOOPLENS_WORKERS: "0", ...env } });
  const fresh = await runMain([...args, "--no-cache"], { env: { LOOPLENS_CACHE_DIR: join(cacheDir, "never-made"), LOOPLENS_WORKERS: "0", ...env } });
  return { cached, fresh };
}

/** Every format of `analyze` with and without the cache: equal output, diagnostics and status. */
export async function expectSameEveryFormat(args: readonly string[], cacheDir: string, why: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  for (const format of FORMATS) {
    const { cached, fresh } = await bothWays(["analyze", "--all", "-f", format, ...args], cacheDir, env);
    expect(cached.stdout, `${why}: -f ${format}`).toBe(fresh.stdout);
    expect(cached.stderr, `${why}: -f ${format} (stderr)`).toBe(fresh.stderr);
    expect(cached.status, `${why}: -f ${format} (status)`).toBe(fresh.status);
  }
}
