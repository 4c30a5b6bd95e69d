/**
 * What a spill notes of each run it writes out (runSpill.ts), apart from the run, so that a selection
 * by filters (filters.ts) counts its summary, its `--fail-on` tally and the facts junit and ndjson
 * write ahead from the notes: the spilled runs themselves are then read back once per output, by the
 * walk that writes them (issue 35 §3). A note is one short line per run on disk, not in memory (a
 * 1 GB transcript holds ~160,000 runs): the run's identity and start, its counts, what it used, and
 * its findings as blocks of consecutive ones that share tool, detector, level and file (a run stuck
 * for 200,000 findings is a few blocks, not 200,000 items: its findings stay on the shelf).
 */
import type { DetectorName } from "../core/detectors.js";
import type { FindingLevel, ReplayedRun } from "../core/findings.js";
import type { FindingList } from "../core/findingList.js";
import type { LevelBlock } from "./spillFacts.js";

/** Consecutive findings of a run with the same tool, detector, level and file: how many, and their lines. */
export interface NotedBlock extends LevelBlock {
  readonly tool: string;
  readonly detector: DetectorName;
  count: number;
}

/** What a selection reads of a finding (filters.ts `--tool`, `--detector`; levels for the counts). */
export type NotedFinding = Pick<NotedBlock, "tool" | "detector" | "level">;

/**
 * A noted run's findings: walked, each block gives its finding `count` times (one object, as the
 * counts only read its tool, detector and level); `blocks` say where they are, for the order.
 */
export class NotedFindings implements FindingList<NotedFinding> {
  readonly length: number;

  constructor(readonly blocks: readonly NotedBlock[]) {
    this.length = blocks.reduce((sum, block) => sum + block.count, 0);
  }

  *[Symbol.iterator](): Iterator<NotedFinding> {
    for (const block of this.blocks) for (let i = 0; i < block.count; i++) yield block;
  }

  /** The blocks whose findings `keep` keeps (a block's findings are alike for it). */
  filter(keep: (finding: NotedFinding) => boolean): NotedFindings {
    const kept = this.blocks.filter(keep);
    return kept.length === this.blocks.length ? this : new NotedFindings(kept);
  }
}

/** A spilled run as its note tells it: what filters test and what a selection counts. */
export interface RunNote extends Pick<ReplayedRun, "run" | "agent" | "session" | "file" | "startedAt" | "calls" | "compactions" | "usage" | "usageOnFlagged" | "usageAfterStop"> {
  readonly findings: NotedFindings;
  /** Not a run read from a Gateway log (as a replayed run: filters.ts tells them apart by it). */
  readonly source?: undefined;
}

export const isRunNote = (run: object): run is RunNote => "findings" in run && run.findings instanceof NotedFindings;

/**
 * The findings of a run as blocks, walked once (a shelved list is read back from disk for each walk):
 * the spill makes its note and counts its levels and segment facts from them (runSpill.ts).
 */
export function blocksOf(findings: ReplayedRun["findings"]): NotedBlock[] {
  const blocks: NotedBlock[] = [];
  let block: Mutable<NotedBlock> | undefined;
  for (const { tool, detector, level, file, line } of findings) {
    if (block?.tool === tool && block.detector === detector && block.level === level && block.file === file) {
      if (line < block.last) block.sorted = false;
      block.last = line;
      block.count++;
      continue;
    }
    blocks.push((block = { tool, detector, level, file, first: line, last: line, sorted: true, count: 1 }));
  }
  return blocks;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A block as a note line keeps it: `[tool, detector, level, file, first, last, sorted (0/1), count]`. */
type BlockRecord = [string, DetectorName, FindingLevel, string, number, number, 0 | 1, number];

/** The note line of a run whose findings are `found` (`blocksOf`; JSON: plain data). */
export function noteRecord(run: ReplayedRun, found: readonly NotedBlock[]): string {
  const { run: id, agent, session, file, startedAt, calls, compactions, usage, usageOnFlagged, usageAfterStop } = run;
  const blocks = found.map((b): BlockRecord => [b.tool, b.detector, b.level, b.file, b.first, b.last, b.sorted ? 1 : 0, b.count]);
  return JSON.stringify({ run: id, agent, session, file, startedAt, calls, compactions, usage, usageOnFlagged, usageAfterStop, blocks });
}

/** The run a note line tells. */
export function runNote(record: string): RunNote {
  const { blocks, ...fields } = JSON.parse(record) as Omit<RunNote, "findings"> & { blocks: BlockRecord[] };
  const noted = blocks.map(([tool, detector, level, file, first, last, sorted, count]): NotedBlock => ({ tool, detector, level, file, first, last, sorted: sorted === 1, count }));
  return { ...fields, findings: new NotedFindings(noted) };
}
