/**
 * What a loop cost, end to end (cost.md §4, the differential check): random sessions with known
 * usage per turn, written in every format that records usage (OpenClaw transcripts, with a backup
 * or an archive holding the same entries; Claude Code, each response streamed over several lines whose early ones
 * carry partial counts; Codex, with the repeated token_count it writes; Gemini CLI; canonical
 * events), analysed as a user would, and the three sums of cost.md §2 checked exactly against the
 * known turns: spent, on flagged calls (the run's findings), after the first stop (its first stop).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ReplayedRun } from "../../src/core/findings.js";
import { addUsage, EMPTY_SUM, mergeSums, type UsageSum } from "../../src/core/usage.js";
import { analyzePaths } from "../helpers/inProcess.js";
import { RolloutBuilder } from "../adapters/codex/rolloutBuilder.js";
import { tempDir } from "../helpers/tempDir.js";

/** One model turn: its usage parts (money in cents, so that sums of it are exact) and its calls (`true`: the looping call). */
interface Turn {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly cents: number;
  readonly calls: readonly boolean[];
}

const turnArbitrary: fc.Arbitrary<Turn> = fc.record({
  input: fc.nat({ max: 5000 }),
  output: fc.nat({ max: 900 }),
  cacheRead: fc.nat({ max: 60_000 }),
  cacheWrite: fc.nat({ max: 2000 }),
  cents: fc.nat({ max: 40 }),
  // Mostly the looping call (so that runs reach warnings and stops), some other calls, some final answers.
  calls: fc.array(fc.boolean().map((b) => b || Math.random() < 0.6), { maxLength: 3 }),
});

/** A session: one run of turns, long enough to loop; the last turn a final answer. */
const sessionArbitrary = fc.array(turnArbitrary, { minLength: 5, maxLength: 45 }).map((turns) => [...turns, { ...turns[0]!, calls: [] }]);

/** Thirty turns of two polls each that never progress, then a final answer: blocked at call 20. */
const LOOPING_SESSION: Turn[] = [
  ...Array.from({ length: 30 }, (): Turn => ({ input: 1200, output: 40, cacheRead: 300, cacheWrite: 20, cents: 3, calls: [true, true] })),
  { input: 900, output: 200, cacheRead: 0, cacheWrite: 0, cents: 2, calls: [] },
];

const total = (t: Turn) => t.input + t.output + t.cacheRead + t.cacheWrite;

/** The three sums by cost.md §2's definitions, from the known turns and what replay flagged. */
function expected(turns: readonly Turn[], run: ReplayedRun, withCost: boolean): { spent: UsageSum; onFlagged: UsageSum; afterStop: UsageSum } {
  const usage = (t: Turn) => ({ total: total(t), ...(withCost && { cost: t.cents / 100 }) });
  const callsOf: number[][] = [];
  let ordinal = 0;
  for (const t of turns) callsOf.push(t.calls.map(() => ++ordinal));
  const flagged = new Set([...run.findings].map((f) => f.call));
  const stopTurn = run.firstStop === null ? Infinity : callsOf.findIndex((calls) => calls.includes(run.firstStop!.call));
  const sum = (pick: (i: number) => boolean) => turns.reduce<UsageSum>((s, t, i) => (pick(i) ? addUsage(s, usage(t)) : s), EMPTY_SUM);
  return { spent: sum(() => true), onFlagged: sum((i) => callsOf[i]!.some((c) => flagged.has(c))), afterStop: sum((i) => i > stopTurn) };
}

/** The figures compared: turns, total tokens, money. */
const figures = (sum: UsageSum | undefined) => sum && { turns: sum.turns, total: sum.total, cost: sum.cost };

async function check(turns: readonly Turn[], write: (dir: string, turns: readonly Turn[]) => string, withCost: boolean): Promise<ReplayedRun> {
  const path = write(tempDir("looplens-usage-"), turns);
  const analysis = await analyzePaths([path]);
  const runs = analysis.runs.filter((r) => r.usage !== undefined);
  expect(runs).toHaveLength(1);
  const run = runs[0]!;
  const want = expected(turns, run, withCost);
  expect([figures(run.usage), figures(run.usageOnFlagged), figures(run.usageAfterStop)]).toEqual([figures(want.spent), figures(want.onFlagged), figures(want.afterStop)]);
  return run;
}

// ---- writers, one per format ----

function openclaw(dir: string, turns: readonly Turn[]): string {
  const folder = join(dir, "agents", "main", "sessions");
  mkdirSync(folder, { recursive: true });
  const entries: string[] = [JSON.stringify({ type: "session", version: 3, id: "s-cost", timestamp: "2026-05-02T09:00:00.000Z", cwd: "/w" })];
  let n = 0;
  let parent: string | null = null;
  const add = (message: Record<string, unknown>) => {
    const id = `e${++n}`;
    entries.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(Date.UTC(2026, 4, 2, 9) + n * 1000).toISOString(), message: { ...message, timestamp: 1000 + n } }));
    parent = id;
  };
  add({ role: "user", content: [{ type: "text", text: "deploy and wait" }] });
  let call = 0;
  for (const t of turns) {
    const ids = t.calls.map(() => `c${++call}`);
    const usage = { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, totalTokens: total(t), cost: { total: t.cents / 100 } };
    const content = t.calls.length === 0 ? [{ type: "text", text: "still running" }] : t.calls.map((loop, k) => ({ type: "toolCall", id: ids[k], name: "process", arguments: loop ? { action: "poll", sessionId: "build-42" } : { action: "log", sessionId: `x${ids[k]}` } }));
    add({ role: "assistant", content, usage });
    t.calls.forEach((_, k) => add({ role: "toolResult", toolCallId: ids[k], toolName: "process", content: [{ type: "text", text: "running" }], details: { status: "running" }, isError: false }));
  }
  // A backup holding every entry again: read after the live file, it adds nothing.
  writeFileSync(join(folder, "s-cost.jsonl.bak-1-1777712400000"), `${entries.join("\n")}\n`);
  writeFileSync(join(folder, "s-cost.jsonl"), `${entries.join("\n")}\n`);
  return folder;
}

/** The same session with an archive of an earlier life holding its first half (the runs split where the live file takes over). */
function openclawArchive(dir: string, turns: readonly Turn[]): string {
  const folder = openclaw(dir, turns);
  const live = readFileSync(join(folder, "s-cost.jsonl"), "utf8").trimEnd().split("\n");
  writeFileSync(join(folder, "s-cost.jsonl.reset.2026-05-02T08-00-00.000Z"), `${live.slice(0, Math.ceil(live.length / 2)).join("\n")}\n`);
  return folder;
}

function claudeCode(dir: string, turns: readonly Turn[]): string {
  const lines: string[] = [];
  let n = 0;
  let leaf: string | null = null;
  const push = (entry: Record<string, unknown>) => {
    const uuid = `u-${++n}`;
    lines.push(JSON.stringify({ parentUuid: leaf, isSidechain: false, sessionId: "00000000-0000-4000-8000-00000000c0de", version: "2.0.24", ...entry, uuid, timestamp: new Date(Date.UTC(2026, 4, 2) + n * 1000).toISOString() }));
    leaf = uuid;
  };
  push({ type: "user", message: { role: "user", content: "run the tests until they pass" } });
  let call = 0;
  turns.forEach((t, i) => {
    const usage = { input_tokens: t.input, output_tokens: t.output, cache_read_input_tokens: t.cacheRead, cache_creation_input_tokens: t.cacheWrite };
    const message = (content: unknown[], last: boolean) => ({ type: "assistant", message: { id: `msg-${i}`, role: "assistant", content, usage: last ? usage : { ...usage, output_tokens: 1 } } });
    // One response streamed over lines: a text line with partial counts, then one line per call.
    const ids = t.calls.map(() => `toolu_${++call}`);
    push(message([{ type: "text", text: "checking" }], t.calls.length === 0));
    t.calls.forEach((loop, k) => push(message([{ type: "tool_use", id: ids[k], name: "Bash", input: { command: loop ? "npm test" : `echo ${ids[k]}` } }], k === t.calls.length - 1)));
    t.calls.forEach((_, k) => push({ type: "user", message: { role: "user", content: [{ tool_use_id: ids[k], type: "tool_result", content: "1 failing" }] } }));
  });
  const path = join(dir, "cost.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function codex(dir: string, turns: readonly Turn[]): string {
  const rollout = new RolloutBuilder("019fc8be-3658-7ca3-9e29-00000000c0de", "0.146");
  rollout.userTurn("fix the build");
  let call = 0;
  const running = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  for (const t of turns) {
    const specs = t.calls.map((loop) => ({ id: `call-${++call}`, name: "shell", args: { command: loop ? ["make"] : ["echo", String(call)] } }));
    for (const spec of specs) rollout.call(spec);
    // Codex counts cached prompt tokens inside input_tokens, and writes no cache writes.
    const last = { input_tokens: t.input + t.cacheRead, cached_input_tokens: t.cacheRead, output_tokens: t.output, total_tokens: t.input + t.cacheRead + t.output };
    for (const key of Object.keys(running) as Array<keyof typeof running>) running[key] += last[key];
    const count = { type: "token_count", info: { total_token_usage: { ...running }, last_token_usage: last } };
    rollout.push("event_msg", count);
    // Codex writes the same count again around a response: it is no new turn.
    rollout.push("event_msg", count);
    for (const spec of specs) rollout.output(spec, { text: "make: *** [all] Error 1" });
  }
  rollout.endTurn();
  const path = join(dir, "rollout-2026-05-02T10-00-00-019fc8be-3658-7ca3-9e29-00000000c0de.jsonl");
  writeFileSync(path, rollout.text());
  return path;
}

function gemini(dir: string, turns: readonly Turn[]): string {
  const lines = [JSON.stringify({ sessionId: "gemini-cost", projectHash: "0b7d", startTime: "2026-04-29T21:39:22.319Z", lastUpdated: "2026-04-29T21:39:22.319Z", kind: "main" })];
  lines.push(JSON.stringify({ id: "u-1", timestamp: "2026-04-29T21:39:23.000Z", type: "user", content: [{ text: "list the files" }] }));
  let call = 0;
  turns.forEach((t, i) => {
    const ts = new Date(Date.UTC(2026, 3, 29, 22) + i * 1000).toISOString();
    const toolCalls = t.calls.map((loop) => {
      const id = `call-${++call}`;
      const name = "run_shell_command";
      return { id, name, args: { command: loop ? "ls -F" : `echo ${id}` }, result: [{ functionResponse: { id, name, response: { output: "Output: a.txt" } } }], status: "success", timestamp: ts };
    });
    // Gemini counts cached prompt tokens inside input.
    const tokens = { input: t.input + t.cacheRead, output: t.output, cached: t.cacheRead, thoughts: 0, tool: 0, total: t.input + t.cacheRead + t.output };
    const record = { id: `g-${i}`, timestamp: ts, type: "gemini", content: "", thoughts: [], tokens, model: "gemini-3-flash-preview", ...(toolCalls.length > 0 && { toolCalls }) };
    // A record with calls is written again while they run: its last copy counts, once.
    if (toolCalls.length > 0) lines.push(JSON.stringify({ ...record, toolCalls: toolCalls.map((c) => ({ ...c, status: "executing", result: undefined })) }));
    lines.push(JSON.stringify(record));
  });
  const path = join(dir, "session-2026-04-29T21-39-abcd1234.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function events(dir: string, turns: readonly Turn[]): string {
  const lines: string[] = [];
  let call = 0;
  turns.forEach((t, i) => {
    const usage = { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, cost: t.cents / 100 };
    if (t.calls.length === 0) lines.push(JSON.stringify({ type: "turn", run: "r1", turn: `t${i}`, usage }));
    for (const loop of t.calls) {
      const id = `c${++call}`;
      // Every call of the turn repeats its usage: counted once.
      lines.push(JSON.stringify({ type: "tool_call", run: "r1", id, tool: "process", args: loop ? { action: "poll", sessionId: "p9" } : { action: "log", sessionId: id }, turn: `t${i}`, usage }));
      lines.push(JSON.stringify({ type: "tool_result", run: "r1", id, tool: "process", result: { content: [{ type: "text", text: "running" }], details: { status: "running" } } }));
    }
  });
  const path = join(dir, "events.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** Tokens only, for the formats that record no money (expected figures without `cost`). */
const noCacheWrite = (turns: readonly Turn[]) => turns.map((t) => ({ ...t, cacheWrite: 0 }));

describe("usage sums over generated sessions (cost.md §4)", () => {
  const runs = { numRuns: 12 };

  it("OpenClaw transcripts, a backup holding the same entries: every turn once, money as recorded", async () => {
    let stopped = 0;
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async (turns) => {
        if ((await check(turns, openclaw, true)).firstStop !== null) stopped++;
      }),
      // Twelve random sessions may all stay under the thresholds: one that surely stops is among them.
      { ...runs, examples: [[LOOPING_SESSION]] },
    );
    // The sessions loop: the after-stop sum was checked on runs that stop, not only on empty ones.
    expect(stopped).toBeGreaterThan(0);
  });

  it("OpenClaw archive and live file holding the same entries: the session's turns counted once over its runs", async () => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async (turns) => {
        const analysis = await analyzePaths([openclawArchive(tempDir("looplens-usage-"), turns)]);
        const spent = analysis.runs.reduce<UsageSum>((sum, run) => mergeSums(sum, run.usage ?? EMPTY_SUM), EMPTY_SUM);
        expect({ turns: spent.turns, total: spent.total }).toEqual({ turns: turns.length, total: turns.reduce((sum, t) => sum + total(t), 0) });
      }),
      runs,
    );
  });

  it("Claude Code: one turn per message.id, the last streamed line's usage", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary, async (turns) => void (await check(turns, claudeCode, false))), runs);
  });

  it("Codex: one turn per token_count, repeats dropped", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary.map(noCacheWrite), async (turns) => void (await check(turns, codex, false))), runs);
  });

  it("Gemini CLI: one turn per gemini record, its last copy", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary.map(noCacheWrite), async (turns) => void (await check(turns, gemini, false))), runs);
  });

  it("canonical events: usage on calls counted once per turn id, turn events for final answers", async () => {
    await fc.assert(fc.asyncProperty(sessionArbitrary, async (turns) => void (await check(turns, events, true))), runs);
  });
});
