/**
 * OpenHands usage (adapters/openhands/usage.ts): accumulated metrics (V0 llm_metrics, V1 stats
 * updates) as deltas between records, with restarts and missing fields; V0 responses' own usage.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { accumulatedMetrics, AccumulatedUsage, responseUsage } from "../../../src/adapters/openhands/usage.js";
import { addUsage, EMPTY_SUM, type Usage, type UsageSum } from "../../../src/core/usage.js";

interface Running {
  cost: number;
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A Metrics object as OpenHands serialises it (V0 `llm_metrics`, each entry of V1 `usage_to_metrics`). */
function metrics(r: Partial<Running>, model = "litellm_proxy/claude-sonnet-4"): Record<string, unknown> {
  const tokens: Record<string, unknown> = { model, context_window: 200_000, per_turn_token: 0, response_id: "" };
  if (r.prompt !== undefined) tokens.prompt_tokens = r.prompt;
  if (r.completion !== undefined) tokens.completion_tokens = r.completion;
  if (r.cacheRead !== undefined) tokens.cache_read_tokens = r.cacheRead;
  if (r.cacheWrite !== undefined) tokens.cache_write_tokens = r.cacheWrite;
  return { model_name: model, ...(r.cost !== undefined ? { accumulated_cost: r.cost } : {}), max_budget_per_task: null, accumulated_token_usage: tokens, costs: [], response_latencies: [], token_usages: [] };
}

/** A V1 stats update with one entry per LLM. */
function statsEvent(byLlm: Record<string, Partial<Running>>): Record<string, unknown> {
  const usage_to_metrics = Object.fromEntries(Object.entries(byLlm).map(([id, r]) => [id, metrics(r)]));
  return { id: "e1", timestamp: "2026-06-16T05:39:50.000000", source: "environment", key: "stats", value: { usage_to_metrics }, kind: "ConversationStateUpdateEvent" };
}

/** A V0 action carrying the agent's metrics so far. */
function v0Action(r: Partial<Running>): Record<string, unknown> {
  return { id: 9, timestamp: "2025-01-20T20:29:48.925379", source: "agent", message: "Running command", action: "run", args: { command: "ls" }, llm_metrics: metrics(r) };
}

function deltas(events: Record<string, unknown>[]): Usage[] {
  const tracker = new AccumulatedUsage();
  return events.flatMap((event) => {
    const snapshot = accumulatedMetrics(event);
    return snapshot === undefined ? [] : tracker.next(snapshot);
  });
}

describe("AccumulatedUsage", () => {
  it("makes each change of a V0 agent's running totals a turn", () => {
    const turns = deltas([
      v0Action({ cost: 0.5, prompt: 1_000, completion: 100, cacheRead: 0, cacheWrite: 900 }),
      // The same totals again (a second action of the same response): no turn.
      v0Action({ cost: 0.5, prompt: 1_000, completion: 100, cacheRead: 0, cacheWrite: 900 }),
      v0Action({ cost: 0.75, prompt: 2_200, completion: 160, cacheRead: 900, cacheWrite: 1_150 }),
    ]);
    expect(turns).toEqual([
      { input: 100, output: 100, cacheRead: 0, cacheWrite: 900, total: 1_100, cost: 0.5 },
      { input: 50, output: 60, cacheRead: 900, cacheWrite: 250, total: 1_260, cost: 0.25 },
    ]);
  });

  it("gives one turn per V1 LLM whose totals changed (the condenser is a model too)", () => {
    const turns = deltas([
      statsEvent({ default: { cost: 0, prompt: 596, completion: 775, cacheRead: 0, cacheWrite: 0 }, condenser: { cost: 0, prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 } }),
      statsEvent({ default: { cost: 0, prompt: 35_895, completion: 960, cacheRead: 1_115, cacheWrite: 0 }, condenser: { cost: 0, prompt: 3_000, completion: 200, cacheRead: 0, cacheWrite: 0 } }),
    ]);
    expect(turns).toEqual([
      { input: 596, output: 775, cacheRead: 0, cacheWrite: 0, total: 1_371, cost: 0 },
      { input: 34_184, output: 185, cacheRead: 1_115, cacheWrite: 0, total: 35_484, cost: 0 },
      { input: 3_000, output: 200, cacheRead: 0, cacheWrite: 0, total: 3_200, cost: 0 },
    ]);
  });

  it("starts again from zero when the totals go down (counters restarted), never negative", () => {
    const turns = deltas([v0Action({ cost: 2, prompt: 5_000, completion: 500 }), v0Action({ cost: 0.1, prompt: 300, completion: 20 })]);
    expect(turns[1]).toEqual({ input: 300, output: 20, total: 320, cost: 0.1 });
  });

  it("leaves a field a record lacks absent for that turn, and compares the next record with the last that had it", () => {
    const turns = deltas([v0Action({ cost: 1, prompt: 1_000, completion: 100 }), v0Action({ prompt: 1_500, completion: 150 }), v0Action({ cost: 1.5, prompt: 1_600, completion: 160 })]);
    expect(turns).toEqual([
      { input: 1_000, output: 100, total: 1_100, cost: 1 },
      { input: 500, output: 50, total: 550 },
      { input: 100, output: 10, total: 110, cost: 0.5 },
    ]);
  });

  it("sums to the last running totals over any sequence of growing totals", () => {
    const step = fc.record({ cost: fc.integer({ min: 0, max: 400 }), prompt: fc.nat(50_000), completion: fc.nat(4_000), cacheRead: fc.nat(30_000), cacheWrite: fc.nat(3_000) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const running = { cost: 0, prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 };
        const events = steps.map((s) => {
          // Cached prompt tokens are part of the prompt count, as LiteLLM records them.
          running.cost += s.cost / 1_000;
          running.prompt += s.prompt + s.cacheRead + s.cacheWrite;
          running.completion += s.completion;
          running.cacheRead += s.cacheRead;
          running.cacheWrite += s.cacheWrite;
          return v0Action({ ...running });
        });
        const sum: UsageSum = deltas(events).reduce<UsageSum>(addUsage, EMPTY_SUM);
        // A step that changed nothing is no turn; every other one is one.
        expect(sum.turns).toBe(steps.filter((s) => s.cost + s.prompt + s.completion + s.cacheRead + s.cacheWrite > 0).length);
        expect(sum.total ?? 0).toBe(running.prompt + running.completion);
        expect(sum.cacheRead ?? 0).toBe(running.cacheRead);
        expect(sum.cost ?? 0).toBeCloseTo(running.cost, 9);
      }),
    );
  });
});

describe("accumulatedMetrics", () => {
  it("reads V0 llm_metrics under `default` and V1 stats by LLM, and nothing from other events", () => {
    expect([...accumulatedMetrics(v0Action({ cost: 1, prompt: 10 }))!.keys()]).toEqual(["default"]);
    expect([...accumulatedMetrics(statsEvent({ default: { prompt: 1 }, condenser: { prompt: 0 } }))!.keys()]).toEqual(["default", "condenser"]);
    expect(accumulatedMetrics({ kind: "ConversationStateUpdateEvent", key: "execution_status", value: "running" })).toBeUndefined();
    expect(accumulatedMetrics({ kind: "ActionEvent", tool_name: "terminal" })).toBeUndefined();
    expect(accumulatedMetrics({ id: 3, action: "run", llm_metrics: { accumulated_token_usage: "n/a" } })).toBeUndefined();
  });
});

describe("responseUsage", () => {
  /** A V0 action whose tool_call_metadata holds LiteLLM's response. */
  const action = (usage: unknown, id: unknown = "chatcmpl-7f1") => ({
    id: 7,
    source: "agent",
    action: "run",
    tool_call_metadata: { function_name: "execute_bash", tool_call_id: "toolu_01", model_response: { id, model: "claude-3-5-sonnet-20241022", object: "chat.completion", choices: [], usage }, total_calls_in_response: 1 },
    args: { command: "ls" },
  });

  it("maps LiteLLM's usage: the prompt count includes cache reads and writes", () => {
    const usage = { completion_tokens: 1_142, prompt_tokens: 3_601, total_tokens: 4_743, completion_tokens_details: null, prompt_tokens_details: { audio_tokens: null, cached_tokens: 3_435 }, cache_creation_input_tokens: 160, cache_read_input_tokens: 3_435 };
    expect(responseUsage(action(usage))).toEqual({ id: "chatcmpl-7f1", usage: { input: 6, output: 1_142, cacheRead: 3_435, cacheWrite: 160, total: 4_743 } });
  });

  it("falls back to prompt_tokens_details for cache reads, and gives the id without usage", () => {
    expect(responseUsage(action({ prompt_tokens: 500, completion_tokens: 20, total_tokens: 520, prompt_tokens_details: { cached_tokens: 400 } }))?.usage).toEqual({ input: 100, output: 20, cacheRead: 400, total: 520 });
    expect(responseUsage(action(undefined, null))).toEqual({ id: undefined, usage: undefined });
    expect(responseUsage({ id: 4, source: "user", action: "message" })).toBeUndefined();
  });
});
