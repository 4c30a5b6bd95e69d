/**
 * The shared pipeline of the analysing commands: paths → adapters → prepared events → replay.
 * `prepareInputs` does the config-independent work once; `replayPrepared` replays it under a config
 * (analyze replays once, sweep many times, without parsing or hashing again).
 */
import type { InputFormat, LineCounts } from "../adapters/adapter.js";
import { LineTally, type AdapterOptions } from "../adapters/adapter.js";
import { adapterFor, expandPaths, openSource } from "../adapters/inputs.js";
import type { LineSource } from "../adapters/lineSource.js";
import type { LoopEvent } from "../core/events.js";
import type { Diagnostic, RunReport } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import { createHashing } from "../core/hashing.js";
import { EventPreparer, type PreparedEvent } from "../core/prepare.js";
import { Replayer, type ConfigForAgent } from "../core/replay.js";

export interface InputOptions extends AdapterOptions {
  readonly inputFormat?: InputFormat;
  /** Called as input is read, with the bytes read and lines split since the last call (progress). */
  readonly onProgress?: ProgressSink;
}

/**
 * Told as input is read: bytes and lines since the last call, and `moreTotal` bytes to add to the
 * expected total when an adapter reads a file a second time (session transcripts take two passes).
 */
export type ProgressSink = (bytes: number, lines: number, moreTotal?: number) => void;

/** The source, reporting bytes and lines to `sink` as it is read (per chunk, not per line). */
function reportingProgress(source: LineSource, sink: ProgressSink): LineSource {
  let passes = 0;
  return {
    ...source,
    forEachLine(handler) {
      if (passes++ > 0 && source.size !== undefined) sink(0, 0, source.size);
      let lines = 0;
      return source.forEachLine(
        (text, lineNo, terminated) => {
          lines++;
          return handler(text, lineNo, terminated);
        },
        (bytes) => {
          sink(bytes, lines);
          lines = 0;
        },
      );
    },
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
  readonly runs: RunReport[];
  readonly lines: LineCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
}

/**
 * Reads every input once, handing each file's prepared events to `sink`. Files are processed one
 * after another in the order given so that output order never depends on timing.
 */
async function readInputs(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  sink: (file: string, format: InputFormat) => (prepared: PreparedEvent, event: LoopEvent) => void,
  expand = true,
): Promise<{ tally: LineTally; files: Array<{ file: string; format: InputFormat }> }> {
  const tally = new LineTally();
  const hashing = createHashing(digest);
  const files: Array<{ file: string; format: InputFormat }> = [];
  for (const path of expand ? await expandPaths(paths) : paths) {
    const source = await openSource(path);
    const { adapter, sniffed } = await adapterFor(source, options.inputFormat);
    if (!sniffed) tally.note({ file: source.file, line: 1, reason: "format not recognised; read as looplens events (use --input-format)" });
    files.push({ file: source.file, format: adapter.format });
    const preparer = new EventPreparer(hashing);
    const deliver = sink(source.file, adapter.format);
    const wrapped = options.onProgress ? reportingProgress(source, options.onProgress) : source;
    await adapter.read(wrapped, {
      tally,
      options,
      emit(event) {
        const disposition = preparer.prepare(event);
        if (!disposition.used) return disposition;
        deliver(disposition.prepared, event);
        return { used: true };
      },
    });
  }
  return { tally, files };
}

/** Reads every input and hands each event that replay would use to `onEvent` (`looplens events`). */
export async function readEvents(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  onEvent: (event: LoopEvent) => void,
): Promise<Omit<Analysis, "runs">> {
  const { tally, files } = await readInputs(paths, digest, options, () => (_prepared, event) => onEvent(event));
  return { files, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** Parses and hashes every input once, keeping the prepared events in memory for repeated replay. */
export async function prepareInputs(paths: readonly string[], digest: Digest, options: InputOptions = {}): Promise<PreparedInputs> {
  const prepared: PreparedFile[] = [];
  const { tally } = await readInputs(paths, digest, options, (file, format) => {
    const events: PreparedEvent[] = [];
    prepared.push({ file, format, events });
    return (event) => events.push(event);
  });
  return { files: prepared, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** Replays prepared inputs under one config. */
export function replayPrepared(inputs: PreparedInputs, configFor: ConfigForAgent): RunReport[] {
  const runs: RunReport[] = [];
  for (const file of inputs.files) {
    const replayer = new Replayer(configFor);
    for (const event of file.events) replayer.push(event);
    runs.push(...replayer.finish());
  }
  return runs;
}

/** What one input file yields; files are independent, so they can be analysed in any thread. */
export interface FileAnalysis {
  readonly file: string;
  readonly format: InputFormat;
  readonly runs: RunReport[];
  readonly lines: LineCounts;
  readonly diagnostics: Diagnostic[];
  readonly diagnosticsTotal: number;
  /** Agents whose config replay asked for, in first-asked order (to replay config notices in order). */
  readonly agentsResolved: Array<string | null>;
}

/**
 * Streams one input straight through replay: nothing but findings is kept, so memory follows the
 * runs open at a time, not the size of the file.
 */
export async function analyzeFile(path: string, digest: Digest, configFor: ConfigForAgent, options: InputOptions = {}): Promise<FileAnalysis> {
  const agentsResolved: Array<string | null> = [];
  const asked = new Set<string | null>();
  const replayer = new Replayer((agent) => {
    if (!asked.has(agent)) {
      asked.add(agent);
      agentsResolved.push(agent);
    }
    return configFor(agent);
  });
  const { tally, files } = await readInputs([path], digest, options, () => (prepared) => replayer.push(prepared), false);
  const { file, format } = files[0]!;
  return { file, format, runs: replayer.finish(), lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal, agentsResolved };
}

/** Joins per-file analyses in input order, exactly as if one tally had counted them all. */
export function mergeAnalyses(parts: readonly FileAnalysis[]): Analysis {
  const tally = new LineTally();
  const runs: RunReport[] = [];
  for (const part of parts) {
    for (const key of ["read", "used", "ignored", "skipped"] as const) tally.counts[key] += part.lines[key];
    for (const diagnostic of part.diagnostics) tally.note(diagnostic);
    tally.diagnosticsTotal += part.diagnosticsTotal - part.diagnostics.length;
    runs.push(...part.runs);
  }
  return {
    files: parts.map(({ file, format }) => ({ file, format })),
    runs,
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
  const parts: FileAnalysis[] = [];
  for (const path of await expandPaths(paths)) parts.push(await analyzeFile(path, digest, configFor, options));
  return mergeAnalyses(parts);
}
