/** Usage on canonical events (adapters/events/usage.ts): validation, and one turn per turn id. */
import { describe, expect, it } from "vitest";
import { callUsage } from "../../../src/adapters/events/usage.js";

const call = (extra: Record<string, unknown>) => ({ type: "tool_call", run: "r1", id: "c1", tool: "exec", args: { command: "make" }, ...extra });

describe("callUsage", () => {
  it("takes the normalised fields as given, the total from the parts when absent", () => {
    expect(callUsage(call({ usage: { input: 1_200, output: 80, cacheRead: 0, cacheWrite: 0, total: 1_280, cost: 0.0042 }, turn: "t1" }), "text")).toEqual({
      ok: true,
      usage: { input: 1_200, output: 80, cacheRead: 0, cacheWrite: 0, total: 1_280, cost: 0.0042 },
      turn: "t1",
    });
    expect(callUsage(call({ usage: { input: 10, output: 5 } }), "text")).toEqual({ ok: true, usage: { input: 10, output: 5, total: 15 }, turn: undefined });
    expect(callUsage(call({ turn: 7 }), "text")).toEqual({ ok: true, usage: undefined, turn: "7" });
    expect(callUsage(call({ usage: null, turn: "  t2 " }), "text")).toEqual({ ok: true, usage: undefined, turn: "t2" });
  });

  it.each([
    [{ usage: "lots" }, '"usage" is not an object'],
    [{ usage: [1, 2] }, '"usage" is not an object'],
    [{ usage: { input: -3 } }, '"usage.input" is not a token count'],
    [{ usage: { output: 2.5 } }, '"usage.output" is not a token count'],
    [{ usage: { total: "12" } }, '"usage.total" is not a token count'],
    [{ usage: { cost: -0.01 } }, '"usage.cost" is not an amount'],
    [{ usage: { cost: null } }, '"usage.cost" is not an amount'],
    [{ turn: "  " }, '"turn" is not a non-blank string or a number'],
    [{ turn: { id: 1 } }, '"turn" is not a non-blank string or a number'],
  ])("gives a reason, not a throw, for %j", (extra, reason) => {
    const parsed = callUsage(call(extra), "text");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });

  it("ignores unknown usage fields with a notice", () => {
    const parsed = callUsage(call({ usage: { input: 4, outptu: 9 } }), "text");
    expect(parsed).toMatchObject({ ok: true, usage: { input: 4, total: 4 } });
    expect(parsed.ok && parsed.notice).toContain('"outptu"');
  });
});
