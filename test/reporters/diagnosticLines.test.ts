import { describe, expect, it } from "vitest";
import { diagnosticKind, diagnosticLines } from "../../src/reporters/diagnosticLines.js";

const at = (line: number, reason: string, file = "a.jsonl") => ({ file, line, reason });

describe("diagnosticLines", () => {
  it("one kind per reason with numbers and quoted input left out; each kind's first shown with its count", () => {
    const shown = [
      at(3, 'line too long (40000000 bytes, over the 32 MiB limit; it begins "{\\"a\\""); not read'),
      at(4, "not valid JSON"),
      at(9, 'line too long (50000001 bytes, over the 32 MiB limit; it begins "[1,2"); not read', "b.jsonl"),
      at(12, "not valid JSON"),
      at(13, "not valid JSON"),
    ];
    expect(diagnosticKind(shown[0]!.reason)).toBe(diagnosticKind(shown[2]!.reason));
    expect(diagnosticKind(shown[0]!.reason)).not.toBe(diagnosticKind(shown[1]!.reason));
    expect(diagnosticLines(shown, 5, false)).toEqual([
      `a.jsonl:3: ${shown[0]!.reason} (and 1 more like it)`,
      "a.jsonl:4: not valid JSON (and 2 more like it)",
      "looplens: 5 diagnostics of 2 kinds, the first of each shown (looplens analyze --verbose shows every one; --format json lists them)",
    ]);
  });

  it("diagnostics of different kinds are shown as they are, with no closing line; --verbose shows every one", () => {
    const shown = [at(1, "not valid JSON"), at(2, "tool_call without a tool name")];
    expect(diagnosticLines(shown, 2, false)).toEqual(["a.jsonl:1: not valid JSON", "a.jsonl:2: tool_call without a tool name"]);
    const same = [at(1, "not valid JSON"), at(2, "not valid JSON")];
    expect(diagnosticLines(same, 2, true)).toEqual(["a.jsonl:1: not valid JSON", "a.jsonl:2: not valid JSON"]);
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
