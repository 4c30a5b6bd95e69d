/**
 * What the cache tests share: a folder of inputs of every kind (OpenClaw sessions with archives and
 * trajectories, one session whose transcript lives are paired with its runtime sidecar, a SQLite
 * store, Gateway logs, Claude Code files and a forked conversation (a family: one unit), Codex,
 * OpenHands and OpenHands evaluation output, canonical event files, and a canonical events file over
 * 128 KiB whose middle matters), and runs of `analyze` with the cache and without, compared in every
 * format.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { REPORT_FORMATS } from "../../../src/reporters/index.js";
import { runMain, type CliResult } from "../../helpers/cli.js";
import { Conversation, writeConversation } from "../../helpers/claudeCodeConversation.js";
import { call, result, toJsonl } from "../../helpers/events.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { writePairedSession } from "../../helpers/pairedSession.js";

/** Every format of `analyze` (the registry's list: a format added there is compared here too). */
export const FORMATS: readonly string[] = REPORT_FORMATS;

/** The paired OpenClaw session: an archived life, the live transcript and the sidecar of both runs. */
export const PAIRED_SESSION = "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6";

/** The parent and the fork of a Claude Code conversation (forked after the parent's loop). */
export const FORK_FAMILY = ["7b1d0c3e-1111-4a2b-9c3d-00000000aa01", "7b1d0c3e-2222-4a2b-9c3d-00000000bb02"] as const;

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
  cpSync("fixtures/agents/codex/fork-copies-0.146.jsonl", join(inputs, "codex", "fork-copies-0.146.jsonl"));
  cpSync("fixtures/agents/openhands/v1-events.jsonl", join(inputs, "openhands", "v1-events.jsonl"));
  cpSync("fixtures/agents/openhands-eval/output.jsonl", join(inputs, "openhands-eval", "output.jsonl"));
  writeFileSync(join(inputs, BIG_FILE), bigEvents());
  writePairedLives(join(inputs, "openclaw", "agents", "main", "sessions"));
  writeForkFamily(join(inputs, "claude-projects", "projects", "-home-dev-app"));
  return inputs;
}

/** A session's two transcript lives (the first archived at its reset) and its runtime sidecar: one unit. */
function writePairedLives(sessions: string): void {
  const written = writePairedSession({ ...nightlyBuildStory(), sessionId: PAIRED_SESSION }, { lives: [[0], [1]] });
  writeFileSync(join(sessions, `${PAIRED_SESSION}.jsonl.reset.2026-05-02T15-00-00.000Z`), written.transcripts[0]!);
  writeFileSync(join(sessions, `${PAIRED_SESSION}.jsonl`), written.transcripts[1]!);
  writeFileSync(join(sessions, `${PAIRED_SESSION}.trajectory.jsonl`), written.sidecar);
}

/** A parent that loops on `npm test`, and a fork of it that begins with copies of the loop: one unit. */
function writeForkFamily(project: string): void {
  mkdirSync(project, { recursive: true });
  const parent = new Conversation("7b1d0c3e").prompt("Make the tests pass");
  for (let i = 1; i <= 12; i++) parent.bash(`toolu_p${i}`, "npm test", "1 failing");
  const shared = parent.entries.length;
  parent.prompt("Now run the linter").bash("toolu_p13", "npm run lint", "ok");
  const fork = new Conversation("9c4e1f20").continueFrom(parent, shared).prompt("Try a different approach").bash("toolu_f1", "git diff", "");
  writeConversation(project, FORK_FAMILY[0], parent);
  writeConversation(project, FORK_FAMILY[1], fork);
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
