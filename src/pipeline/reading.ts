/**
 * Reading inputs: paths → input units (openclawFiles.ts) → adapters → prepared events, every line
 * accounted for in one tally. This module owns the whole transaction of the adapters' checked
 * shortcuts: a unit is read with them, and when one fails (`ReadAgain`) what was tallied and
 * delivered for the unit is undone and it is read again, that file the long way.
 */
import type { InputFormat, LineCounts, TranscriptCounts, UnitPreface } from "../adapters/adapter.js";
import { LineTally, ReadAgain, UnitHistory, type AdapterContext, type AdapterOptions } from "../adapters/adapter.js";
import { adapterFor, INPUT_FILES } from "../adapters/registry.js";
import { expandUnits, openSource, type InputUnit } from "../adapters/discovery.js";
import { setLineLimit, type LineSource } from "../adapters/io/lineSource.js";
import type { LoopEvent, TurnEvent } from "../core/events.js";
import type { Diagnostic } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import { selectProfiles, type ProfileSelection } from "../core/profiles/selection.js";
import { isLiveEvent, type LiveEvent } from "../core/liveEvents.js";
import { EventPreparer, type PreparedEvent } from "../core/prepare.js";
import type { RunFacts } from "../core/runIdentity.js";
import type { InputProgress } from "./progress.js";
import { readingSource, type StreamProblemSeen } from "./readingSource.js";
import { tuneHeapForStreaming } from "./v8Tuning.js";

export interface InputOptions extends AdapterOptions {
  readonly inputFormat?: InputFormat;
  /** `--profile`; absent = the default generation. Plain data: it crosses to worker threads. */
  readonly profile?: ProfileRequest;
  /** Told as input is read (progress.ts: each file's bytes count once, whatever the passes). */
  readonly progress?: InputProgress;
  /** Waited for between chunks of input (ReadOptions.afterChunk); like `progress`, not for worker threads. */
  readonly afterChunk?: () => Promise<void> | undefined;
  /** Lines longer than this are skipped as bad without being kept (default MAX_LINE_BYTES, lineSource.ts). */
  readonly maxLineBytes?: number;
  /** Read files only up to their last complete line (`looplens watch`: sources.ts `completeLines`). */
  readonly completeLines?: boolean;
  /** The bytes `-` reads instead of process.stdin (the library API, src/api/inputs.ts); standard input keeps a run serial. */
  readonly standardInput?: Uint8Array;
}

/** An input file that could not be used at all (binary, no known format, unsupported compression). */
export interface UnusableFile {
  readonly file: string;
  readonly reason: string;
}

/** What reading all inputs accounted for, whatever was done with the events. */
export interface ReadSummary {
  readonly files: ReadonlyArray<{ file: string; format: InputFormat }>;
  readonly unusable: readonly UnusableFile[];
  readonly lines: LineCounts;
  readonly transcript: TranscriptCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
}

/**
 * Where a unit's prepared events go. `again` is true when the unit is read a second time (an adapter
 * threw `ReadAgain`): what was delivered for it before is void.
 */
export type PreparedSink = (again: boolean) => Delivery;

/** Where a unit's prepared events go, and what identifies its runs (absent: nothing reports runs). */
export interface Delivery {
  readonly events: (prepared: PreparedEvent, event: LoopEvent) => void;
  readonly facts?: (run: string, facts: RunFacts) => void;
  /**
   * Where a model turn goes unprepared (the replayer's `turn`): preparing one only copies it
   * (core/prepare.ts `preparedTurn`), so replay may take it as it is, past the preparer and the
   * switches every call and outcome goes through. Absent: a turn is prepared and delivered as any event.
   */
  readonly turn?: (event: TurnEvent) => void;
}

/** Told a file's format before its events are delivered (sweep selects runs by the kind of agent that recorded them as they come). */
export type FileFormatSink = (file: string, format: InputFormat) => void;

export interface UnitRead {
  readonly files: Array<{ file: string; format: InputFormat }>;
  readonly unusable: UnusableFile[];
}

/**
 * Reads one input unit — the files of one session read as one history (openclawFiles.ts), or a
 * single file — handing its prepared events to `sink` and live events (Gateway logs) to `live`.
 * `forReplay`: the events only go to preparation and replay, so the sink can void a unit's events
 * (adapters may take checked shortcuts, `canReadAgain`) and their arguments and results are only
 * hashed (they may stay byte strings, `bytePayloads`), and runs may be closed where the input shows
 * they are over (`closeRuns`). Not so for `looplens events`.
 *
 * A shortcut that fails in one file (`ReadAgain`) voids the whole unit, which is read again with that
 * file read the long way: the files of a unit share one replay, which cannot be undone file by file.
 */
export async function readUnit(
  unit: InputUnit,
  tally: LineTally,
  profiles: ProfileSelection,
  options: InputOptions,
  sink: PreparedSink,
  live: (event: LiveEvent) => void,
  forReplay: boolean,
  onFile?: FileFormatSink,
  onReadThrough?: (through: ReadThrough) => void,
): Promise<UnitRead> {
  // Set per unit, not per process: a worker thread, or a test running the CLI in process, reads under the caller's limit.
  setLineLimit(options.maxLineBytes);
  const start = tally.mark();
  const longWay = new Set<number>();
  const preface = await prefaceOf(unit, options);
  // A preface's file is read last (a paired sidecar replays only runs no transcript holds): the file
  // before it is the last file of the history (lastFilePass.ts and `final` run ends hold for it).
  const historyEnd = unit.length - (preface ? 2 : 1);
  for (let again = false; ; again = true) {
    const history = new UnitHistory(unit, preface ? preface() : false);
    const preparer = new EventPreparer(profiles.hashingFor);
    const deliver = sink(again);
    const read: UnitRead = { files: [], unusable: [] };
    let index = 0;
    try {
      for (; index < unit.length; index++) {
        const canReadAgain = forReplay && !longWay.has(index) && options.canReadAgain !== false;
        const lastOfUnit = index >= historyEnd;
        const outcome = await readFile(unit[index]!, tally, options, { history, preparer, deliver, live, forReplay, canReadAgain, lastOfUnit, onFile, onReadThrough });
        if ("reason" in outcome) read.unusable.push(outcome);
        else read.files.push(outcome);
      }
      if (tally.transcript.duplicates > start.transcript.duplicates) {
        const n = tally.transcript.duplicates - start.transcript.duplicates;
        tally.note({ file: unit[0]!, line: 1, reason: `${n} entr${n === 1 ? "y" : "ies"} of this session held by more than one of its files; each replayed once` });
      }
      return read;
    } catch (error) {
      if (!(error instanceof ReadAgain)) throw error;
      // Progress counts the bytes of the passes again only where they reach further (progress.ts).
      tally.rollback(start);
      longWay.add(index);
    }
  }
}

export interface FileReading {
  readonly history: UnitHistory;
  readonly preparer: EventPreparer;
  readonly deliver: Delivery;
  readonly live: (event: LiveEvent) => void;
  readonly forReplay: boolean;
  readonly canReadAgain: boolean;
  /** An adapter's `final` run end holds for its file; only in the unit's last file does it hold for the unit. */
  readonly lastOfUnit: boolean;
  readonly onFile: FileFormatSink | undefined;
  /** Told an adapter's working state with the preparer's when it read its file through (only adapters that can resume tell it). */
  readonly onReadThrough?: ((through: ReadThrough) => void) | undefined;
}

/** Where a file's reading stood at its last line: what a resumed read goes on from (cache/resumeUnit.ts). */
export interface ReadThrough {
  readonly adapter: object;
  /** The number of the file's last line. */
  readonly lines: number;
  readonly format: InputFormat;
  readonly preparer: EventPreparer;
  readonly history: UnitHistory;
  /** The context the adapter read with (its state may hold it: it is bound by name, cache/resumeUnit.ts). */
  readonly context: AdapterContext;
  /** Where the file's reading stopped when it stops at its last newline, not its end (LineSource `readEnd`). */
  readonly end?: number;
}

/** Reads one file of a unit: its format, or why it could not be used at all. */
async function readFile(path: string, tally: LineTally, options: InputOptions, reading: FileReading): Promise<{ file: string; format: InputFormat } | UnusableFile> {
  const source = await openSource(path, { completeLines: options.completeLines === true, ...(options.standardInput && { standardInput: options.standardInput }) });
  try {
    return await readSource(source, tally, options, reading);
  } finally {
    source.release?.();
  }
}

async function readSource(source: LineSource, tally: LineTally, options: InputOptions, reading: FileReading): Promise<{ file: string; format: InputFormat } | UnusableFile> {
  const chosen = await adapterFor(source, options.inputFormat);
  if ("unusable" in chosen) {
    // One diagnostic for the file, not one per line; its lines are still accounted for (ignored),
    // so that read = used + ignored + skipped covers every line given.
    tally.note({ file: source.file, line: 1, reason: `not read: ${chosen.unusable}` });
    await source.forEachLine(() => void tally.ignored());
    return { file: source.file, reason: chosen.unusable };
  }
  const { adapter } = chosen;
  reading.onFile?.(source.file, adapter.format);
  const before = tally.counts.read;
  const problem: StreamProblemSeen = {};
  // Only when a point is asked for: an OpenClaw reader takes no shortcut that a point cannot carry then (session.ts `keepsPoint`).
  const told = adapter.resume !== undefined && reading.onReadThrough !== undefined;
  const context: AdapterContext = adapterContext(tally, options, reading, told ? (state, lines) => reading.onReadThrough?.(readThrough(source, { adapter: state, lines, format: adapter.format, context }, reading)) : undefined);
  await adapter.read(readingSource(source, tally, options.progress, options.afterChunk, problem), context);
  if (tally.counts.read === before) {
    // A compressed stream corrupt before its first line (a file of gzip's magic bytes and garbage):
    // nothing of it could be read, so it is a file not read (its problem said above), not an empty one.
    if (problem.reason !== undefined) return { file: source.file, reason: problem.reason.replace(/; read up to here$/, "") };
    // Not an error (exit status unchanged), but an empty input is worth one line on stderr.
    tally.note({ file: source.file, line: 1, reason: "empty file: nothing to analyse" });
  }
  return { file: source.file, format: adapter.format };
}

/** Where a file's reading stood at its last line (`onReadThrough`). */
export function readThrough(source: LineSource, read: Pick<ReadThrough, "adapter" | "lines" | "format" | "context">, reading: FileReading): ReadThrough {
  return { ...read, preparer: reading.preparer, history: reading.history, ...(source.readEnd !== undefined && { end: source.readEnd }) };
}

/** What an adapter is handed to read a file of the unit with (`onReadThrough`: when its state is asked for). */
export function adapterContext(tally: LineTally, options: InputOptions, reading: FileReading, onReadThrough: AdapterContext["onReadThrough"]): AdapterContext {
  const { preparer, deliver, live, forReplay, lastOfUnit } = reading;
  return {
    tally,
    unit: reading.history,
    // `canReadAgain`, `bytePayloads`, `closeRuns: false` in the options turn those off (tests compare both ways).
    options: { ...options, canReadAgain: reading.canReadAgain, lastOfUnit, bytePayloads: forReplay && options.bytePayloads !== false, closeRuns: forReplay && options.closeRuns !== false },
    emit(event) {
      // Adapters of formats with live events never throw ReadAgain: those could not be undone.
      if (isLiveEvent(event)) {
        live(event);
        return { used: true };
      }
      const disposition = preparer.prepare(lastOfUnit || event.type !== "run_end" || event.final !== true ? event : { ...event, final: undefined });
      if (!disposition.used) return disposition;
      deliver.events(disposition.prepared, event);
      return { used: true };
    },
    ...(deliver.facts && { facts: deliver.facts }),
    ...(deliver.turn && { turn: deliver.turn }),
    ...(onReadThrough && { onReadThrough }),
  };
}

/**
 * What a format learns of the unit before its files are read (adapter.ts `UnitPreface`: an OpenClaw
 * session's sidecar, whose first pass names its transcripts' runs), the first descriptor's that has one.
 */
async function prefaceOf(unit: InputUnit, options: InputOptions): Promise<(() => UnitPreface) | undefined> {
  for (const files of INPUT_FILES) {
    const preface = await files.preface?.(unit, options.inputFormat);
    if (preface !== undefined) return preface;
  }
  return undefined;
}

export interface ReadAll {
  readonly tally: LineTally;
  readonly files: Array<{ file: string; format: InputFormat }>;
  readonly unusable: UnusableFile[];
}

/**
 * Reads every input once, one unit after another in the order given so that output order never
 * depends on timing.
 */
export async function readInputs(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  sink: PreparedSink,
  live: (event: LiveEvent) => void,
  forReplay: boolean,
  onFile?: FileFormatSink,
): Promise<ReadAll> {
  const tally = new LineTally();
  const profiles = selectProfiles(options.profile, digest);
  const all: ReadAll = { tally, files: [], unusable: [] };
  for (const unit of await expandUnits(paths)) {
    const read = await readUnit(unit, tally, profiles, options, sink, live, forReplay, onFile);
    for (const file of read.files) all.files.push(file);
    for (const file of read.unusable) all.unusable.push(file);
  }
  return all;
}

export function readSummary({ tally, files, unusable }: ReadAll): ReadSummary {
  return { files, unusable, lines: tally.counts, transcript: tally.transcript, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** What reading units one by one (on any thread) accounted for, joined in input order as if one tally had counted it all. */
export class SummaryJoin {
  private readonly all: ReadAll = { tally: new LineTally(), files: [], unusable: [] };

  add(part: ReadSummary): void {
    const { tally, files, unusable } = this.all;
    for (const key of ["read", "used", "ignored", "skipped"] as const) tally.counts[key] += part.lines[key];
    for (const key of ["copies", "duplicates", "reconstructedCalls"] as const) tally.transcript[key] += part.transcript[key];
    for (const diagnostic of part.diagnostics) tally.note(diagnostic);
    tally.diagnosticsTotal += part.diagnosticsTotal - part.diagnostics.length;
    for (const file of part.files) files.push(file);
    for (const file of part.unusable) unusable.push(file);
  }

  summary(): ReadSummary {
    return readSummary(this.all);
  }
}

export function joinSummaries(parts: readonly ReadSummary[]): ReadSummary {
  const join = new SummaryJoin();
  for (const part of parts) join.add(part);
  return join.summary();
}

/** Reads every input and hands each event that replay (or the live report) would use to `onEvent` (`looplens events`). */
export async function readEvents(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  onEvent: (event: LoopEvent | LiveEvent) => void,
): Promise<ReadSummary> {
  // Nothing outlives the event it is read for: the young generation is held small as for analyze
  // (v8Tuning.ts; it grew to ~50 MB on a 290 MB transcript, the process to 171 MB).
  tuneHeapForStreaming();
  // Events are written out as they come and cannot be taken back: no shortcut that may need a second read.
  return readSummary(await readInputs(paths, digest, options, () => ({ events: (_prepared, event) => onEvent(event) }), onEvent, false));
}

