/**
 * Masking of volatile spans in a failing command's output (generations.md §4 rule 5, "terminal exec
 * failure"). The same command failing again prints a new timestamp, pid, attempt number or duration;
 * the newest generation keeps the failure's identity across such drift so the retry still counts as
 * no progress. Anything else (a bare date, an errno, an exit code, other wording) stays, because a
 * change there may be real progress.
 */

/** In the runtime's order; each match becomes `#`. */
const VOLATILE_SPANS: readonly RegExp[] = [
  // (a) ISO date-times, optional fraction and zone
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})?/gi,
  // (b) clock times
  /\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?/g,
  // (c) attempt / retry counters
  /\b(?:attempt|retry)[\s#:=]*\d+/gi,
  // (d) durations with a unit, delimited by word boundaries (longer unit names first)
  /\b\d+(?:\.\d+)? ?(?:seconds?|minutes?|hours?|ns|us|ms|s)\b/g,
  // (e) process ids
  /\b(?:ppid|pid)[\s#:=]*\d+/gi,
];

export function maskVolatileSpans(output: string): string {
  let masked = output;
  for (const pattern of VOLATILE_SPANS) masked = masked.replace(pattern, "#");
  return masked;
}
