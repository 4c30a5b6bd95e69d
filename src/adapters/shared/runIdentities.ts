/**
 * What a run writer is told of its runs' identity (core/runIdentity.ts) between two hand-overs:
 * the facts of each run merged, and the first and last times its lines recorded (its start and
 * end). Kept per run name (a run may be named by a function until its first event: runWriter.ts).
 */
import { factTime, mergeFacts, type RunFacts } from "../../core/runIdentity.js";

interface Noted {
  facts: RunFacts | undefined;
  first: string | number | undefined;
  last: string | number | undefined;
}

export class RunIdentities<Name> {
  private readonly noted = new Map<Name, Noted>();

  constructor(
    private readonly handTo: (run: string, facts: RunFacts) => void,
    private readonly nameOf: (run: Name) => string,
  ) {}

  facts(run: Name, facts: RunFacts): void {
    const noted = this.of(run);
    noted.facts = mergeFacts(noted.facts, facts);
  }

  /** A line of the run recorded `time` (raw: converted once per hand-over, not once per line). */
  time(run: Name, time: string | number | undefined): void {
    if (time === undefined) return;
    const noted = this.of(run);
    noted.first ??= time;
    noted.last = time;
  }

  /** Hands on what was noted of each run, and forgets it (only after the runs' events: replay knows them then). */
  handOn(): void {
    if (this.noted.size === 0) return;
    for (const [run, noted] of this.noted) {
      const timed: { startedAt?: string; endedAt?: string } = {};
      const startedAt = factTime(noted.first);
      const endedAt = factTime(noted.last);
      if (startedAt !== undefined) timed.startedAt = startedAt;
      if (endedAt !== undefined) timed.endedAt = endedAt;
      this.handTo(this.nameOf(run), noted.facts === undefined ? timed : mergeFacts(noted.facts, timed));
    }
    this.noted.clear();
  }

  private of(run: Name): Noted {
    let noted = this.noted.get(run);
    if (noted === undefined) this.noted.set(run, (noted = { facts: undefined, first: undefined, last: undefined }));
    return noted;
  }
}
