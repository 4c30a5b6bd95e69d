/**
 * The Codex fixtures (fixtures/agents/codex, written in the shapes of the real 0.47.0 rollout and
 * the 0.146 schema fixture): what each yields — calls, results linked, runs, compactions — and the
 * finding each feature is there for.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Analysis } from "../../../src/pipeline/analysis.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { readEvents } from "../../../src/pipeline/analysis.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzePaths } from "../../helpers/inProcess.js";

const DIR = join(import.meta.dirname, "../../../fixtures/agents/codex");
const SUB = "subagent/rollout-2026-01-02T03-04-05-019a7777-0000-7000-8000-000000000007.jsonl";

interface Yield {
  calls: number;
  results: number;
  runs: number;
  compactions: number;
}

async function yieldOf(name: string): Promise<{ analysis: Analysis; events: LoopEvent[]; figures: Yield }> {
  const path = join(DIR, name);
  const analysis = await analyzePaths([path]);
  const events: LoopEvent[] = [];
  await readEvents([path], await loadXxhashDigest(), {}, (event) => void events.push(event as LoopEvent));
  const callIds = new Set(events.filter((e) => e.type === "tool_call").map((e) => (e as { id?: string }).id));
  const figures = {
    calls: analysis.runs.reduce((n, r) => n + r.calls, 0),
    results: events.filter((e) => e.type === "tool_result" && callIds.has(e.id)).length,
    runs: analysis.runs.length,
    compactions: analysis.runs.reduce((n, r) => n + r.compactions, 0),
  };
  return { analysis, events, figures };
}

const detectors = (a: Analysis) => [...new Set(a.runs.flatMap((r) => [...r.findings].map((f) => `${f.detector}:${f.level}`)))].sort();

describe("Codex fixtures", () => {
  const expected: Record<string, Yield> = {
    "loop-0.47.jsonl": { calls: 21, results: 21, runs: 2, compactions: 0 },
    "ping-pong-0.146.jsonl": { calls: 24, results: 24, runs: 1, compactions: 0 },
    "errors-0.47.jsonl": { calls: 12, results: 12, runs: 1, compactions: 0 },
    "unknown-tool-0.146.jsonl": { calls: 11, results: 11, runs: 1, compactions: 0 },
    "compaction-0.146.jsonl": { calls: 6, results: 6, runs: 1, compactions: 1 },
    "parallel-0.146.jsonl": { calls: 13, results: 12, runs: 2, compactions: 0 },
    [SUB]: { calls: 11, results: 11, runs: 1, compactions: 0 },
    "fork-copies-0.146.jsonl": { calls: 3, results: 3, runs: 2, compactions: 0 },
    "bad-lines-0.47.jsonl": { calls: 1, results: 1, runs: 1, compactions: 0 },
  };
  for (const [name, figures] of Object.entries(expected)) {
    it(`${name} yields ${JSON.stringify(figures)}, every line accounted for`, async () => {
      const { analysis, figures: got } = await yieldOf(name);
      expect(got).toEqual(figures);
      const { read, used, ignored, skipped } = analysis.lines;
      expect(read).toBe(used + ignored + skipped);
      expect(analysis.runs.every((r) => r.agent?.startsWith("codex"))).toBe(true);
    });
  }

  it("a loop: the same shell call and output, warned at 10 and blocked at 20; a 0.47 run without calls still counts", async () => {
    const { analysis, events } = await yieldOf("loop-0.47.jsonl");
    expect(detectors(analysis)).toEqual(["generic_repeat:critical", "generic_repeat:warning"]);
    expect(analysis.runs[1]!.calls).toBe(0);
    // durations are dropped from the details: identical results hash alike
    const details = events.filter((e) => e.type === "tool_result").map((e) => JSON.stringify((e as { result?: { details?: unknown } }).result?.details));
    expect(new Set(details)).toEqual(new Set(['{"exit_code":0}']));
    expect(events.filter((e) => e.type === "tool_call").every((e) => e.format === "codex")).toBe(true);
  });

  it("ping-pong between two shell commands", async () => {
    expect(detectors((await yieldOf("ping-pong-0.146.jsonl")).analysis)).toEqual(["ping_pong:critical", "ping_pong:warning"]);
  });

  it("errors: a non-zero exit_code is an error outcome with the output text; a plain-text patch failure is a result", async () => {
    const { analysis, events } = await yieldOf("errors-0.47.jsonl");
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.filter((e) => "error" in e).map((e) => e.error)).toEqual(Array(11).fill("1 failed\n"));
    expect(results.at(-1)).toMatchObject({ result: { content: [{ text: expect.stringMatching(/^apply_patch verification failed/) }] } });
    expect(detectors(analysis)).toEqual(["generic_repeat:warning"]);
  });

  it("an unknown tool: Codex's own 'unsupported call' names it, and the unknown-tool guard blocks at 10", async () => {
    const { analysis, events } = await yieldOf("unknown-tool-0.146.jsonl");
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ error: "unsupported call: browser_open", unknownTool: "browser_open" });
    expect(detectors(analysis)).toEqual(["unknown_tool_repeat:critical"]);
  });

  it("compacted + its context_compacted echo are one compaction; the repeated call after it aborts", async () => {
    const { analysis } = await yieldOf("compaction-0.146.jsonl");
    expect(analysis.runs[0]!.firstStop).toEqual({ kind: "abort", call: 5 });
    expect(detectors(analysis)).toEqual(["compaction_loop_persisted:abort"]);
  });

  it("parallel calls are replayed one by one in response order, each followed by its own output", async () => {
    const { events } = await yieldOf("parallel-0.146.jsonl");
    const order = events.filter((e) => e.type === "tool_call" || e.type === "tool_result").map((e) => `${e.type === "tool_call" ? "c" : "r"}${e.id}`);
    const pairs = order.slice(0, 24);
    for (let i = 0; i < pairs.length; i += 2) expect(pairs[i]!.slice(1)).toBe(pairs[i + 1]!.slice(1));
    expect(order.at(-1)).toMatch(/^c/); // the aborted turn's last call never got an output
  });

  it("a sub-agent's rollout is its own session, attributed to codex/<nickname>", async () => {
    const { analysis } = await yieldOf(SUB);
    expect(analysis.runs.map((r) => [r.agent, r.session])).toEqual([["codex/scout", "019a7777-0000-7000-8000-000000000007"]]);
    expect(detectors(analysis)).toEqual(["generic_repeat:warning"]);
  });

  it("copied items (same call_id written again) are replayed once and counted as copies", async () => {
    const { analysis } = await yieldOf("fork-copies-0.146.jsonl");
    expect(analysis.transcript.copies).toBe(4);
    expect(analysis.runs.map((r) => r.run)).toEqual(["019a8888-0000-7000-8000-000000000008-turn-1", "019a8888-0000-7000-8000-000000000008-turn-2"]);
  });

  it("bad lines are skipped with a reason and the rest is read", async () => {
    const { analysis } = await yieldOf("bad-lines-0.47.jsonl");
    expect(analysis.lines.skipped).toBe(6);
    const reasons = analysis.diagnostics.map((d) => d.reason).join("\n");
    for (const why of ["not valid JSON", "not a JSON object", "unknown rollout item type", 'without a "name"', 'without a "call_id"', "truncated last line"]) expect(reasons).toContain(why);
  });
});
