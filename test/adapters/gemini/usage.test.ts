/** Gemini CLI usage (adapters/gemini/usage.ts): a gemini record's tokens, normalised so the parts add up. */
import { describe, expect, it } from "vitest";
import { geminiTurn, geminiUsage } from "../../../src/adapters/gemini/usage.js";

/** A `gemini` message record as a JSONL recording writes it. */
function geminiRecord(tokens: unknown, id: string | null = "g-2"): Record<string, unknown> {
  return {
    ...(id !== null ? { id } : {}),
    timestamp: "2026-04-29T21:40:02.000Z",
    type: "gemini",
    content: "",
    thoughts: [],
    tokens,
    model: "gemini-2.5-pro",
    toolCalls: [{ id: "read_file_1", name: "read_file", args: { absolute_path: "/repo/README.md" }, status: "success", timestamp: "2026-04-29T21:40:03.000Z" }],
  };
}

describe("geminiUsage", () => {
  it("takes cached tokens out of the input, adds tool-use prompt tokens to it and thoughts to the output", () => {
    const tokens = { input: 8_200, output: 90, cached: 6_100, thoughts: 70, tool: 40, total: 8_400 };
    const usage = geminiUsage(tokens)!;
    expect(usage).toEqual({ input: 2_140, output: 160, cacheRead: 6_100, total: 8_400 });
    // The normalised parts add up to the recorded total.
    expect(usage.input! + usage.output! + usage.cacheRead!).toBe(usage.total);
  });

  it("reads what is there when fields are missing, and records nothing without counts", () => {
    expect(geminiUsage({ input: 100, output: 5 })).toEqual({ input: 100, output: 5, total: 105 });
    expect(geminiUsage({ thoughts: 12 })).toEqual({ output: 12, total: 12 });
    expect(geminiUsage({ input: 10, cached: 50, output: 1, total: 11 })?.input).toBe(0);
    expect(geminiUsage({})).toBeUndefined();
    expect(geminiUsage("lots")).toBeUndefined();
  });
});

describe("geminiTurn", () => {
  it("makes a gemini record a turn known by its id, and no other record a turn", () => {
    expect(geminiTurn(geminiRecord({ input: 0, output: 0, cached: 0, thoughts: 0, tool: 0, total: 0 }))).toEqual({ id: "g-2", usage: { input: 0, output: 0, cacheRead: 0, total: 0 } });
    expect(geminiTurn(geminiRecord(undefined, null))).toEqual({ id: undefined, usage: undefined });
    expect(geminiTurn({ id: "u-1", type: "user", content: [{ text: "hi" }] })).toBeUndefined();
    expect(geminiTurn({ id: "i-1", type: "info", content: "Saved.", tokens: { total: 5 } })).toBeUndefined();
  });
});
