/** Codex usage (adapters/codex/usage.ts): token_count's last_token_usage, once per model response. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { codexUsage, tokenCount, TokenCounts } from "../../../src/adapters/codex/usage.js";

interface Counts {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}
const usage = (c: Counts) => ({ input_tokens: c.input, cached_input_tokens: c.cached, output_tokens: c.output, reasoning_output_tokens: c.reasoning, total_tokens: c.input + c.output });

/** The payload of an `event_msg` `token_count` line as a 0.47-era rollout writes it. */
function tokenCountPayload(last: Counts, running: Counts): Record<string, unknown> {
  return {
    type: "token_count",
    info: { total_token_usage: usage(running), last_token_usage: usage(last), model_context_window: 272_000 },
    rate_limits: { primary: { used_percent: 2.0, window_minutes: 299, resets_in_seconds: 9_000 }, secondary: null },
  };
}

describe("codexUsage", () => {
  it("takes the cached tokens out of the input, counts reasoning inside output, and keeps the total", () => {
    expect(codexUsage(usage({ input: 5_200, cached: 4_900, output: 140, reasoning: 64 }))).toEqual({ input: 300, output: 140, cacheRead: 4_900, total: 5_340 });
  });

  it("takes cache writes (newer builds) out of the input too, never below zero", () => {
    expect(codexUsage({ input_tokens: 16_000, cached_input_tokens: 3_500, cache_write_input_tokens: 500, output_tokens: 80, reasoning_output_tokens: 60, total_tokens: 16_080 })).toEqual({ input: 12_000, output: 80, cacheRead: 3_500, cacheWrite: 500, total: 16_080 });
    expect(codexUsage({ input_tokens: 10, cached_input_tokens: 30, output_tokens: 1, total_tokens: 11 })?.input).toBe(0);
  });

  it("records nothing without counts", () => {
    expect(codexUsage({})).toBeUndefined();
    expect(codexUsage(null)).toBeUndefined();
  });
});

describe("tokenCount", () => {
  it("carries nothing when info is null", () => {
    expect(tokenCount({ type: "token_count", info: null, rate_limits: {} })).toEqual({ kind: "none" });
    expect(tokenCount({ type: "token_count", info: { total_token_usage: usage({ input: 1, cached: 0, output: 1, reasoning: 0 }) } })).toEqual({ kind: "none" });
  });
});

describe("TokenCounts", () => {
  it("makes one turn per response: the repeated token_count of the same response adds nothing", () => {
    const first = { input: 4_990, cached: 0, output: 108, reasoning: 64 };
    const second = { input: 5_153, cached: 4_992, output: 139, reasoning: 64 };
    const runningAfterSecond = { input: 10_143, cached: 4_992, output: 247, reasoning: 128 };
    const counts = new TokenCounts();
    const lines = [
      { type: "token_count", info: null },
      tokenCountPayload(first, first),
      tokenCountPayload(first, first),
      tokenCountPayload(second, runningAfterSecond),
      tokenCountPayload(second, runningAfterSecond),
    ];
    const turns = lines.map((payload) => counts.next(payload));
    expect(turns.map((turn) => turn?.usage?.total)).toEqual([undefined, 5_098, undefined, 5_292, undefined]);
    expect(turns.filter((turn) => turn !== undefined)).toHaveLength(2);
  });

  it("counts every line when no running total is recorded to tell a repeat", () => {
    const counts = new TokenCounts();
    const payload = { type: "token_count", info: { last_token_usage: usage({ input: 10, cached: 0, output: 2, reasoning: 0 }) } };
    expect([counts.next(payload), counts.next(payload)].map((turn) => turn?.usage?.total)).toEqual([12, 12]);
  });

  it("takes a running total that went down (a new session's counters) as a new turn", () => {
    const counts = new TokenCounts();
    const a = { input: 900, cached: 0, output: 100, reasoning: 0 };
    const b = { input: 400, cached: 0, output: 50, reasoning: 0 };
    expect([counts.next(tokenCountPayload(a, a)), counts.next(tokenCountPayload(b, b)), counts.next(tokenCountPayload(a, a))].map((t) => t?.usage?.total)).toEqual([1_000, 450, 1_000]);
  });
});

describe("TokenCounts over generated rollouts", () => {
  it("sums to the known usage of every response, each written once or twice", () => {
    const response = fc.record({ input: fc.integer({ min: 1, max: 20_000 }), cachedShare: fc.double({ min: 0, max: 1, noNaN: true }), output: fc.nat(3_000), twice: fc.boolean() });
    fc.assert(
      fc.property(fc.array(response, { maxLength: 30 }), (responses) => {
        const running = { input: 0, cached: 0, output: 0, reasoning: 0 };
        const counts = new TokenCounts();
        let total = 0;
        let turns = 0;
        for (const r of responses) {
          const last = { input: r.input, cached: Math.floor(r.input * r.cachedShare), output: r.output, reasoning: Math.floor(r.output / 2) };
          running.input += last.input;
          running.cached += last.cached;
          running.output += last.output;
          running.reasoning += last.reasoning;
          for (let k = 0; k < (r.twice ? 2 : 1); k++) {
            const turn = counts.next(tokenCountPayload(last, { ...running }));
            if (turn) {
              turns++;
              total += turn.usage!.total!;
            }
          }
        }
        expect(turns).toBe(responses.length);
        expect(total).toBe(running.input + running.output);
      }),
    );
  });
});
