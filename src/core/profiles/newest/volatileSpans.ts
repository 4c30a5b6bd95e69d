/**
 * Masking of volatile spans in a failing command's output (generations.md §4 rule 5, "terminal exec
 * failure"). The same command failing again prints a new timestamp, pid, attempt number or duration;
 * the newest generation keeps the failure's identity across such drift so the retry still counts as
 * no progress. Anything else (a bare date, an errno, an exit code, other wording) stays, because a
 * change there may be real progress.
 */

/**
 * In the runtime's order; each match becomes `#`. `may` is a cheap test that the pattern can match
 * at all (the output is masked for every failing command: regexes that cannot match are skipped).
 */
const VOLATILE_SPANS: ReadonlyArray<{ readonly pattern: RegExp; readonly may: (text: string) => boolean }> = [
  // (a) ISO date-times, optional fraction and zone
  { pattern: /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})?/gi, may: (text) => text.includes(":") },
  // (b) clock times
  { pattern: /\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?/g, may: (text) => text.includes(":") },
  // (c) attempt / retry counters
  { pattern: /\b(?:attempt|retry)[\s#:=]*\d+/gi, may: (text) => ATTEMPT_WORD.test(text) },
  // (d) durations with a unit, delimited by word boundaries (longer unit names first)
  { pattern: /\b\d+(?:\.\d+)? ?(?:seconds?|minutes?|hours?|ns|us|ms|s)\b/g, may: () => true },
  // (e) process ids
  { pattern: /\b(?:ppid|pid)[\s#:=]*\d+/gi, may: (text) => PID_WORD.test(text) },
];

const DIGIT = /\d/;
/**
 * The words the counters' patterns need, in any ASCII case (as the patterns' own `i` flag matches
 * them): no lower-cased copy of a long output is made. No non-ASCII char lower-cases to these
 * letters on its own (only U+0130 İ to "i̇", whose combining dot keeps "pid" from appearing).
 */
const ATTEMPT_WORD = /attempt|retry/i;
const PID_WORD = /pid/i;

export function maskVolatileSpans(output: string): string {
  // Every span holds a digit: an output without one has nothing to mask.
  if (!DIGIT.test(output)) return output;
  // The tests read the original output: a replacement writes `#`, so it can never make a word or a
  // colon appear that the output did not hold (the tests stay true of every later stage).
  let masked = output;
  for (const { pattern, may } of VOLATILE_SPANS) if (may(output)) masked = masked.replace(pattern, "#");
  return masked;
}
