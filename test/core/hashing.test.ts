/**
 * Args hashing (update_plan normalization) and the generic result rules of detection.md "Hashing":
 * non-object results, absent vs null, the loop veto, and {details, text}.
 */
import { describe, expect, it } from "vitest";
import { hashing } from "../helpers/replay.js";

const argsHash = (tool: string, args: unknown) => hashing.argsHash(tool, args, "text");
const resultHash = (tool: string, value: unknown, args: unknown = {}) =>
  hashing.outcomeHash(tool, args, { kind: "result", value }, "text").resultHash;
const content = (...texts: string[]) => texts.map((text) => ({ type: "text", text }));

describe("args hash", () => {
  it("is the tool name, a colon and a digest of the arguments", () => {
    expect(argsHash("read", { path: "a" })).toMatch(/^read:/);
    expect(argsHash("read", { path: "a" })).not.toBe(argsHash("write", { path: "a" }));
    expect(argsHash("read", { path: "a" })).not.toBe(argsHash("read", { path: "b" }));
  });

  it("ignores key order at every depth", () => {
    expect(argsHash("x", { a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } })).toBe(
      argsHash("x", { b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 }),
    );
  });

  it("keeps array order significant", () => {
    expect(argsHash("x", { a: [1, 2] })).not.toBe(argsHash("x", { a: [2, 1] }));
  });
});

describe("update_plan normalization", () => {
  const plan = (steps: Array<Record<string, unknown>>, explanation?: unknown) => ({
    plan: steps,
    ...(explanation !== undefined ? { explanation } : {}),
  });

  it("rewording steps or the explanation is not progress", () => {
    const a = plan([{ step: "write tests", status: "in_progress" }, { step: "ship", status: "pending" }], "first try");
    const b = plan([{ step: "Write the unit tests", status: "in_progress" }, { step: "release", status: "pending" }], "again");
    expect(argsHash("update_plan", a)).toBe(argsHash("update_plan", b));
  });

  it("a status change, a new step, a blank step or an explanation appearing is a change", () => {
    const base = argsHash("update_plan", plan([{ step: "a", status: "pending" }]));
    expect(argsHash("update_plan", plan([{ step: "a", status: "completed" }]))).not.toBe(base);
    expect(argsHash("update_plan", plan([{ step: "a", status: "pending" }, { step: "b", status: "pending" }]))).not.toBe(base);
    expect(argsHash("update_plan", plan([{ step: "   ", status: "pending" }]))).not.toBe(base);
    expect(argsHash("update_plan", plan([{ step: "a", status: "pending" }], "why"))).not.toBe(base);
  });

  it("blank means JavaScript trim: a blank explanation or step counts as absent", () => {
    const none = argsHash("update_plan", plan([{ status: "pending" }]));
    expect(argsHash("update_plan", plan([{ step: " \t\n\uFEFF", status: "pending" }], "  "))).toBe(none);
    // \x1c-\x1f are not whitespace to String.prototype.trim, so such a step is present.
    expect(argsHash("update_plan", plan([{ step: "\x1c", status: "pending" }]))).not.toBe(none);
    // A non-string step or explanation is not present either.
    expect(argsHash("update_plan", plan([{ step: 5, status: "pending" }], 42))).toBe(none);
  });

  it("only update_plan is normalized", () => {
    expect(argsHash("plan", plan([{ step: "a" }]))).not.toBe(argsHash("plan", plan([{ step: "b" }])));
  });

  it("its result hashes the normalized details with empty text", () => {
    const outcome = (steps: string[], text: string) =>
      resultHash("update_plan", { content: content(text), details: plan(steps.map((step) => ({ step, status: "pending" }))) });
    expect(outcome(["a", "b"], "Plan updated")).toBe(outcome(["x", "y"], "Plan changed!"));
    expect(outcome(["a", "b"], "Plan updated")).not.toBe(outcome(["a"], "Plan updated"));
  });
});

describe("results that are not plain objects", () => {
  it("are digested as they are", () => {
    expect(resultHash("read", "ok")).toBe(resultHash("read", "ok"));
    expect(resultHash("read", "ok")).not.toBe(resultHash("read", "ko"));
    expect(resultHash("read", [1, 2])).not.toBe(resultHash("read", [2, 1]));
    expect(resultHash("read", 7)).not.toBe(resultHash("read", "7"));
  });

  it("a null result is hashed; only an absent result has no hash", () => {
    expect(resultHash("read", null)).toEqual(expect.any(String));
    expect(resultHash("read", null)).not.toBe(resultHash("read", "null"));
    expect(hashing.outcomeHash("read", {}, { kind: "result", value: undefined }, "text")).toEqual({});
  });
});

describe("the loop detector's own veto", () => {
  const veto = { content: content("blocked"), details: { status: "blocked", deniedReason: "tool-loop" } };

  it("has no hash, whatever the tool", () => {
    for (const tool of ["read", "exec", "process", "message"]) {
      expect(hashing.outcomeHash(tool, { action: "poll" }, { kind: "result", value: veto }, "text")).toEqual({ veto: true });
    }
  });

  it("needs both the blocked status and the tool-loop reason", () => {
    expect(resultHash("read", { details: { status: "blocked", deniedReason: "policy" } })).toEqual(expect.any(String));
    expect(resultHash("read", { details: { status: "denied", deniedReason: "tool-loop" } })).toEqual(expect.any(String));
    // A veto-looking object at the top level is not details.
    expect(resultHash("read", { status: "blocked", deniedReason: "tool-loop" })).toEqual(expect.any(String));
  });
});

describe("the generic {details, text} rule", () => {
  it("joins the text of every content entry with a string type and string text, trimmed", () => {
    const joined = resultHash("read", { content: content("a\nb") });
    expect(resultHash("read", { content: content("  a", "b \n") })).toBe(joined);
    // Any string type counts, not only "text".
    expect(resultHash("read", { content: [{ type: "image", text: "a" }, { type: "text", text: "b" }] })).toBe(joined);
    // Entries without a string type or string text, and non-objects, are left out.
    expect(
      resultHash("read", { content: [...content("a"), { text: "x" }, { type: 1, text: "y" }, { type: "text", text: 3 }, "z", null, ...content("b")] }),
    ).toBe(joined);
  });

  it("treats content that is not an array as no text", () => {
    expect(resultHash("read", { content: "text" })).toBe(resultHash("read", {}));
    expect(resultHash("read", { content: content("") })).toBe(resultHash("read", {}));
  });

  it("uses details only when it is a plain object", () => {
    const none = resultHash("read", { content: content("x") });
    for (const details of [null, "str", [1], 3]) expect(resultHash("read", { content: content("x"), details })).toBe(none);
    expect(resultHash("read", { content: content("x"), details: {} })).toBe(none);
    expect(resultHash("read", { content: content("x"), details: { size: 1 } })).not.toBe(none);
  });

  it("ignores other keys of the result", () => {
    expect(resultHash("read", { content: content("x"), meta: 1 })).toBe(resultHash("read", { content: content("x"), meta: 2 }));
  });

  it("distinguishes text from details", () => {
    expect(resultHash("read", { content: content("x") })).not.toBe(resultHash("read", { content: content("y") }));
    expect(resultHash("read", { details: { a: "x" } })).not.toBe(resultHash("read", { details: { a: "y" } }));
  });
});
