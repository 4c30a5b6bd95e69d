/**
 * What OpenClaw writes to its console, in the two places a Gateway log holds it (spec: inputs.md §4):
 * a captured console line inside the JSON form (`"0"` is the bare text `[tools] read failed: …`), and
 * the text console form (`openclaw logs`, journald, a native-stdio capture), one record per line:
 * `<ISO time> [<subsystem>] <message>`. Both carry the subsystem as a `[name] ` prefix, and a console
 * capture may carry ANSI colour codes, which are removed before anything is matched (and so never
 * reach a report).
 *
 * The text form is recognised by shape only, strictly: a wrong guess would read someone's notes as
 * a log, which is worse than "format not recognised". A record needs a full ISO date-time with
 * seconds and a `Z` or `±hh:mm` offset that is a real instant, a space, then a bracketed subsystem
 * name without spaces (reading also takes a time followed by text without one: see parseTextRecord).
 */

/** CSI sequences (colours, cursor moves) and OSC sequences (titles, links) a terminal capture holds. */
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ANSI, "") : text;
}

/** `[subsystem] message`: the prefix OpenClaw's console writer puts before a subsystem's message. */
const PREFIX = /^\[([^\s[\]]{1,128})\](?: ([\s\S]*))?$/;

export interface ConsoleMessage {
  readonly subsystem: string;
  readonly message: string;
}

/** The subsystem and message of console text with a `[subsystem] ` prefix (colour codes removed). */
export function splitConsolePrefix(text: string): ConsoleMessage | undefined {
  const m = PREFIX.exec(stripAnsi(text));
  return m ? { subsystem: m[1]!, message: m[2] ?? "" } : undefined;
}

const RECORD = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) ([\s\S]*)$/;

export interface TextRecord {
  /** `null` for console output without a `[subsystem]` (as a bare `"0"` string without one in the JSON form). */
  readonly subsystem: string | null;
  readonly message: string;
  /** The record's time as a UTC ISO string, as the JSON form's `_meta.date` gives it. */
  readonly ts: string;
}

/**
 * A line of the text console form that starts a record; `undefined` for any other line. A time
 * followed by text without a `[subsystem]` is a record too (the console's own output), so that the
 * form reads like the JSON one, but only the full shape counts for telling the form (`isFullRecord`).
 */
export function parseTextRecord(line: string): TextRecord | undefined {
  const m = RECORD.exec(stripAnsi(line));
  const instant = m ? Date.parse(m[1]!) : NaN;
  if (Number.isNaN(instant)) return undefined;
  const split = splitConsolePrefix(m![2]!) ?? { subsystem: null, message: m![2]! };
  // Not `{ ...split, ts }`: a spread followed by a key it lacks is V8's slow copy (µs a line).
  return { subsystem: split.subsystem, message: split.message, ts: new Date(instant).toISOString() };
}

/** A record with the full `<ISO time> [<subsystem>] <message>` shape. */
export function isFullRecord(line: string): boolean {
  return typeof parseTextRecord(line)?.subsystem === "string";
}

/**
 * A line that goes on the message above it: indented (stack frames `    at …`, the fields of an
 * inspected object) or only closing brackets (the end of one). Anything else that is no record is
 * garbage.
 */
export function isContinuation(line: string): boolean {
  const text = stripAnsi(line);
  return /^[ \t]+\S/.test(text) || /^[\])}]+[,;]?$/.test(text.trim());
}

/**
 * True when sniffing samples are the text console form: every sample is raw text (a JSON line
 * means another format) and more than half of them start a record. Not all: a capture may begin
 * inside a stack trace, and the first lines may hold one. One record among prose is not a log.
 */
export function looksLikeTextLog(samples: readonly unknown[]): boolean {
  if (samples.length === 0 || !samples.every((sample) => typeof sample === "string")) return false;
  let records = 0;
  for (const sample of samples as readonly string[]) if (isFullRecord(sample)) records++;
  return records * 2 > samples.length;
}
