/**
 * What a loop cost, end to end (cost.md §4), for the inputs whose turns come from elsewhere than
 * one line per response: OpenHands V0 events (running totals on each action, differenced) in an
 * events folder, a trajectory and an evaluation's `output.jsonl`; OpenClaw runtime trajectories
 * (every `model.completed` snapshot holds the whole conversation again) alone and beside their
 * transcript; and Claude Code forks (the fork's file begins with the parent's entries copied).
 * Random sessions with known usage per turn; the three sums of cost.md §2 checked exactly.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzePaths } from "../helpers/inProcess.js";
import { tempDir } from "../helpers/tempDir.js";
import { check, checkStopping, claudeLines, expectSums, LOOPING_SESSION, sessionArbitrary, total, type Turn } from "../helpers/usageSessions.js";
import { writePairedSession } from "../helpers/pairedSession.js";
import type { Conversation } from "../helpers/openclawTrajectoryBuilder.js";
import { evalOutput } from "../adapters/openhands/evalWriters.js";

const runs = { numRuns: 8 };

// ---- OpenHands V0 ----

/**
 * Money as OpenHands' running totals hold it, in 128ths of a dollar: the adapter differences the
 * totals, and binary fractions subtract (and add) exactly, so the sums can be compared exactly.
 */
const OPENHANDS_MONEY = (t: Turn) => t.cents / 128;

/**
 * A V0 conversation: after the user's task, each turn one response — its actions (one per call,
 * `tool_call_metadata` naming the response) each carrying the agent's `llm_metrics` so far (the
 * same totals on every action of a response: only the first is a change), then the observations;
 * a response without calls is an agent message. Prompt tokens include the cache's, as OpenHands counts them.
 */
function v0History(turns: readonly Turn[]): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  const push = (event: Record<string, unknown>) => {
    const id = events.length;
    events.push({ id, timestamp: new Date(Date.UTC(2025, 0, 20, 20) + id * 1000).toISOString().replace(/Z$/, "000"), ...event });
    return id;
  };
  push({ source: "environment", message: "", observation: "agent_state_changed", content: "", extras: { agent_state: "loading" } });
  push({ source: "user", message: "make the build pass", action: "message", args: { content: "make the build pass", image_urls: [], wait_for_response: false } });
  const running = { cost: 0, prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 };
  let call = 0;
  turns.forEach((t, i) => {
    running.cost += OPENHANDS_MONEY(t);
    running.prompt += t.input + t.cacheRead + t.cacheWrite;
    running.completion += t.output;
    running.cacheRead += t.cacheRead;
    running.cacheWrite += t.cacheWrite;
    const tokens = { model: "claude-sonnet-4", prompt_tokens: running.prompt, completion_tokens: running.completion, cache_read_tokens: running.cacheRead, cache_write_tokens: running.cacheWrite, context_window: 200_000, per_turn_token: 0, response_id: "" };
    const llm_metrics = { accumulated_cost: running.cost, max_budget_per_task: null, accumulated_token_usage: tokens, costs: [], response_latencies: [], token_usages: [] };
    if (t.calls.length === 0) {
      push({ source: "agent", message: "still failing", action: "message", args: { content: "still failing", image_urls: null, wait_for_response: false }, llm_metrics });
      return;
    }
    const response = { id: `chatcmpl-${i}`, choices: [] };
    const calls = t.calls.map((loop) => ({ id: `toolu_${++call}`, command: loop ? "make" : `echo ${call}` }));
    const metadata = (id: string) => ({ function_name: "execute_bash", tool_call_id: id, model_response: response, total_calls_in_response: calls.length });
    const actions = calls.map((c) => push({ source: "agent", message: `Running ${c.command}`, action: "run", tool_call_metadata: metadata(c.id), args: { command: c.command, thought: "", confirmation_state: "confirmed" }, llm_metrics }));
    calls.forEach((c, k) =>
      push({ source: "agent", message: "done", cause: actions[k], observation: "run", tool_call_metadata: metadata(c.id), content: "make: *** [all] Error 1", extras: { command: c.command, metadata: { exit_code: 2, pid: 7 } }, success: false }),
    );
  });
  return events;
}

/** V0's events folder, one event per file (`sessions/<sid>/events/<id>.json`). */
function openhandsEvents(dir: string, turns: readonly Turn[]): string {
  const session = join(dir, "sessions", "0c0ffee0");
  mkdirSync(join(session, "events"), { recursive: true });
  for (const event of v0History(turns)) writeFileSync(join(session, "events", `${event.id as number}.json`), JSON.stringify(event));
  return session;
}

/** A V0 trajectory: the same events as one JSON array. */
function openhandsTrajectory(dir: string, turns: readonly Turn[]): string {
  const path = join(dir, "trajectory.json");
  writeFileSync(path, `${JSON.stringify(v0History(turns), null, 2)}\n`);
  return path;
}

/** An evaluation's `output.jsonl`: one instance whose `history` is the conversation. */
function openhandsEval(dir: string, turns: readonly Turn[]): string {
  const path = join(dir, "output.jsonl");
  writeFileSync(path, evalOutput([{ session: { id: "example__repo-1", runs: [] }, history: v0History(turns) }]));
  return path;
}

// ---- OpenClaw runtime trajectories ----

/** A first run of two turns, so that the checked run's snapshots hold an earlier run's messages too. */
const EARLIER_RUN: Turn[] = [
  { input: 700, output: 30, cacheRead: 0, cacheWrite: 400, cents: 1, calls: [false] },
  { input: 90, output: 60, cacheRead: 400, cacheWrite: 0, cents: 1, calls: [] },
];

/** The turns as the runtime holds them: each assistant message with its usage, each call with its result. */
function converse(c: Conversation, turns: readonly Turn[], prefix: string): void {
  turns.forEach((t, i) => {
    const calls = t.calls.map((loop, k) => ({ id: `${prefix}_${i}_${k}`, name: "process", args: loop ? { action: "poll", sessionId: "build-42" } : { action: "log", sessionId: `x${i}_${k}` } }));
    const message = calls.length === 0 ? c.assistantText("still running") : c.calls(calls);
    message.usage = { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, totalTokens: total(t), cost: { total: t.cents / 100 } };
    for (const call of calls) c.result(call, { kind: "result", text: "running", details: { status: "running" } });
  });
}

/**
 * The session as a 2026.5 runtime leaves it: its transcript and its trajectory sidecar, from one
 * conversation (`lives`: which runs the transcript holds, default both).
 */
function openclawPaired(turns: readonly Turn[], lives?: ReadonlyArray<readonly number[]>) {
  return writePairedSession({
    sessionId: "c05t0000-0000-4000-8000-000000000001",
    sessionKey: "agent:main:main",
    agentId: "main",
    version: "2026.5.2",
    runs: [
      { runId: "run-earlier", prompt: "check the build", work: (c) => converse(c, EARLIER_RUN, "e") },
      { runId: "run-poll", prompt: "deploy and wait", work: (c) => converse(c, turns, "p") },
    ],
  }, lives && { lives });
}

function sessionsFolder(dir: string, files: Record<string, string>): string {
  const folder = join(dir, "agents", "main", "sessions");
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

/** Both runs checked: the earlier one's turns counted once although every later snapshot repeats them. */
async function checkOpenClaw(turns: readonly Turn[], files: (paired: ReturnType<typeof openclawPaired>) => Record<string, string>, lives?: ReadonlyArray<readonly number[]>) {
  const analysis = await analyzePaths([sessionsFolder(tempDir("looplens-usage-"), files(openclawPaired(turns, lives)))]);
  const withUsage = analysis.runs.filter((r) => r.usage !== undefined);
  expect(withUsage).toHaveLength(2);
  expectSums(withUsage[0]!, EARLIER_RUN, true);
  expectSums(withUsage[1]!, turns, true);
  return withUsage[1]!;
}

const SID = "c05t0000-0000-4000-8000-000000000001";

// ---- Claude Code forks ----

const PARENT = "7b1d0c3e-1111-4a2b-9c3d-00000000aa01";
const FORK = "7b1d0c3e-2222-4a2b-9c3d-00000000bb02";

/**
 * A parent session and a fork made of it (`--fork-session`): the fork's file copies the parent's
 * entries (uuids, times, messages and their usage) under its own session id, then goes on with a
 * prompt and turns of its own. Read together, the copied turns add nothing.
 */
async function checkFork(parentTurns: readonly Turn[], forkTurns: readonly Turn[]): Promise<void> {
  const dir = join(tempDir("looplens-usage-"), "projects", "-home-dev-app");
  mkdirSync(dir, { recursive: true });
  const parent = claudeLines(PARENT, parentTurns, "p", { parent: null, n: 0 });
  const copied = parent.map((line) => JSON.stringify({ ...(JSON.parse(line) as Record<string, unknown>), sessionId: FORK }));
  const lastUuid = (JSON.parse(parent.at(-1)!) as { uuid: string }).uuid;
  const fork = [...copied, ...claudeLines(FORK, forkTurns, "f", { parent: lastUuid, n: parent.length })];
  writeFileSync(join(dir, `${PARENT}.jsonl`), `${parent.join("\n")}\n`);
  writeFileSync(join(dir, `${FORK}.jsonl`), `${fork.join("\n")}\n`);
  const analysis = await analyzePaths([dir]);
  const withUsage = analysis.runs.filter((r) => r.usage !== undefined);
  expect(withUsage.map((r) => r.session)).toEqual([PARENT, FORK]);
  expectSums(withUsage[0]!, parentTurns, false);
  expectSums(withUsage[1]!, forkTurns, false);
}

describe("usage sums over generated sessions, more formats (cost.md §4)", () => {
  it("OpenHands V0 events folder: each change of the running totals a turn, money exactly", async () => {
    await checkStopping(openhandsEvents, OPENHANDS_MONEY, runs.numRuns);
  });

  it("OpenHands V0 trajectory (one JSON array)", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary, async (turns) => void (await check(turns, openhandsTrajectory, OPENHANDS_MONEY))), runs);
  });

  it("OpenHands evaluation output.jsonl: an instance's history", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary, async (turns) => void (await check(turns, openhandsEval, OPENHANDS_MONEY))), { ...runs, examples: [[LOOPING_SESSION]] });
  });

  it("OpenClaw runtime trajectory alone: each snapshot message once, an earlier run's not again", async () => {
    let stopped = 0;
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async (turns) => {
        if ((await checkOpenClaw(turns, (p) => ({ [`${SID}.trajectory.jsonl`]: p.sidecar }))).firstStop !== null) stopped++;
      }),
      { ...runs, examples: [[LOOPING_SESSION]] },
    );
    expect(stopped).toBeGreaterThan(0);
  });

  it("OpenClaw transcript read with its sidecar: each turn once", async () => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async (turns) => void (await checkOpenClaw(turns, (p) => ({ [`${SID}.jsonl`]: p.transcripts[0]!, [`${SID}.trajectory.jsonl`]: p.sidecar })))),
      { ...runs, examples: [[LOOPING_SESSION]] },
    );
  });

  it("OpenClaw transcript holding the earlier run, its sidecar the later one: the sidecar's snapshots add only the later run's turns", async () => {
    const files = (p: ReturnType<typeof openclawPaired>) => ({ [`${SID}.jsonl`]: p.transcripts[0]!, [`${SID}.trajectory.jsonl`]: p.sidecar });
    await fc.assert(fc.asyncProperty(sessionArbitrary, async (turns) => void (await checkOpenClaw(turns, files, [[0]]))), { ...runs, examples: [[LOOPING_SESSION]] });
  });

  it("Claude Code fork read with its parent: the copied turns add nothing", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary, sessionArbitrary, async (parent, fork) => checkFork(parent, fork)), { ...runs, examples: [[LOOPING_SESSION, LOOPING_SESSION]] });
  });
});
