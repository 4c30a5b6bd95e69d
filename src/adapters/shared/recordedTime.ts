/**
 * When a record says it was written: its `timestamp` (or another field) as recorded, an ISO string
 * or a number of milliseconds. The run writer puts it on a run's first event as `ts`, which dates the
 * run (runWriter.ts; core/eventTime.ts; `--since`/`--until`).
 */
import { own } from "../../core/plainObject.js";

export function recordedTime(value: Record<string, unknown> | undefined, field = "timestamp"): string | number | undefined {
  const time = value === undefined ? undefined : own(value, field);
  if (typeof time === "string") return time !== "" ? time : undefined;
  return typeof time === "number" && Number.isFinite(time) ? time : undefined;
}
