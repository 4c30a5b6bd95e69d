/**
 * Where replay puts the findings of a long run while the run goes on, so that a run stuck for a very
 * long time holds a batch of them in memory, not all until it ends (issue 34 §5). Core only says what
 * it asks of a shelf; the pipeline's keeps them on disk (pipeline/shelvedFindings.ts). Without one,
 * a run keeps its findings as an array, as before.
 */
import type { FindingList } from "./findingList.js";
import type { ReplayedFinding } from "./findings.js";
import { NONE } from "./none.js";
import type { RunState } from "./runState.js";

export interface FindingShelf<F> {
  /** Findings a run holds before it puts them on the shelf. */
  readonly batch: number;
  /** A place on the shelf for one run's findings. */
  open(): ShelvedFindings<F>;
}

export interface ShelvedFindings<F> {
  /** Puts the run's next findings on the shelf, after those put before. */
  put(findings: readonly F[]): void;
  /** The run's whole list, once it is handed out: what is on the shelf, then `rest`. */
  list(rest: readonly F[]): FindingList<F>;
}

/** The runs of one replayer whose findings went on the shelf, until each is handed out. */
export class ShelvedRuns {
  /** By run id, not state: a parked run comes back as a new state (sessionParking.ts). */
  private readonly places = new Map<string, ShelvedFindings<ReplayedFinding>>();

  constructor(private readonly shelf: FindingShelf<ReplayedFinding>) {}

  /** After a finding is added: a run holding a batch puts it on the shelf, and holds none until its next. */
  found(state: RunState): void {
    if (state.findings.length < this.shelf.batch) return;
    let place = this.places.get(state.run);
    if (place === undefined) this.places.set(state.run, (place = this.shelf.open()));
    place.put(state.findings as readonly ReplayedFinding[]);
    state.findings = NONE;
  }

  /** Every finding of the run so far, the shelved ones read back (an open run's `findings` are only its newest). */
  all(state: RunState): FindingList<ReplayedFinding> {
    return this.places.get(state.run)?.list(state.findings as readonly ReplayedFinding[]) ?? state.findings;
  }

  /** A run handed out lists its findings from the shelf, if it put any there. */
  handOut(state: RunState): void {
    const place = this.places.get(state.run);
    if (place === undefined) return;
    this.places.delete(state.run);
    state.findings = place.list(state.findings as readonly ReplayedFinding[]);
  }
}
