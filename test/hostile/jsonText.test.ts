/** The machine-output writer: same text as JSON.stringify, at any depth, with nothing a terminal acts on. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iterativeStringify, jsonText } from "../../src/reporters/jsonText.js";
import { TERMINAL_UNSAFE } from "./harness.js";

describe("jsonText", () => {
  it("the explicit-stack writer produces exactly JSON.stringify's text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("", "  "), (value, indent) => {
        expect(iterativeStringify(value, indent)).toBe(JSON.stringify(value, null, indent));
      }),
      { numRuns: 300 },
    );
    const sparse = { a: undefined, b: [undefined, 1], c: { d: undefined } };
    expect(iterativeStringify(sparse, "")).toBe(JSON.stringify(sparse));
  });

  it("writes 50 000-deep values without overflowing the stack", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 50_000; i++) deep = i % 2 ? { a: deep } : [deep];
    const text = jsonText(deep);
    expect(text.length).toBe(50_000 * 2 + 25_000 * 4 + '"leaf"'.length);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
    // Pretty output indents the first levels and writes the rest compact (indenting is quadratic).
    const pretty = jsonText({ deep }, "  ");
    expect(pretty.split("\n").length).toBeLessThan(205);
    expect(jsonText(JSON.parse(pretty))).toBe(jsonText({ deep }));
    expect(pretty.startsWith('{\n  "deep": {\n    "a": [\n')).toBe(true);
  });

  it("escapes DEL, C1 and bidi controls so a terminal sees text, while readers get the same data", () => {
    const hostile = { tool: "a\u009b31mb\u202ec\u007f\u0085", run: "\u001b]52;c;ZXZpbA==\u0007", "k\u2066": "\u2028" };
    const text = jsonText(hostile);
    expect(TERMINAL_UNSAFE.test(text)).toBe(false);
    expect(text).toContain("\\u009b31m");
    expect(JSON.parse(text)).toEqual(hostile);
  });
});
