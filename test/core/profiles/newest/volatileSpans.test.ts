/** Masking of volatile spans (generations.md §4 rule 5): the spec's five replacements, in order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskVolatileSpans } from "../../../../src/core/profiles/newest/volatileSpans.js";

/** The rule as the spec states it: every pattern replaced in order, none skipped. */
const SPEC_PATTERNS = [
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})?/gi,
  /\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?/g,
  /\b(?:attempt|retry)[\s#:=]*\d+/gi,
  /\b\d+(?:\.\d+)? ?(?:seconds?|minutes?|hours?|ns|us|ms|s)\b/g,
  /\b(?:ppid|pid)[\s#:=]*\d+/gi,
];
const bySpec = (output: string) => SPEC_PATTERNS.reduce((text, pattern) => text.replace(pattern, "#"), output);

// Pieces the patterns are made of, and chars near their edges (case variants, word chars, non-ASCII
// letters that case-map oddly: İ lower-cases to two chars, K (Kelvin) to an ASCII k, ſ upper-cases to S).
const PIECES = [
  ..."0123456789",
  "2026",
  "-",
  ":",
  ".",
  "T",
  "t",
  " ",
  "\n",
  "\u00a0",
  "Z",
  "z",
  "+",
  "#",
  "=",
  "_",
  "x",
  "attempt",
  "ATTEMPT",
  "aTtEmPt",
  "retry",
  "Retry",
  "pid",
  "PPID",
  "pId",
  "ms",
  "s",
  "seconds",
  "minute",
  "hours",
  "ns",
  "us",
  "İ",
  "\u212a",
  "ſ",
  "é",
  "数",
  "2026-05-01T10:00:00.123Z",
  "10:00:01",
  "5:",
  ":00",
  "00",
  "1.5s",
];
const outputs = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(""));

describe("maskVolatileSpans", () => {
  it("masks date-times, clock times, counters, durations and pids, each as #", () => {
    expect(maskVolatileSpans("2026-05-01T10:00:00.123Z attempt 1 pid=4242 after 1.5s at 10:00:01: refused")).toBe("# # # after # at #: refused");
    expect(maskVolatileSpans("5:00:01 up, retry:\t7, PPID 12, 3 seconds")).toBe("# up, #, #, #");
  });

  it("leaves a bare date, an errno and other wording as they are", () => {
    for (const output of ["build of 2026-05-01 failed", "errno 13", "connection refused", "attempt failed", "pid unknown"]) {
      expect(maskVolatileSpans(output)).toBe(output);
    }
  });

  it("applies the passes in order: an earlier mask decides what a later pattern sees", () => {
    // The date-time goes first, so the counter has no count left to take.
    expect(maskVolatileSpans("attempt 2026-05-01T10:00:00")).toBe("attempt #");
    // Masking the counter leaves `pid # 4`, whose count the pid pattern then takes.
    expect(maskVolatileSpans("pid attempt 3 4")).toBe(bySpec("pid attempt 3 4"));
    // A masked date-time leaves a word boundary before a duration that had none.
    expect(maskVolatileSpans("x2026-05-01T10:00:00Z5ms")).toBe(bySpec("x2026-05-01T10:00:00Z5ms"));
  });

  it("is the spec's five replacements on any output", () => {
    fc.assert(
      fc.property(outputs, (output) => {
        expect(maskVolatileSpans(output)).toBe(bySpec(output));
      }),
      { numRuns: 3000 },
    );
  });
});
