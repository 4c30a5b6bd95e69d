/**
 * What a spill segment notes of its runs as they are written out (runSpill.ts), so that the facts a
 * format writes before its runs (junit's suite counts, ndjson's choice of order: reporters/model.ts
 * `AheadFacts`) are known without reading the runs back: each output then reads a spilled run back
 * once, as it writes it. Kept in blocks of consecutive runs (and findings) of one file, so that it
 * grows with the files of a unit, not with its runs.
 */
import { LEVEL_RANK, type FindingLevel } from "../core/findings.js";
import type { FindingList } from "../core/findingList.js";

/** Consecutive runs of one file: how many, and how many reach each level (a finding at it or above). */
export interface RunBlock {
  readonly file: string;
  runs: number;
  /** By level rank - 1: runs with a warning or worse, a block or worse, an abort. */
  readonly reaching: [number, number, number];
}

/** Consecutive findings of one file: their first and last lines, and whether the lines never go back. */
export interface FindingBlock {
  readonly file: string;
  readonly first: number;
  last: number;
  sorted: boolean;
}

/** Plain data, so that it crosses from worker threads with its segment. */
export interface SegmentFacts {
  /** The segment's findings by level rank - 1 (warnings, blocks, aborts). */
  readonly levels: readonly [number, number, number];
  readonly runs: readonly RunBlock[];
  readonly findings: readonly FindingBlock[];
}

export class SegmentFactsNote {
  private readonly runs: RunBlock[] = [];
  private readonly findings: FindingBlock[] = [];
  private readonly levels: [number, number, number] = [0, 0, 0];

  add(run: { readonly file: string; readonly findings: FindingList<{ readonly file: string; readonly line: number; readonly level: FindingLevel }> }): void {
    let block = this.runs.at(-1);
    if (block?.file !== run.file) this.runs.push((block = { file: run.file, runs: 0, reaching: [0, 0, 0] }));
    block.runs++;
    let worst = 0;
    for (const finding of run.findings) {
      const rank = LEVEL_RANK[finding.level];
      this.levels[rank - 1]!++;
      worst = Math.max(worst, rank);
      const last = this.findings.at(-1);
      if (last?.file !== finding.file) this.findings.push({ file: finding.file, first: finding.line, last: finding.line, sorted: true });
      else {
        if (finding.line < last.last) last.sorted = false;
        last.last = finding.line;
      }
    }
    for (let rank = 1; rank <= worst; rank++) block.reaching[rank - 1]!++;
  }

  finish(): SegmentFacts {
    return { levels: this.levels, runs: this.runs, findings: this.findings };
  }
}
