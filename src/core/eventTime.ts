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
  const ms = eventTimeMs(ts);
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** The same instant as epoch ms (`eventTime` is its ISO form), or undefined when `ts` is no valid time. */
export function eventTimeMs(ts: string | number | undefined): number | undefined {
  if (ts === undefined) return undefined;
  const ms = typeof ts === "number" ? (Math.abs(ts) < SECONDS_BELOW ? ts * 1000 : ts) : Date.parse(ts);
  if (!Number.isFinite(ms)) return undefined;
  return Number.isNaN(new Date(ms).getTime()) ? undefined : ms;
}
