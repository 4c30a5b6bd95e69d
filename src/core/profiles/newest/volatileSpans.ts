/**
 * Masking of volatile spans in a failing command's output (generations.md §4 rule 5, "terminal exec
 * failure"). The same command failing again prints a new timestamp, pid, attempt number or duration;
 * the newest generation keeps the failure's identity across such drift so the retry still counts as
 * no progress. Anything else (a bare date, an errno, an exit code, other wording) stays, because a
 * change there may be real progress.
 *
 * The passes run in the runtime's order, each match becoming `#`; an earlier mask changes what a
 * later pattern sees, so the order is part of the rule. Every failing command's output is masked,
 * and outputs run to kilobytes: five regex scans of each were the largest part of what the newest
 * profile cost beyond the default (bench: canonical events). So a pass is first asked whether its
 * pattern can match at all, where a native substring search makes that cheap, and skipped when it
 * cannot. A test may only ever say "no" when the pattern has no match in the text the pass runs on
 * (a "yes" in vain costs the scan, nothing else): the result is the string all five passes give.
 *
 * An output read as a byte string (core/byteText.ts) is masked as its text would be: the failure
 * identity of one output must not depend on how its line was decoded. Only (c) and (e) can tell the
 * forms apart, by their `\s`: a non-ASCII white space (U+00A0, U+3000…) is one char that `\s` matches
 * in a text, but two or three bytes it does not in a byte string. So these two have a byte-string
 * twin whose white space is the UTF-8 of the same chars; no output is decoded. The other patterns
 * match ASCII only, and `\b` and `\d` see every non-ASCII char (and each of its bytes) as a non-word,
 * non-digit char, so they match the same spans in both forms, and a `#` written for a span keeps the
 * byte string the UTF-8 of the masked text.
 */
import { NON_ASCII_SPACE_BYTES, type StringForm } from "../../byteText.js";

/** (a) ISO date-times, optional fraction and zone */
const DATE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})?/gi;
/** (b) clock times */
const CLOCK_TIME = /\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?/g;
/** (c) attempt / retry counters */
const COUNTER = /\b(?:attempt|retry)[\s#:=]*\d+/gi;
/** (c) in a byte string */
const COUNTER_IN_BYTES = wordThenNumberInBytes(["attempt", "retry"]);
/** (d) durations with a unit, delimited by word boundaries (longer unit names first) */
const DURATION = /\b\d+(?:\.\d+)? ?(?:seconds?|minutes?|hours?|ns|us|ms|s)\b/g;
/** (e) process ids */
const PROCESS_ID = /\b(?:ppid|pid)[\s#:=]*\d+/gi;
/** (e) in a byte string */
const PROCESS_ID_IN_BYTES = wordThenNumberInBytes(["ppid", "pid"]);

/**
 * `\b(?:words)[\s#:=]*\d+` under `gi`, for byte strings: each word in any ASCII case (the `i` flag
 * would fold the bytes of the white space: \xc2 with \xe2), `\s` as ASCII white space or the UTF-8
 * of a non-ASCII one.
 */
function wordThenNumberInBytes(words: readonly string[]): RegExp {
  const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
  return new RegExp(String.raw`\b(?:${words.map(anyCase).join("|")})(?:[\t-\r #:=]|${NON_ASCII_SPACE_BYTES})*\d+`, "g");
}

// The same patterns anchored (sticky), tried only where a match would have to start.
const DATE_TIME_AT = new RegExp(DATE_TIME.source, "iy");
const CLOCK_TIME_AT = new RegExp(CLOCK_TIME.source, "y");

const DIGIT = /\d/;

const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * True when a sticky `pattern` matches `offset` chars before some occurrence of `anchor`, which in
 * both patterns follows a digit (checked first: runs of `-` or `:` are common and rarely one).
 */
function matchesBefore(text: string, anchor: string, offset: number, pattern: RegExp): boolean {
  for (let i = text.indexOf(anchor, offset); i !== -1; i = text.indexOf(anchor, i + 1)) {
    if (!isDigitCode(text.charCodeAt(i - 1))) continue;
    pattern.lastIndex = i - offset;
    if (pattern.test(text)) return true;
  }
  return false;
}

/** (a) matches iff it does 4 chars before some `-` (where its first `-` always is). */
const mayHoldDateTime = (text: string) => matchesBefore(text, "-", 4, DATE_TIME_AT);
/** (b) matches iff it does 1 char before some `:` (a match with two digits before its first `:` matches from the second too). */
const mayHoldClockTime = (text: string) => matchesBefore(text, ":", 1, CLOCK_TIME_AT);

/**
 * The words the counters' pattern needs, in any ASCII case (as the pattern's own `i` flag matches
 * them): no lower-cased copy of a long output is made. A replacement writes `#`, so it can never
 * make a word appear that the output did not hold: the test of the output holds for the text (c)
 * runs on. The test stops at the first word (most outputs that have one have it early); an output
 * without one is spared the pattern's own scan.
 */
const ATTEMPT_WORD = /attempt|retry/i;

/** The output (in `form`) with its volatile spans masked, in the same form. */
export function maskVolatileSpans(output: string, form: StringForm): string {
  // Every span holds a digit: an output without one has nothing to mask.
  if (!DIGIT.test(output)) return output;
  let masked = output;
  if (mayHoldDateTime(masked)) masked = masked.replace(DATE_TIME, "#");
  if (mayHoldClockTime(masked)) masked = masked.replace(CLOCK_TIME, "#");
  const inBytes = form === "bytes";
  if (ATTEMPT_WORD.test(output)) masked = masked.replace(inBytes ? COUNTER_IN_BYTES : COUNTER, "#");
  masked = masked.replace(DURATION, "#");
  // Not tested first: the pattern's own scan (anchored on a word boundary) costs less than a scan for
  // the word alone (bench: 1.6 vs 2.1 ms per 2.4 MB of failing output).
  masked = masked.replace(inBytes ? PROCESS_ID_IN_BYTES : PROCESS_ID, "#");
  return masked;
}
