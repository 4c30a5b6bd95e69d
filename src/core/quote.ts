/**
 * Input values quoted inside diagnostics and notices. They are cut short: a 5 MB event type or run id
 * must not turn one diagnostic into 5 MB of stderr, nor keep 5 MB alive per kept diagnostic.
 */
const MAX_QUOTED = 80;

/** The text, or its first `max` chars and `… (N chars)` when longer. */
export function shorten(text: string, max = MAX_QUOTED): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** `"value"` (JSON-quoted), or `"first 80 chars…" (N chars)` for longer text. */
export function quote(text: string, max = MAX_QUOTED): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, max)}…`)} (${text.length} chars)`;
}

/** An input value of any type in a diagnostic: a quoted (clipped) string, a scalar, or its kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}
