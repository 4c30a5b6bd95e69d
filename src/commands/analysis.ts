/**
 * The shared pipeline of the analysing commands: paths → adapters → prepared events → replay.
 * `prepareInputs` does the config-independent work once; `replayPrepared` replays it under a config
 * (analyze replays once, sweep many times, without parsing or hashing again).
 */
import type { InputFormat, LineCounts } from "../adapters/adapter.js";
import { LineTally, type AdapterOptions } from "../adapters/adapter.js";
import { adapterFor, expandPaths, openSource } from "../adapters/inputs.js";
import type { LoopEvent } from "../core/events.js";
import type { Diagnostic, Finding, RunReport } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import { createHashing } from "../core/hashing.js";
import { isLiveEvent, type LiveEvent } from "../core/liveEvents.js";
import { LiveRunBook } from "../core/liveRuns.js";
import { EventPreparer, type PreparedEvent } from "../core/prepare.js";
import { Replayer, type ConfigForAgent } from "../core/replay.js";

export interface InputOptions extends AdapterOptions {
  readonly inputFormat?: InputFormat;
  /** Called with byte counts as input is read (progress display). */
  readonly onBytes?: (bytes: number) => void;
}

export interface PreparedFile {
  readonly file: string;
  readonly format: InputFormat;
  readonly events: PreparedEvent[];
}

export interface PreparedInputs {
  readonly files: PreparedFile[];
  /** Live events from Gateway logs (they need no replay: `liveAnalysisOf` folds them). */
  readonly liveEvents: LiveEvent[];
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
 * Reads every input once, handing each file's prepared events to `sink` and live events (Gateway
 * logs) to `live`. Files are processed one after another in the order given so that output order
 * never depends on timing.
 */
async function readInputs(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  sink: (file: string, format: InputFormat) => (prepared: PreparedEvent, event: LoopEvent) => void,
  live: (event: LiveEvent) => void,
): Promise<{ tally: LineTally; files: Array<{ file: string; format: InputFormat }> }> {
  const tally = new LineTally();
  const hashing = createHashing(digest);
  const files: Array<{ file: string; format: InputFormat }> = [];
  for (const path of await expandPaths(paths)) {
    const source = await openSource(path);
    const { adapter, sniffed } = await adapterFor(source, options.inputFormat);
    if (!sniffed) tally.note({ file: source.file, line: 1, reason: "format not recognised; read as looplens events (use --input-format)" });
    files.push({ file: source.file, format: adapter.format });
    const preparer = new EventPreparer(hashing);
    const deliver = sink(source.file, adapter.format);
    // Adapters may read a file twice (session transcripts); a cut-off compressed stream is noted once.
    let problemNoted = false;
    const wrapped: typeof source = {
      ...source,
      forEachLine: (handler, readOptions) =>
        source.forEachLine(handler, {
          ...readOptions,
          onBytes: options.onBytes,
          onStreamProblem: (afterLine, reason) => {
            if (problemNoted) return;
            problemNoted = true;
            tally.note({ file: source.file, line: Math.max(afterLine, 1), reason });
          },
        }),
    };
    const linesBefore = tally.counts.read;
    await adapter.read(wrapped, {
      tally,
      options,
      emit(event) {
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
    // Not an error (exit status unchanged), but an empty input is worth one line on stderr.
    if (tally.counts.read === linesBefore) tally.note({ file: source.file, line: 1, reason: "empty file: nothing to analyse" });
  }
  return { tally, files };
}

/** Reads every input and hands each event that replay (or the live report) would use to `onEvent` (`looplens events`). */
export async function readEvents(
  paths: readonly string[],
  digest: Digest,
  options: InputOptions,
  onEvent: (event: LoopEvent | LiveEvent) => void,
): Promise<Omit<Analysis, "runs" | "liveRuns" | "liveFindings">> {
  const { tally, files } = await readInputs(paths, digest, options, () => (_prepared, event) => onEvent(event), onEvent);
  return { files, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** Parses and hashes every input once, keeping the prepared events in memory for repeated replay. */
export async function prepareInputs(paths: readonly string[], digest: Digest, options: InputOptions = {}): Promise<PreparedInputs> {
  const prepared: PreparedFile[] = [];
  const liveEvents: LiveEvent[] = [];
  const { tally } = await readInputs(
    paths,
    digest,
    options,
    (file, format) => {
      const events: PreparedEvent[] = [];
      prepared.push({ file, format, events });
      return (event) => events.push(event);
    },
    (event) => liveEvents.push(event),
  );
  return { files: prepared, liveEvents, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}

/** What the Gateway logs among prepared inputs say (config-independent, so folded once). */
export function liveAnalysisOf(inputs: PreparedInputs): { liveRuns: RunReport[]; liveFindings: Finding[] } {
  const book = new LiveRunBook();
  for (const event of inputs.liveEvents) book.push(event);
  const { runs, findings } = book.finish();
  return { liveRuns: runs, liveFindings: findings };
}

/** Replays prepared inputs under one config. */
export function replayPrepared(inputs: PreparedInputs, configFor: ConfigForAgent): RunReport[] {
  const runs: RunReport[] = [];
  for (const file of inputs.files) {
    const replayer = new Replayer(configFor);
    for (const event of file.events) replayer.push(event);
    for (const run of replayer.finish()) runs.push(run);
  }
  return runs;
}

/** Streams every input straight through replay (nothing but findings is kept). */
export async function analyzeInputs(
  paths: readonly string[],
  digest: Digest,
  configFor: ConfigForAgent,
  options: InputOptions = {},
): Promise<Analysis> {
  const runs: RunReport[] = [];
  let current: Replayer | undefined;
  const flush = () => {
    // Not push(...runs): spreading more than ~100k runs into arguments overflows the stack.
    if (current) for (const run of current.finish()) runs.push(run);
    current = undefined;
  };
  const book = new LiveRunBook();
  const { tally, files } = await readInputs(
    paths,
    digest,
    options,
    () => {
      flush();
      const replayer = new Replayer(configFor);
      current = replayer;
      return (prepared) => replayer.push(prepared);
    },
    (event) => book.push(event),
  );
  flush();
  const live = book.finish();
  return { files, runs, liveRuns: live.runs, liveFindings: live.findings, lines: tally.counts, diagnostics: tally.diagnostics, diagnosticsTotal: tally.diagnosticsTotal };
}
