import { describe, expect, it } from "vitest";
import { keptPrompt, MAX_PROMPT_CHARS, mergeFacts, outcomeText } from "../../src/core/runIdentity.js";

describe("run identity", () => {
  it("merges what several files say of a run: earliest start, latest end, first prompt and channel, last model and outcome", () => {
    const earlier = { startedAt: "2026-05-01T09:00:05.000Z", endedAt: "2026-05-01T09:00:09.000Z", prompt: "first", channel: "cron", model: "a" };
    const later = { startedAt: "2026-05-01T09:00:01.000Z", endedAt: "2026-05-01T09:00:30.000Z", prompt: "second", channel: "telegram direct", model: "b", outcome: { kind: "aborted" } as const };
    expect(mergeFacts(earlier, later)).toEqual({ startedAt: "2026-05-01T09:00:01.000Z", endedAt: "2026-05-01T09:00:30.000Z", prompt: "first", channel: "cron", model: "b", outcome: { kind: "aborted" } });
    expect(mergeFacts(undefined, later)).toBe(later);
    expect(mergeFacts({ model: "a" }, { prompt: "p" })).toEqual({ model: "a", prompt: "p" });
  });

  it("keeps a prompt trimmed and bounded, and no blank one", () => {
    expect(keptPrompt("  hi \n")).toBe("hi");
    expect(keptPrompt(" \n\t")).toBeUndefined();
    expect(keptPrompt("x".repeat(MAX_PROMPT_CHARS * 3))).toHaveLength(MAX_PROMPT_CHARS);
  });

  it("says how a run ended in a few words", () => {
    expect(outcomeText({ kind: "stopped", reason: "end_turn" })).toBe("end_turn");
    expect(outcomeText({ kind: "error", message: "400 context too long" })).toBe("error: 400 context too long");
    expect(outcomeText({ kind: "aborted" })).toBe("aborted");
    expect(outcomeText({ kind: "timeout" })).toBe("timeout");
  });
});
