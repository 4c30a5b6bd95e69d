/**
 * What the analysis of one input unit is asked (`AnalysisOptions`) and gives (`FileAnalysis`):
 * analysis.ts makes it, and the result cache (cache/) keys, stores and gives it back. Types of their
 * own, so that the cache names them without importing the analysis that calls it.
 */
import type { InputFormat, LineCounts, TranscriptCounts } from "../adapters/adapter.js";
import type { Diagnostic, ReplayedRun } from "../core/findings.js";
import type { LiveEvent } from "../core/liveEvents.js";
import type { LiveBookPart } from "../core/liveRuns.js";
import type { AskedAgent } from "./askedAgents.js";
import type { ReplayOptions } from "../core/replay.js";
import type { ResumeFrom, ResumePoint } from "./cache/resumeUnit.js";
import type { OutsideRuns } from "./cache/runWindow.js";
import type { UnreadRuns } from "./cache/unreadRuns.js";
import type { FileFormatSink, InputOptions, UnusableFile } from "./reading.js";
import type { SpillOptions, SpillSegment } from "./runSpill.js";

/** How to read and replay: plain data, so that it crosses to worker threads. */
export interface AnalysisOptions extends InputOptions {
  /** Keep each replayed run's calls in order (`ReplayedRun.timeline`), for the formats that draw them. */
  readonly timelines?: boolean;
  /** Write plain runs past a budget to disk (runSpill.ts) instead of holding them all. */
  readonly spill?: SpillOptions;
  /** Told each replayed finding as it is made (a function: serial analysis only, never for workers). */
  readonly onFinding?: ReplayOptions["onFinding"];
  /** Told each file's format before its events (serial only), and each live event as it is read. */
  readonly onFile?: FileFormatSink;
  readonly onLiveEvent?: (event: LiveEvent) => void;
}

/** What one input unit yields; units are independent, so they can be analysed in any thread. */
export interface FileAnalysis {
  readonly files: ReadonlyArray<{ file: string; format: InputFormat }>;
  readonly unusable: readonly UnusableFile[];
  readonly runs: ReplayedRun[];
  /** The unit's runs written to disk after `runs[at]` (with `-` marks for the kept ones after it). */
  readonly spilled?: SpillSegment;
  /** The unit's live runs (Gateway logs), folded into the analysis's book when merging: a run may go on in the next file. */
  readonly liveBook?: LiveBookPart;
  /** The unit's runs when the cache left them unread, all outside `--since`/`--until` (runWindow.ts). */
  readonly outside?: OutsideRuns;
  /** The unit's runs left unread because the command's kept output holds their text (cache/outputSplice.ts), counted only. */
  readonly unread?: UnreadRuns;
  readonly lines: LineCounts;
  readonly transcript: TranscriptCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
  /** Agents (and profiles) whose config replay asked for, in first-asked order (to replay config notices in order). */
  readonly agentsResolved: AskedAgent[];
  /** Where the unit's reading stood at its file's end, kept by the cache for a resume when the file grows (cache/resumeUnit.ts). */
  readonly resume?: ResumePoint;
}

/** Whether to keep where a one-file unit's reading stood, and where to resume from (cache/resumeUnit.ts). */
export interface UnitResume {
  readonly keep: boolean;
  readonly from?: ResumeFrom;
}
