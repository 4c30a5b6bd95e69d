/**
 * What a spill segment notes of its runs as they are written out (runSpill.ts), so that the facts a
 * format writes before its runs (junit's suite counts, ndjson's choice of order: reporters/model.ts
 * `AheadFacts`) are known without reading the runs back: each output then reads a spilled run back
 * once, as it writes it. Kept in blocks of consecutive runs (and findings) of one file, so that it
 * grows with the files of a unit, not with its runs.
 */
import { LEVEL_RANK, type FindingLevel } from "../core/findings.js";

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

/** Consecutive findings of one file at one level, as a run's note keeps them (runNotes.ts `blocksOf`). */
export interface LevelBlock extends FindingBlock {
  readonly level: FindingLevel;
  readonly count: number;
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

  /**
   * A run of `file` whose findings are `blocks`: counted from the blocks its note was made of, so that
   * a long run's findings (read back from a shelf file for each walk) are walked once for both.
   */
  add(file: string, blocks: readonly LevelBlock[]): void {
    let block = this.runs.at(-1);
    if (block?.file !== file) this.runs.push((block = { file, runs: 0, reaching: [0, 0, 0] }));
    block.runs++;
    let worst = 0;
    for (const found of blocks) {
      const rank = LEVEL_RANK[found.level];
      this.levels[rank - 1]! += found.count;
      worst = Math.max(worst, rank);
      const last = this.findings.at(-1);
      if (last?.file !== found.file) this.findings.push({ file: found.file, first: found.first, last: found.last, sorted: found.sorted });
      else {
        // Lines of one file never go back when none does within a block, nor from one block to the next.
        if (!found.sorted || found.first < last.last) last.sorted = false;
        last.last = found.last;
      }
    }
    for (let rank = 1; rank <= worst; rank++) block.reaching[rank - 1]!++;
  }

  finish(): SegmentFacts {
    return { levels: this.levels, runs: this.runs, findings: this.findings };
  }
}
