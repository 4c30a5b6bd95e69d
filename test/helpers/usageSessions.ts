/**
 * Sessions with known usage per turn, for the differential checks of cost.md §4
 * (test/pipeline/usageSums*.test.ts): the turns, random sessions of them, the three sums of
 * cost.md §2 by their definitions, and the check of an analysed run against them.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { ReplayedRun } from "../../src/core/findings.js";
import { addUsage, EMPTY_SUM, type UsageSum } from "../../src/core/usage.js";
import { analyzePaths } from "./inProcess.js";
import { tempDir } from "./tempDir.js";

/** One model turn: its usage parts (money in cents, so that sums of it are exact) and its calls (`true`: the looping call). */
export interface Turn {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly cents: number;
  readonly calls: readonly boolean[];
}

export const turnArbitrary: fc.Arbitrary<Turn> = fc.record({
  input: fc.nat({ max: 5000 }),
  output: fc.nat({ max: 900 }),
  cacheRead: fc.nat({ max: 60_000 }),
  cacheWrite: fc.nat({ max: 2000 }),
  cents: fc.nat({ max: 40 }),
  // Mostly the looping call (so that runs reach warnings and stops), some other calls, some final answers.
  calls: fc.array(fc.boolean().map((b) => b || Math.random() < 0.6), { maxLength: 3 }),
});

/** A session: one run of turns, long enough to loop; the last turn a final answer. */
export const sessionArbitrary = fc.array(turnArbitrary, { minLength: 5, maxLength: 45 }).map((turns) => [...turns, { ...turns[0]!, calls: [] }]);

/** Thirty turns of two polls each that never progress, then a final answer: blocked at call 20. */
export const LOOPING_SESSION: Turn[] = [
  ...Array.from({ length: 30 }, (): Turn => ({ input: 1200, output: 40, cacheRead: 300, cacheWrite: 20, cents: 3, calls: [true, true] })),
  { input: 900, output: 200, cacheRead: 0, cacheWrite: 0, cents: 2, calls: [] },
];

export const total = (t: Turn) => t.input + t.output + t.cacheRead + t.cacheWrite;

/**
 * What a turn's money is in a format: `true`, its cents as dollars (as OpenClaw records them);
 * `false`, none recorded; a function, another exact figure (OpenHands' running totals are
 * differenced, so their money is written in binary fractions that subtract exactly).
 */
export type Money = boolean | ((t: Turn) => number);

/** The three sums by cost.md §2's definitions, from the known turns and what replay flagged. */
export function expected(turns: readonly Turn[], run: ReplayedRun, money: Money): { spent: UsageSum; onFlagged: UsageSum; afterStop: UsageSum } {
  const cost = money === true ? (t: Turn) => t.cents / 100 : money === false ? undefined : money;
  const usage = (t: Turn) => ({ total: total(t), ...(cost && { cost: cost(t) }) });
  const callsOf: number[][] = [];
  let ordinal = 0;
  for (const t of turns) callsOf.push(t.calls.map(() => ++ordinal));
  const flagged = new Set([...run.findings].map((f) => f.call));
  const stopTurn = run.firstStop === null ? Infinity : callsOf.findIndex((calls) => calls.includes(run.firstStop!.call));
  const sum = (pick: (i: number) => boolean) => turns.reduce<UsageSum>((s, t, i) => (pick(i) ? addUsage(s, usage(t)) : s), EMPTY_SUM);
  return { spent: sum(() => true), onFlagged: sum((i) => callsOf[i]!.some((c) => flagged.has(c))), afterStop: sum((i) => i > stopTurn) };
}

/** The figures compared: turns, total tokens, money. */
export const figures = (sum: UsageSum | undefined) => sum && { turns: sum.turns, total: sum.total, cost: sum.cost };

/** Checks a run's three sums against the turns it was written from. */
export function expectSums(run: ReplayedRun, turns: readonly Turn[], money: Money): void {
  const want = expected(turns, run, money);
  expect([figures(run.usage), figures(run.usageOnFlagged), figures(run.usageAfterStop)]).toEqual([figures(want.spent), figures(want.onFlagged), figures(want.afterStop)]);
}

/**
 * Writes the turns (`write` returns the path to analyse), analyses it as a user would, and checks
 * the three sums of its one run that recorded usage; returns that run.
 */
export async function check(turns: readonly Turn[], write: (dir: string, turns: readonly Turn[]) => string, money: Money): Promise<ReplayedRun> {
  const analysis = await analyzePaths([write(tempDir("looplens-usage-"), turns)]);
  const runs = analysis.runs.filter((r) => r.usage !== undefined);
  expect(runs).toHaveLength(1);
  expectSums(runs[0]!, turns, money);
  return runs[0]!;
}

/**
 * `check` over random sessions, a session that surely stops among them (random ones may all stay
 * under the thresholds), and at least one that stopped: so that the after-stop sum was checked on
 * runs that stop, not only on empty ones.
 */
export async function checkStopping(write: (dir: string, turns: readonly Turn[]) => string, money: Money, numRuns: number): Promise<void> {
  let stopped = 0;
  await fc.assert(
    fc.asyncProperty(sessionArbitrary, async (turns) => {
      if ((await check(turns, write, money)).firstStop !== null) stopped++;
    }),
    { numRuns, examples: [[LOOPING_SESSION]] },
  );
  expect(stopped).toBeGreaterThan(0);
}

/** Lines of a Claude Code session: its prompt, then each turn one response streamed over lines (partial counts first). */
export function claudeLines(session: string, turns: readonly Turn[], tag: string, start: { parent: string | null; n: number }): string[] {
  const lines: string[] = [];
  let leaf = start.parent;
  let n = start.n;
  const push = (entry: Record<string, unknown>) => {
    // Real-shaped uuids: the fork is recognised by them (made-up placeholder ids are not a family).
    const uuid = `${tag === "p" ? "5a1e0000" : "f0c40000"}-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}`;
    lines.push(JSON.stringify({ parentUuid: leaf, isSidechain: false, sessionId: session, version: "2.1.3", cwd: "/home/dev/app", ...entry, uuid, timestamp: new Date(Date.UTC(2026, 4, 2) + n * 1000).toISOString() }));
    leaf = uuid;
  };
  push({ type: "user", message: { role: "user", content: `run the tests until they pass (${tag})` } });
  let call = 0;
  turns.forEach((t, i) => {
    const usage = { input_tokens: t.input, output_tokens: t.output, cache_read_input_tokens: t.cacheRead, cache_creation_input_tokens: t.cacheWrite };
    const message = (content: unknown[], last: boolean) => ({ type: "assistant", message: { id: `msg_${tag}_${i}`, role: "assistant", content, usage: last ? usage : { ...usage, output_tokens: 1 } } });
    const ids = t.calls.map(() => `toolu_${tag}_${++call}`);
    push(message([{ type: "text", text: "checking" }], t.calls.length === 0));
    t.calls.forEach((loop, k) => push(message([{ type: "tool_use", id: ids[k], name: "Bash", input: { command: loop ? "npm test" : `echo ${ids[k]}` } }], k === t.calls.length - 1)));
    t.calls.forEach((_, k) => push({ type: "user", message: { role: "user", content: [{ tool_use_id: ids[k], type: "tool_result", content: "1 failing" }] } }));
  });
  return lines;
}
