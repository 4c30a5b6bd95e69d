/**
 * The findings of long runs, kept on disk while the runs go on (the shelf of core/findingShelf.ts):
 * a run stuck for 200,000 calls held its ~200,000 findings (~500 B each, with message and preview)
 * until it ended, then again when read back for the report. Here each batch of SHELF_BATCH findings
 * a run makes is one JSON line of this thread's `findings` spill file (spillFiles.ts), and the run's
 * list, once handed out, reads them back a line at a time each time it is walked: memory holds one
 * batch, whatever the run's length.
 *
 * A run with shelved findings is always written to the run spill (runSpill.ts: its record names
 * where its findings are, `ShelfPlace`), never kept as an object: a list that reads a file does not
 * cross to the main thread, and the file goes with the command's spill folder, so such a unit is
 * not cached either (cache/analysisEntry.ts `isCacheable`).
 */
import type { FindingList } from "../core/findingList.js";
import type { FindingShelf, ShelvedFindings } from "../core/findingShelf.js";
import type { ReplayedFinding } from "../core/findings.js";
import { SharedValues } from "./sharedValues.js";
import { SegmentReader, spillFileIn, type SpillFile } from "./spillFiles.js";

/** Findings a run holds before it puts them on the shelf, and in each line of the shelf file. */
export const SHELF_BATCH = 1024;

/** Where a run's shelved findings are: `[start, end)` byte ranges, in order, of the file at `path`. Plain data. */
export interface ShelfPlace {
  readonly path: string;
  readonly ranges: readonly number[];
  readonly count: number;
}

/** The shelf of one thread's analysis, in its spill folder. */
export class FindingShelfFile implements FindingShelf<ReplayedFinding> {
  readonly batch = SHELF_BATCH;

  constructor(private readonly dir: string) {}

  open(): ShelvedFindings<ReplayedFinding> {
    return new RunPlace(spillFileIn(this.dir, "findings"));
  }
}

/** One run's findings on the shelf: the ranges its lines fill (runs shelving at once interleave their lines). */
class RunPlace implements ShelvedFindings<ReplayedFinding> {
  private readonly ranges: number[] = [];
  private count = 0;

  constructor(private readonly file: SpillFile) {}

  put(findings: readonly ReplayedFinding[]): void {
    const start = this.file.length;
    this.file.append(JSON.stringify(findings));
    const n = this.ranges.length;
    if (n > 0 && this.ranges[n - 1] === start) this.ranges[n - 1] = this.file.length;
    else this.ranges.push(start, this.file.length);
    this.count += findings.length;
  }

  /** Also writes what waits to be written: the list is read back from the file, by this thread or (its run spilled) the main one. */
  list(rest: readonly ReplayedFinding[]): ShelvedList {
    this.file.flush();
    return new ShelvedList({ path: this.file.path, ranges: [...this.ranges], count: this.count }, rest);
  }
}

/** A run's findings: those on the shelf, read back a line at a time as it is walked, then `rest` (held). */
export class ShelvedList implements FindingList<ReplayedFinding> {
  readonly length: number;

  constructor(
    readonly place: ShelfPlace,
    readonly rest: readonly ReplayedFinding[],
  ) {
    this.length = place.count + rest.length;
  }

  *[Symbol.iterator](): Iterator<ReplayedFinding> {
    const { path, ranges } = this.place;
    const reader = new SegmentReader();
    try {
      for (let i = 0; i < ranges.length; i += 2) {
        // Equal values of a line's findings shared again (JSON.parse copies each: sharedValues.ts).
        for (const line of reader.lines({ path, start: ranges[i]!, end: ranges[i + 1]! })) yield* new SharedValues().findings(JSON.parse(line) as ReplayedFinding[]);
      }
    } finally {
      reader.close();
    }
    yield* this.rest;
  }
}

export function isShelved(findings: FindingList<ReplayedFinding>): findings is ShelvedList {
  return findings instanceof ShelvedList;
}
