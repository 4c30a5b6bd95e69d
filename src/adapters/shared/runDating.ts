/**
 * Run dating, the run writer's rule for what `--since`/`--until` read (prepare.ts puts the first
 * `ts` of a run on it as its `startedAt`). A run is dated by the time its start was recorded at
 * (`startRun`'s `time`: a prompt's, a user message's, a `session.started` line's), else by the first
 * line of the run that records one (`offerTime`: a run that begins without a dated start, as a cut
 * file does). The time goes as `ts` on the next event the writer emits for that run, once. A start
 * dates its run anew (a trajectory's compaction retry starts its run again under the same id; a
 * prompt retried on a fallback model writes its user message again): its own time goes on the next
 * event. Canonical events are the exception: they are recorded events, and each keeps the `ts` it
 * was written with (`recordedEvent`).
 */
import { nameOf, type RunName } from "./runFacts.js";

export class RunDating {
  /** The run dated last: a later line of it dates nothing. */
  private datedRun: string | undefined;
  /** The time waiting for a run's next event, and that run. */
  private waitingRun: RunName | undefined;
  private waitingTime: string | number | undefined;

  /** A start dates its run anew: its own time, when it recorded one, waits for the run's next event. */
  started(run: RunName, time: string | number | undefined): void {
    this.datedRun = undefined;
    if (time !== undefined) {
      this.waitingRun = run;
      this.waitingTime = time;
    }
  }

  /** A line of `run` recorded `time`: it dates the run if nothing dated it yet. */
  offer(run: string, time: string | number | undefined): void {
    if (time === undefined || run === this.datedRun) return;
    if (this.waitingTime !== undefined && this.waitingRun !== undefined && nameOf(this.waitingRun) === run) return;
    this.waitingRun = run;
    this.waitingTime = time;
  }

  /** The `ts` of `run`'s next event: the time waiting for it, handed out once. */
  take(run: string): string | number | undefined {
    if (this.waitingTime === undefined || run === this.datedRun || run !== nameOf(this.waitingRun!)) return undefined;
    const time = this.waitingTime;
    this.datedRun = run;
    this.waitingTime = undefined;
    return time;
  }
}
