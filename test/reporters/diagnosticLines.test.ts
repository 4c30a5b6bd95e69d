import { describe, expect, it } from "vitest";
import { diagnosticKind, diagnosticLines } from "../../src/reporters/diagnosticLines.js";

const at = (line: number, reason: string, file = "a.jsonl") => ({ file, line, reason });

describe("diagnosticLines", () => {
  it("one kind per reason with numbers and quoted input left out; a kind of more than 3 shown by its first, with its count", () => {
    const long = (line: number, bytes: number, head: string, file?: string) => at(line, `line too long (${bytes} bytes, over the 32 MiB limit; it begins ${JSON.stringify(head)}); not read`, file);
    const shown = [
      long(3, 40000000, '{"a"'),
      at(4, "not valid JSON"),
      long(9, 50000001, "[1,2", "b.jsonl"),
      at(12, "not valid JSON"),
      long(10, 33554433, "x", "b.jsonl"),
      long(11, 33554434, "y\u0000", "c.jsonl"),
    ];
    expect(diagnosticKind(shown[0]!.reason)).toBe(diagnosticKind(shown[2]!.reason));
    expect(diagnosticKind(shown[0]!.reason)).not.toBe(diagnosticKind(shown[1]!.reason));
    expect(diagnosticLines(shown, 6, false)).toEqual([
      `a.jsonl:3: ${shown[0]!.reason} (and 3 more like it)`,
      "a.jsonl:4: not valid JSON",
      "a.jsonl:12: not valid JSON",
      "looplens: 6 diagnostics of 2 kinds, the first of each shown (looplens analyze --verbose shows every one; --format json lists them)",
    ]);
  });

  it("diagnostics of different kinds are shown as they are, with no closing line; --verbose shows every one", () => {
    const shown = [at(1, "not valid JSON"), at(2, "tool_call without a tool name")];
    expect(diagnosticLines(shown, 2, false)).toEqual(["a.jsonl:1: not valid JSON", "a.jsonl:2: tool_call without a tool name"]);
    const same = [1, 2, 3, 4].map((line) => at(line, "not valid JSON"));
    expect(diagnosticLines(same, 4, true)).toEqual(same.map(({ line }) => `a.jsonl:${line}: not valid JSON`));
    expect(diagnosticLines(same.slice(0, 3), 3, false)).toEqual(same.slice(0, 3).map(({ line }) => `a.jsonl:${line}: not valid JSON`));
    expect(diagnosticLines([], 0, false)).toEqual([]);
  });

  it("past 20 kinds the rest are counted; more made than kept is said", () => {
    const shown = Array.from({ length: 25 }, (_, i) => at(i + 1, `unknown event type ${"x".repeat(i + 1)}`));
    const lines = diagnosticLines(shown, 1200, false);
    expect(lines).toHaveLength(22);
    expect(lines[20]).toBe("… and 5 more kinds");
    expect(lines[21]).toBe("looplens: 1200 diagnostics (25 kept) of 25 kinds, the first of each shown (looplens analyze --verbose shows every one; --format json lists them)");
    expect(diagnosticLines(shown, 1200, true).at(-1)).toBe("looplens: 1200 diagnostics in all (25 kept); --format json lists the kept ones");
  });

  it("strips control characters from what the input wrote", () => {
    const [line] = diagnosticLines([at(1, "bad \u001b[31mred\u0007", "\u001b]0;title\u0007x.jsonl")], 1, false);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(line).toContain("x.jsonl:1: bad");
  });
});
