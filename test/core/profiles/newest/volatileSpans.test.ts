/** Masking of volatile spans (generations.md §4 rule 5): the spec's five replacements, in order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toBytes } from "../../../../src/core/byteText.js";
import { maskVolatileSpans } from "../../../../src/core/profiles/newest/volatileSpans.js";
import { NON_ASCII_SPACES } from "../../../helpers/whiteSpace.js";

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

/**
 * Non-ASCII chars `\s` does not match whose UTF-8 is close to a space's: à ends in the byte A0 (as
 * U+00A0 does), ⠀ (U+2800) is E2 A0 80, Â and â are the bytes C2 and E2 folded by case, and U+0085,
 * U+180E and U+200B are spaces elsewhere but not to JavaScript.
 */
const NEAR_SPACES = ["à", "\u2800", "Â", "â", "\u0085", "\u180e", "\u200b", "\u2027", "\u3001", "\ufeff\u0301", "🚀"];
/** Outputs where a counter or pid is followed by white space of every kind, among other non-ASCII text. */
const nonAsciiOutputs = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NON_ASCII_SPACES) }, { weight: 1, arbitrary: fc.constantFrom(...NEAR_SPACES) }, { weight: 4, arbitrary: fc.constantFrom(...PIECES) }), {
    maxLength: 40,
  })
  .map((pieces) => pieces.join(""));

describe("maskVolatileSpans", () => {
  it("masks date-times, clock times, counters, durations and pids, each as #", () => {
    expect(maskVolatileSpans("2026-05-01T10:00:00.123Z attempt 1 pid=4242 after 1.5s at 10:00:01: refused", "text")).toBe("# # # after # at #: refused");
    expect(maskVolatileSpans("5:00:01 up, retry:\t7, PPID 12, 3 seconds", "text")).toBe("# up, #, #, #");
  });

  it("leaves a bare date, an errno and other wording as they are", () => {
    for (const output of ["build of 2026-05-01 failed", "errno 13", "connection refused", "attempt failed", "pid unknown"]) {
      expect(maskVolatileSpans(output, "text")).toBe(output);
    }
  });

  it("applies the passes in order: an earlier mask decides what a later pattern sees", () => {
    // The date-time goes first, so the counter has no count left to take.
    expect(maskVolatileSpans("attempt 2026-05-01T10:00:00", "text")).toBe("attempt #");
    // Masking the counter leaves `pid # 4`, whose count the pid pattern then takes.
    expect(maskVolatileSpans("pid attempt 3 4", "text")).toBe(bySpec("pid attempt 3 4"));
    // A masked date-time leaves a word boundary before a duration that had none.
    expect(maskVolatileSpans("x2026-05-01T10:00:00Z5ms", "text")).toBe(bySpec("x2026-05-01T10:00:00Z5ms"));
  });

  it("masks an output read as a byte string as its text: the same spans, whatever the white space", () => {
    expect(maskVolatileSpans(toBytes("pid\u00a04242 and attempt\u3000#3"), "bytes")).toBe(toBytes("# and #"));
    fc.assert(
      fc.property(nonAsciiOutputs, (output) => {
        expect(maskVolatileSpans(toBytes(output), "bytes")).toBe(toBytes(maskVolatileSpans(output, "text")));
      }),
      { numRuns: 3000 },
    );
  });

  it("is the spec's five replacements on any output", () => {
    fc.assert(
      fc.property(outputs, (output) => {
        expect(maskVolatileSpans(output, "text")).toBe(bySpec(output));
      }),
      { numRuns: 3000 },
    );
  });
});
