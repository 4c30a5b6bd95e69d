/**
 * The pool replaces strings of worker results by equal ones (pipeline/stringPool.ts): a result must
 * read the same afterwards, in every field, and the repeated strings of its pooled fields must then
 * be one object each, which only a count of the heap's strings can see (test/helpers/heapStrings.ts).
 */
import { describe, expect, it } from "vitest";
import { StringPool } from "../../src/pipeline/stringPool.js";
import { stringCopiesAfter } from "../helpers/heapStrings.js";

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

const POOL = new URL("../../src/pipeline/stringPool.ts", import.meta.url).pathname;
const PATH = "/state/agents/main/sessions/8f0e2c4a-6f5b-4d1e-9a57-3c2d1b0e9f88.jsonl";

/**
 * Strings of `results` results, each with the path in `runs` runs, as a worker's messages bring
 * them (structured clone writes every string out: one object per occurrence), kept alive.
 */
function cloned(results: number, pooled: boolean): string {
  return `async ({ StringPool }) => {
    const pool = new StringPool();
    const path = ["/state/agents/main/sessions/", "8f0e2c4a-6f5b-4d1e-9a57-3c2d1b0e9f88", ".jsonl"];
    const kept = [];
    for (let i = 0; i < ${results}; i++) {
      const message = structuredClone({ runs: [{ file: path.join(""), run: "r" + i }, { file: path.join(""), run: "s" + i }], unpooled: { message: path.join("") } });
      kept.push(${pooled} ? pool.internIn(message) : message);
    }
    return kept;
  }`;
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

  it("keeps one copy of a pooled field's string however many results repeat it", async () => {
    // Unpooled, each result holds three copies (two runs' `file`, one `message`): the count sees them.
    expect(await stringCopiesAfter(POOL, cloned(10, false), PATH)).toBe(30);
    // Pooled: one copy for every `file`; `message` is no pooled field, so each result keeps its own.
    expect(await stringCopiesAfter(POOL, cloned(10, true), PATH)).toBe(1 + 10);
  });
});
