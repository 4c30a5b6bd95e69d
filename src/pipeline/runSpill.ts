/**
 * Runs kept on disk once a thread holds many of them, so that memory does not grow with the number
 * of runs (a 1 GB transcript holds ~160 000 runs; ~300 bytes each in memory) nor with the number of
 * findings (~550 bytes each, with its message and preview: a transcript of 80,000 looping runs held
 * 160,000 of them, 204 MB peak RSS) nor with their timelines (the HTML page's, 8 bytes a call).
 *
 * A *plain* run is one with no finding, guard window, recorded veto or timeline: all the report
 * knows of it is who it was and how many calls and compactions it had. Each thread keeps up to
 * `plainRunsInMemory` plain runs and up to `findingsInMemory` findings (in runs with findings or
 * other things to show, a timeline weighing as a finding per CALLS_PER_FINDING calls) as objects;
 * past either, a unit's later runs are written to the thread's spill file in order, one JSON line
 * per run: a plain run's few fields, or `R` and the whole run (a run of many findings in several
 * lines, `M`; one whose findings went to disk while it was open, `P` and where they are:
 * shelvedFindings.ts). Reading a segment back with the run list gives
 * every run in input order, exactly as it was (`SpilledRuns.inOrder`); the segment counts what the
 * summary needs of its runs (calls, compactions, findings by level), so that the summary reads none
 * back; and each run's note goes to the thread's notes file (runNotes.ts), so that a selection by
 * filters reads the notes, not the runs (`SpilledRuns.notes`).
 *
 * Only `analyze` spills (the option `spill`); the files live in one temporary folder that the
 * command removes when it is done (`withSpillFolder`, spillFiles.ts).
 */
import type { ReplayedRun } from "../core/findings.js";
import type { SpilledRuns } from "../reporters/model.js";
import { SegmentReader, spillFileIn, type FileBytes, type SpillFile } from "./spillFiles.js";
import { countRun, noRunLevels, type RunLevelCounts } from "./levelCounts.js";
import { RunsUsageTotals, type RunsUsage } from "./runsUsage.js";
import { SegmentFactsNote, type SegmentFacts } from "./spillFacts.js";
import { addCounted, type CountedRuns } from "./countedRuns.js";
import { isShelved } from "./shelvedFindings.js";
import { isPlainRun, runRecords, runsOf } from "./runRecords.js";
import { blocksOf, NotedFindings, noteRecord, runNote, type NotedBlock, type RunNote } from "./runNotes.js";

/** Where and when to spill: plain data, so that it crosses to worker threads. */
export interface SpillOptions {
  /** The folder for spill files (made by `withSpillFolder`). */
  readonly dir: string;
  /** Plain runs a thread keeps as objects before it writes them out (parallel.ts shares the analysis's budget among threads). */
  readonly plainRunsInMemory: number;
  /** Findings a thread keeps in runs held as objects before it writes such runs out (shared the same way). */
  readonly findingsInMemory: number;
  /** Live runs (Gateway logs) a book keeps in its table before it writes the oldest out (default LIVE_ROWS_IN_MEMORY, core/liveRuns.ts). */
  readonly liveRunsInMemory?: number;
  /** Sessions with open runs a unit's replay holds before it parks some (default RESIDENT_SESSIONS, parkedSessions.ts). */
  readonly residentSessions?: number;
}

/** Plain runs an analysis holds in memory by default (~5 MB of them), shared among its threads. */
export const PLAIN_RUNS_IN_MEMORY = 16_384;

/** Findings an analysis holds in memory by default (~5 MB of them), shared among its threads. */
export const FINDINGS_IN_MEMORY = 8_192;

/** One unit's spilled runs: bytes `[start, end)` of `path`, read back into the run list from index `at`. */
export interface SpillSegment {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Index into the run list of the analysis where the segment's first run goes. */
  readonly at: number;
  /** The runs the segment holds, with their calls, compactions and findings (for the summary). */
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  /** What a summary counts of them: runs with a finding at each level, and findings by level. */
  readonly counts: Readonly<RunLevelCounts>;
  /** What they used (runsUsage.ts), when any recorded usage. */
  readonly usage?: RunsUsage;
  /** What a report states of them before its runs (spillFacts.ts); absent when the runs were not noted as written (a cache hit's). */
  readonly facts?: SegmentFacts;
  /** Where each run's note is (runNotes.ts); absent when the runs were not noted as written (a cache hit's). */
  readonly notes?: FileBytes;
  /** Some run's findings are on the shelf (shelvedFindings.ts): in this command's spill folder, so not to be cached. */
  readonly shelved?: true;
}


/** Calls of a timeline that weigh as much as one finding (8 bytes each against ~550). */
const CALLS_PER_FINDING = 64;

/**
 * What a run weighs against the findings budget: its findings and its timeline, and at least one (a
 * run with vetoes or a guard window but no finding).
 */
export function findingsWeight(run: ReplayedRun): number {
  const timeline = run.timeline === undefined ? 0 : Math.ceil(run.timeline.callTools.length / CALLS_PER_FINDING);
  return Math.max(1, run.findings.length + timeline);
}

/** A unit's segment while its runs are written: `SpillSegment` but where it ends. */
interface OpenSegment {
  readonly start: number;
  readonly notesStart: number;
  readonly at: number;
  runs: number;
  calls: number;
  compactions: number;
  readonly counts: RunLevelCounts;
  readonly usage: RunsUsageTotals;
  readonly note: SegmentFactsNote;
  shelved?: true;
}

/** The runs of one unit as replay settles them: objects, then (past a budget) a spill segment. */
export class UnitRuns {
  readonly runs: ReplayedRun[] = [];
  private readonly file: SpillFile | undefined;
  private readonly notes: SpillFile | undefined;
  private segment: OpenSegment | undefined;
  private plainKept = 0;
  private findingsKept = 0;

  constructor(private readonly options: SpillOptions | undefined) {
    this.file = options && spillFileIn(options.dir);
    this.notes = options && spillFileIn(options.dir, "notes");
  }

  add(run: ReplayedRun): void {
    const plain = isPlainRun(run);
    const file = this.file;
    if (file && !this.segment && this.overBudget(file, plain, run)) {
      this.segment = { start: file.length, notesStart: this.notes!.length, at: this.runs.length, runs: 0, calls: 0, compactions: 0, counts: noRunLevels(), usage: new RunsUsageTotals(), note: new SegmentFactsNote() };
    }
    if (this.segment) {
      for (const line of runRecords(run)) file!.append(line);
      const blocks = blocksOf(run.findings);
      this.notes!.append(noteRecord(run, blocks));
      this.count(this.segment, run, blocks);
      return;
    }
    if (file && plain) {
      file.plainInMemory++;
      this.plainKept++;
    } else if (file) {
      file.findingsInMemory += findingsWeight(run);
      this.findingsKept += findingsWeight(run);
    }
    this.runs.push(run);
  }

  /**
   * Whether this thread can keep `plain` more plain runs and runs of `weight` findings in memory (a
   * cache hit keeps its runs as objects then, else writes them out whole: cache/analysisEntry.ts).
   */
  static hasRoom(options: SpillOptions, plain: number, weight: number): boolean {
    const file = spillFileIn(options.dir);
    return file.plainInMemory + plain <= options.plainRunsInMemory && file.findingsInMemory + weight <= options.findingsInMemory;
  }

  private overBudget(file: SpillFile, plain: boolean, run: ReplayedRun): boolean {
    // A list read from a shelf file is not kept as an object (shelvedFindings.ts): the run and those after it are written out.
    if (isShelved(run.findings)) return true;
    if (plain) return file.plainInMemory >= this.options!.plainRunsInMemory;
    return file.findingsInMemory + findingsWeight(run) > this.options!.findingsInMemory;
  }

  /** Counts a run written out from its findings' blocks (`blocksOf`): its findings are not walked again. */
  private count(segment: OpenSegment, run: ReplayedRun, blocks: readonly NotedBlock[]): void {
    segment.runs++;
    segment.calls += run.calls;
    segment.compactions += run.compactions;
    countRun(segment.counts, new NotedFindings(blocks));
    segment.note.add(run.file, blocks);
    segment.usage.add(run);
    if (isShelved(run.findings)) segment.shelved = true;
  }

  /** The unit is read again: what it delivered so far is void. */
  reset(): void {
    if (this.file) {
      if (this.segment) this.file.cut(this.segment.start);
      if (this.segment) this.notes!.cut(this.segment.notesStart);
      this.file.plainInMemory -= this.plainKept;
      this.file.findingsInMemory -= this.findingsKept;
    }
    this.segment = undefined;
    this.plainKept = 0;
    this.findingsKept = 0;
    this.runs.length = 0;
  }

  /** The unit's spilled runs, written out (undefined when it kept all as objects). */
  finish(): SpillSegment | undefined {
    if (!this.segment || !this.file) return undefined;
    this.file.flush();
    this.notes!.flush();
    const { note, usage, notesStart, ...segment } = this.segment;
    const used = usage.value();
    const notes = { path: this.notes!.path, start: notesStart, end: this.notes!.length };
    return { path: this.file.path, end: this.file.length, ...segment, ...(used.runs > 0 && { usage: used }), facts: note.finish(), notes };
  }
}

/** The segments of an analysis, moved to where their units' runs begin in the merged run list. */
export function shiftedSegment(segment: SpillSegment, runsBefore: number): SpillSegment {
  return { ...segment, at: segment.at + runsBefore };
}

/** Every spilled run of an analysis, counted, and read back in order with the kept ones. */
export function spilledRuns(segments: readonly SpillSegment[]): SpilledRuns | undefined {
  if (segments.length === 0) return undefined;
  return {
    ...segments.reduce<CountedRuns | undefined>(addCounted, undefined)!,
    noted: segments.every((segment) => segment.facts !== undefined) ? (kept) => noted(segments, kept) : undefined,
    notes: segments.every((segment) => segment.notes !== undefined) ? (kept) => notedRuns(segments, kept) : undefined,
    *inOrder(kept) {
      const reader = new SegmentReader();
      try {
        for (const item of inPlaces(segments, kept)) {
          if (isSegment(item)) yield* runsOf(reader.lines(item));
          else yield item;
        }
      } finally {
        reader.close();
      }
    },
  };
}

/** The kept runs in order, and each segment where its runs go. */
function* inPlaces(segments: readonly SpillSegment[], kept: readonly ReplayedRun[]): Generator<ReplayedRun | SpillSegment> {
  let next = 0;
  for (const segment of segments) {
    while (next < segment.at) yield kept[next++]!;
    yield segment;
  }
  while (next < kept.length) yield kept[next++]!;
}

const isSegment = (item: ReplayedRun | SpillSegment): item is SpillSegment => "path" in item;

/** The kept runs, and in their places what each segment noted of its runs (none read back). */
function* noted(segments: readonly SpillSegment[], kept: readonly ReplayedRun[]): Generator<ReplayedRun | SegmentFacts> {
  for (const item of inPlaces(segments, kept)) yield isSegment(item) ? item.facts! : item;
}

/** The kept runs, and in their places the notes of the spilled ones (runNotes.ts; none of the runs read back). */
function* notedRuns(segments: readonly SpillSegment[], kept: readonly ReplayedRun[]): Generator<ReplayedRun | RunNote> {
  const reader = new SegmentReader();
  try {
    for (const item of inPlaces(segments, kept)) {
      if (!isSegment(item)) yield item;
      else for (const line of reader.lines(item.notes!)) yield runNote(line);
    }
  } finally {
    reader.close();
  }
}
