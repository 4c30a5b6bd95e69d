/** OpenClaw usage (adapters/openclaw/usage.ts): transcript messages, snapshot messages, a trajectory's run usage. */
import { describe, expect, it } from "vitest";
import { assistantTurnUsage, completedUsage, openclawUsage } from "../../../src/adapters/openclaw/usage.js";

/** An assistant message as a transcript entry (or a store row, or a snapshot) holds it. */
function assistant(usage?: unknown): Record<string, unknown> {
  return {
    role: "assistant",
    content: [{ type: "toolCall", id: "call_1", name: "process", arguments: { action: "poll", sessionId: "job-3" } }],
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5",
    ...(usage !== undefined ? { usage } : {}),
    stopReason: "toolUse",
    timestamp: 1777626003000,
  };
}

const paid = { input: 2_150, output: 96, cacheRead: 14_000, cacheWrite: 310, totalTokens: 16_556, cost: { input: 0.0027, output: 0.00096, cacheRead: 0.0035, cacheWrite: 0.0004, total: 0.00756 } };

describe("openclawUsage", () => {
  it("maps a transcript message's usage, with cost.total as the money", () => {
    expect(openclawUsage(paid)).toEqual({ input: 2_150, output: 96, cacheRead: 14_000, cacheWrite: 310, total: 16_556, cost: 0.00756 });
  });

  it("keeps a local model's zero cost as a recorded zero", () => {
    const local = { input: 17_100, output: 41, cacheRead: 0, cacheWrite: 0, totalTokens: 17_141, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    expect(openclawUsage(local)).toEqual({ input: 17_100, output: 41, cacheRead: 0, cacheWrite: 0, total: 17_141, cost: 0 });
  });

  it("leaves the cost absent when none is recorded, and reads a run usage's `total`", () => {
    expect(openclawUsage({ input: 1_800, output: 120, cacheRead: 0, cacheWrite: 0, totalTokens: 1_920 })).not.toHaveProperty("cost");
    // A run usage's total counts what its parts do not itemise (here the cache reads): it is the total.
    expect(openclawUsage({ input: 63_000, output: 4_200, total: 91_000 })).toEqual({ input: 63_000, output: 4_200, total: 91_000 });
    // No recorded total: the sum of the parts.
    expect(openclawUsage({ input: 5, output: 7 })?.total).toBe(12);
  });

  it("records nothing for what is not a usage object or holds no counts", () => {
    for (const value of [undefined, null, 42, "usage", [], {}, { input: "many" }, { cost: 3 }]) expect(openclawUsage(value)).toBeUndefined();
  });
});

describe("assistantTurnUsage", () => {
  it("makes an assistant message a turn, with or without usage, and nothing else a turn", () => {
    expect(assistantTurnUsage(assistant(paid))?.usage?.total).toBe(16_556);
    expect(assistantTurnUsage(assistant())).toEqual({ usage: undefined });
    expect(assistantTurnUsage({ role: "toolResult", toolCallId: "call_1", toolName: "process", content: [], usage: paid })).toBeUndefined();
    expect(assistantTurnUsage({ role: "user", content: "hi" })).toBeUndefined();
    expect(assistantTurnUsage("assistant")).toBeUndefined();
  });
});

describe("completedUsage", () => {
  const user = { role: "user", content: [{ type: "text", text: "Start the nightly build." }], timestamp: 1777730401000 };

  it("takes the snapshot's messages when any of them records usage", () => {
    const data = { aborted: false, usage: { input: 3_600, output: 240, total: 3_840 }, messagesSnapshot: [user, assistant({ input: 1_800, output: 120, cacheRead: 0, cacheWrite: 0, totalTokens: 1_920 }), assistant()] };
    expect(completedUsage(data)).toEqual({ kind: "messages" });
  });

  it("takes the attempt's usage as one turn when no snapshot message records any", () => {
    expect(completedUsage({ usage: { input: 63_000, output: 4_200, total: 67_200 }, messagesSnapshot: [user, assistant()] })).toEqual({ kind: "run", usage: { input: 63_000, output: 4_200, total: 67_200 } });
    expect(completedUsage({ usage: { input: 10, output: 2, total: 12 } })).toEqual({ kind: "run", usage: { input: 10, output: 2, total: 12 } });
    expect(completedUsage({ aborted: true })).toEqual({ kind: "run", usage: undefined });
  });
});
