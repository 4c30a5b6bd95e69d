/**
 * When a record says it was written: its `timestamp` (or another field) as recorded, an ISO string
 * or a number of milliseconds. Adapters put it on a run's first event as `ts`, which dates the run
 * (core/eventTime.ts; `--since`/`--until`).
 */
import { own } from "../../core/plainObject.js";

export function recordedTime(value: Record<string, unknown> | undefined, field = "timestamp"): string | number | undefined {
  const time = value === undefined ? undefined : own(value, field);
  if (typeof time === "string") return time !== "" ? time : undefined;
  return typeof time === "number" && Number.isFinite(time) ? time : undefined;
}

/**
 * Dates each run once, by its first dated line, for formats whose runs may begin without a dated
 * line (Claude Code before any prompt, OpenHands without a user message): the first time offered
 * for a run goes on that run's next event as `ts`, and the run is then dated.
 */
export class RunDating {
  private datedRun: string | undefined;
  private pendingRun: string | undefined;
  private pending: string | number | undefined;

  /** A line of `run` recorded `time`: kept unless the run is dated or has a time waiting already. */
  offer(run: string, time: string | number | undefined): void {
    if (time === undefined || run === this.datedRun || (run === this.pendingRun && this.pending !== undefined)) return;
    this.pendingRun = run;
    this.pending = time;
  }

  /** The `ts` of an event of `run`: its waiting time, once per run. */
  stamp(run: string): string | number | undefined {
    if (run === this.datedRun || run !== this.pendingRun || this.pending === undefined) return undefined;
    this.datedRun = run;
    const time = this.pending;
    this.pending = undefined;
    return time;
  }
}
