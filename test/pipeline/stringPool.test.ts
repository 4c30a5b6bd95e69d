/**
 * The pool replaces strings of worker results by equal ones (pipeline/stringPool.ts): whatever it
 * does, a result must read the same afterwards, in every field, pooled or not.
 */
import { describe, expect, it } from "vitest";
import { StringPool } from "../../src/pipeline/stringPool.js";

function result(session: string, runs: number) {
  return {
    files: [{ file: `/state/${session}.jsonl`, format: "openclaw-session" }],
    runs: Array.from({ length: runs }, (_, i) => ({
      run: `${session}#${i + 1}`,
      agent: "main",
      session,
      file: `/state/${session}.jsonl`,
      startedAt: `2026-04-0${(i % 9) + 1}T00:00:00.000Z`,
      profile: { profile: "configurable", reason: "default" },
      findings: [{ tool: "read", detector: "generic_repeat", level: "warning", threshold: { name: "warningThreshold", value: 10 }, message: `WARNING ${i}` }],
    })),
    lines: { read: 3, used: 2, ignored: 1, skipped: 0 },
  };
}

describe("StringPool", () => {
  it("leaves every result as it was, the object itself included", () => {
    const pool = new StringPool();
    for (const session of ["a", "b", "a"]) {
      const value = result(session, 5);
      const before = structuredClone(value);
      expect(pool.internIn(value)).toBe(value);
      expect(value).toEqual(before);
    }
  });

  it("keeps values that are not strings, and strings in arrays, as they were", () => {
    const value = { kind: "x", counts: [1, 2, 3], names: ["tool", "tool"], nested: { name: null, path: 7, deep: [{ agent: "ops" }] } };
    const before = structuredClone(value);
    new StringPool().internIn(value);
    expect(value).toEqual(before);
  });
});
