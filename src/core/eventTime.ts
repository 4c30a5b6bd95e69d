/**
 * When an event happened, as the input recorded it (`ts` of a canonical event: an ISO date, or a
 * number of milliseconds or seconds since the epoch), normalised to an ISO string. Runs carry the
 * time of their first timed event as `startedAt`, which `--since`/`--until` select on. Pure: the
 * clock is never read here (the command turns `2h` into a date).
 */

/** Numbers below this are seconds since the epoch (1e11 s is in the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

/** The ISO form of a recorded time, or `null` when it is no date. */
export function eventTime(ts: string | number | undefined): string | null {
  if (typeof ts === "string" && isCanonicalIso(ts)) return ts;
  const ms = eventTimeMs(ts);
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ`: the form `toISOString` writes (years 0–9999), and what transcripts record. */
const CANONICAL_ISO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):([0-5]\d):([0-5]\d)\.\d{3}Z$/;

/**
 * Whether a string is already its own ISO form: what parsing and formatting it again would give
 * (that cost ~3 µs a run). Not so for a day past its month's end or hour 24, which `Date.parse`
 * rolls over into the next day or month. Exported for its test: the shortcut must be taken for
 * every such string, not only give the same answer.
 */
export function isCanonicalIso(text: string): boolean {
  const parts = CANONICAL_ISO.exec(text);
  if (parts === null) return false;
  const year = Number(parts[1]);
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && Number(parts[4]) < 24;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysIn(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]!;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** The same instant as epoch ms (`eventTime` is its ISO form), or undefined when `ts` is no valid time. */
export function eventTimeMs(ts: string | number | undefined): number | undefined {
  if (ts === undefined) return undefined;
  const ms = typeof ts === "number" ? (Math.abs(ts) < SECONDS_BELOW ? ts * 1000 : ts) : Date.parse(ts);
  if (!Number.isFinite(ms)) return undefined;
  return Number.isNaN(new Date(ms).getTime()) ? undefined : ms;
}
