/**
 * The shared pipeline of the analysing commands: paths → adapters → prepared events → replay.
 * `prepareInputs` does the config-independent work once; `replayPrepared` replays it under a config
 * (analyze replays once, sweep many times, without parsing or hashing again).
 */
import type { InputFormat, LineCounts } from "../adapters/adapter.js";
import { LineTally, ReadAgain, type AdapterOptions } from "../adapters/adapter.js";
import { adapterFor, expandPaths, openSource } from "../adapters/inputs.js";
import type { LineSource, RawLineHandler, ReadOptions } from "../adapters/lineSource.js";
import type { LoopEvent } from "../core/events.js";
import type { Diagnostic, Finding, RunReport } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { selectProfiles, type ProfileSelection } from "../core/profiles/selection.js";
import { isLiveEvent, type LiveEvent } from "../core/liveEvents.js";
import { LiveRunBook } from "../core/liveRuns.js";
import { EventPreparer, type PreparedEvent } from "../core/prepare.js";
import { Replayer, type ConfigForAgent, type ProfileForRun } from "../core/replay.js";

export interface InputOptions extends AdapterOptions {
  readonly inputFormat?: InputFormat;
  /** `--profile`; absent = the default generation. Plain data: it crosses to worker threads. */
  readonly profile?: ProfileRequest;
  /** Called as input is read, with the bytes read and lines split since the last call (progress). */
  readonly onProgress?: ProgressSink;
}

/**
 * Told as input is read: bytes and lines since the last call, and `moreTotal` bytes to add to the
 * expected total when an adapter reads a file a second time (session transcripts take two passes).
 */
export type ProgressSink = (bytes: number, lines: number, moreTotal?: number) => void;

/**
 * The source as the pipeline reads it: a cut-off compressed stream is noted once in the tally
 * (adapters may read a file twice), and progress, when asked for, gets bytes and lines per chunk.
 */
function readingSource(source: LineSource, tally: LineTally, onProgress: ProgressSink | undefined): LineSource {
  let passes = 0;
  let problemNoted = false;
  const onStreamProblem = (afterLine: number, reason: string) => {
    if (problemNoted) return;
    problemNoted = true;
    tally.note({ file: source.file, line: Math.max(afterLine, 1), reason });
  };
  /** Read options for one pass, and a line counter for progress (called once per line). */
  const pass = (readOptions: ReadOptions | undefined): { options: ReadOptions; countLine?: () => void } => {
    if (!onProgress) return { options: { ...readOptions, onStreamProblem } };
    // Session transcripts take two passes: the second one grows the expected total.
    if (passes++ > 0 && source.size !== undefined) onProgress(0, 0, source.size);
    let lines = 0;
    const onBytes = (bytes: number) => {
      onProgress(bytes, lines);
      lines = 0;
    };
    return { options: { ...readOptions, onStreamProblem, onBytes }, countLine: () => void lines++ };
  };
  const forEachRawLine = source.forEachRawLine?.bind(source);
  return {
    file: source.file,
    size: source.size,
    forEachLine(handler, readOptions) {
      const { options, countLine } = pass(readOptions);
      return source.forEachLine(counting(handler, countLine), options);
    },
    ...(forEachRawLine && {
      forEachRawLine(handler: RawLineHandler, readOptions?: ReadOptions) {
        const { options, countLine } = pass(readOptions);
        return forEachRawLine(counting(handler, countLine), options);
      },
    }),
  };
}

/** `handler`, calling `countLine` before each line when progress is counted. */
function counting<A extends unknown[], R>(handler: (...args: A) => R, countLine: (() => void) | undefined): (...args: A) => R {
  if (!countLine) return handler;
  return (...args) => {
    countLine();
    return handler(...args);
  };
}

export interface PreparedFile {
  readonly file: string;
  readonly format: InputFormat;
  readonly events: PreparedEvent[];
}

export interface PreparedInputs {
  readonly files: PreparedFile[];
  readonly lines: LineCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
}

export interface Analysis {
  readonly files: ReadonlyArray<{ file: string; format: InputFormat }>;
  /** Replayed runs (from transcripts and event files). */
  readonly runs: RunReport[];
  /** Runs read from Gateway logs (`source: "log"`), and every live finding (some outside any run). */
  readonly liveRuns: RunReport[];
  readonly liveFindings: Finding[];
  readonly lines: LineCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
}

/**
 * Where a file's prepared events go. `again` is true when the file is read a second time (the
 * adapter threw `ReadAgain`): what was delivered for it before is void.
 */
type PreparedSink = (file: string, format: InputFormat, again: boolean) => (prepared: PreparedEvent, event: LoopEvent) => void;

/**
 * Reads one input file, handing its prepared events to `sink` and live events (Gateway logs) to
 * `live`. `forReplay`: the events only go to preparation and replay, so the sink can void a file's
 * events (adapters may take checked shortcuts, `canReadAgain`) and their arguments and results are
 * only hashed (they may stay byte strings, `bytePayloads`), and runs may be closed where the input
 * shows they are over (`closeRuns`). Not so for `looplens events`.
 */
async function readInput(
  path: string,
  tally: LineTally,
  profiles: ProfileSelection,
  options: InputOptions,
  sink: PreparedSink,
  live: (event: LiveEvent) => void,
  forReplay: boolean,
): Promise<{ file: string; format: InputFormat }> {
  const source = await openSource(path);
  const { adapter, sniffed } = await adapterFor(source, options.inputFormat);
  if (!sniffed) tally.note({ file: source.file, line: 1, reason: "format not recognised; read as looplens events (use --input-format)" });
  const start = tally.mark();
  const read = (again: boolean) => {
    const preparer = new EventPreparer(profiles.hashingFor);
    const deliver = sink(source.file, adapter.format, again);
    return adapter.read(readingSource(source, tally, options.onProgress), {
      tally,
      // `canReadAgain`, `bytePayloads`, `closeRuns: false` in the options turn those off (tests compare both ways).
      options: { ...options, canReadAgain: forReplay && !again && options.canReadAgain !== false, bytePayloads: forReplay && options.bytePayloads !== false, closeRuns: forReplay && options.closeRuns !== false },
      emit(event) {
        // Adapters of formats with live events never throw ReadAgain: those could not be undone.
        if (isLiveEvent(event)) {
          live(event);
          return { used: true };
        }
        const disposition = preparer.prepare(event);
        if (!disposition.used) return disposition;
        deliver(disposition.prepared, event);
        return { used: true };
      },
    });
  };
  try {
    await read(false);
  } catch (error) {
    if (!(error instanceof ReadAgain)) throw error;
    tally.rollback(start);
    if (source.size !== undefined) options.onProgress?.(0, 0, 2 * source.size); // two more passes
    await read(true);
  }
  // Not an error (exit status unchanged), but an empty input is worth one line on stderr.
  if (tally.counts.read === start.counts.read) tally.note({ file: source.file, line: 1, reason: "empty file: nothing to analyse" });
  return { file: source.file, format: adapter.format };
}

/**
 * Reads every input once, one file after another in the order given so that output order never
 * depends on timing.
 */
async function readInputs(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  sink: PreparedSink,
  live: (event: LiveEvent) => void,
  forReplay: boolean,
): Promise<{ tally: LineTally; files: Array<{ file: string; format: InputFormat }> }> {
  const tally = new LineTally();
  const profiles = selectProfiles(options.profile, digest);
  const files: Array<{ file: string; format: InputFormat }> = [];
  for (const path of await expandPaths(paths)) files.push(await readInput(path, tally, profiles, options, sink, live, forReplay));
  return { tally, files };
}

/** Reads every input and hands each event that replay (or the live report) would use to `onEvent` (`looplens events`). */
export async function readEvents(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  onEvent: (event: LoopEvent | LiveEvent) => void,
): Promise<Omit<Analysis, "runs" | "liveRuns" | "liveFindings">> {
  // Events are written out as they come and cannot be taken back: no shortcut that may need a second read.
  const { tally, files } = await readInputs(paths, digest, options, () => (_prepared, event) => onEvent(event), onEvent, false);
  return { files, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** Parses and hashes every input once, keeping the prepared events in memory for repeated replay. */
export async function prepareInputs(paths: readonly string[], digest: Digest, options: InputOptions = {}): Promise<PreparedInputs> {
  const prepared: PreparedFile[] = [];
  const { tally } = await readInputs(
    paths,
    digest,
    options,
    (file, format, again) => {
      const events: PreparedEvent[] = [];
      if (again) prepared.pop();
      prepared.push({ file, format, events });
      return (event) => events.push(event);
    },
    // Live events (Gateway logs) do not depend on the config, so repeated replays have no use for them.
    () => {},
    true,
  );
  return { files: prepared, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** Replays prepared inputs under one config (and the profile choice they were prepared under). */
export function replayPrepared(inputs: PreparedInputs, configFor: ConfigForAgent, profileFor?: ProfileForRun): RunReport[] {
  const runs: RunReport[] = [];
  for (const file of inputs.files) {
    const replayer = new Replayer(configFor, profileFor);
    for (const event of file.events) replayer.push(event);
    for (const run of replayer.finish()) runs.push(run);
  }
  return runs;
}

/** What one input file yields; files are independent, so they can be analysed in any thread. */
export interface FileAnalysis {
  readonly file: string;
  readonly format: InputFormat;
  readonly runs: RunReport[];
  /** Live events of a Gateway log, folded only when merging: a run may go on in the next file. */
  readonly liveEvents: LiveEvent[];
  readonly lines: LineCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
  /** Agents (and profiles) whose config replay asked for, in first-asked order (to replay config notices in order). */
  readonly agentsResolved: Array<{ readonly agent: string | null; readonly profile: ProfileName }>;
}

/**
 * Streams one input straight through replay: nothing but findings is kept, so memory follows the
 * runs open at a time, not the size of the file.
 */
export async function analyzeFile(
  path: string,
  digest: Digest,
  configFor: ConfigForAgent,
  options: InputOptions = {},
  onLive?: (event: LiveEvent) => void,
): Promise<FileAnalysis> {
  const agentsResolved: Array<{ agent: string | null; profile: ProfileName }> = [];
  const asked = new Set<string>();
  const profiles = selectProfiles(options.profile, digest);
  const newReplayer = () =>
    new Replayer((agent, profile) => {
      const key = `${profile}\u0000${agent ?? ""}\u0000${agent === null}`;
      if (!asked.has(key)) {
        asked.add(key);
        agentsResolved.push({ agent, profile });
      }
      return configFor(agent, profile);
    }, profiles.profileFor);
  let replayer = newReplayer();
  const tally = new LineTally();
  const liveEvents: LiveEvent[] = [];
  const push = (prepared: PreparedEvent) => replayer.push(prepared);
  const sink: PreparedSink = (_file, _format, again) => {
    if (again) {
      replayer = newReplayer();
      agentsResolved.length = 0;
      asked.clear();
    }
    return push;
  };
  const live = onLive ?? ((event: LiveEvent) => void liveEvents.push(event));
  const { file, format } = await readInput(path, tally, profiles, options, sink, live, true);
  const { counts: lines, diagnostics, diagnosticsTotal } = tally;
  return { file, format, runs: replayer.finish(), liveEvents, lines, diagnostics, diagnosticsTotal, agentsResolved };
}

/**
 * Joins per-file analyses in input order, exactly as if one tally had counted them all. `book`
 * already holds the live events of a serial run (handed to it while reading, not kept per file).
 */
export function mergeAnalyses(parts: readonly FileAnalysis[], book = new LiveRunBook()): Analysis {
  const tally = new LineTally();
  const runs: RunReport[] = [];
  for (const part of parts) {
    for (const key of ["read", "used", "ignored", "skipped"] as const) tally.counts[key] += part.lines[key];
    for (const diagnostic of part.diagnostics) tally.note(diagnostic);
    tally.diagnosticsTotal += part.diagnosticsTotal - part.diagnostics.length;
    // Not push(...runs): spreading more than ~100k runs into arguments overflows the stack.
    for (const run of part.runs) runs.push(run);
    for (const event of part.liveEvents) book.push(event);
  }
  const live = book.finish();
  return {
    files: parts.map(({ file, format }) => ({ file, format })),
    runs,
    liveRuns: live.runs,
    liveFindings: live.findings,
    lines: tally.counts,
    diagnostics: tally.diagnostics,
    diagnosticsTotal: tally.diagnosticsTotal,
  };
}

/** Analyses every input, one file after another (the parallel path in parallelAnalysis.ts gives the same result). */
export async function analyzeInputs(
  paths: readonly string[],
  digest: Digest,
  configFor: ConfigForAgent,
  options: InputOptions = {},
): Promise<Analysis> {
  return analyzeSerially(await expandPaths(paths), digest, configFor, options);
}

/** Analyses already expanded input files one after another. */
export async function analyzeSerially(files: readonly string[], digest: Digest, configFor: ConfigForAgent, options: InputOptions): Promise<Analysis> {
  const parts: FileAnalysis[] = [];
  const book = new LiveRunBook();
  for (const file of files) parts.push(await analyzeFile(file, digest, configFor, options, (event) => book.push(event)));
  return mergeAnalyses(parts, book);
}
