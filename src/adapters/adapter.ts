/**
 * The contract every input format implements: recognise itself from a few parsed lines, then turn
 * its lines into canonical events, accounting for every line (read = used + ignored + skipped).
 */
import type { LoopEvent, TurnEvent } from "../core/events.js";
import type { Disposition } from "../core/disposition.js";
import type { Diagnostic, LineCounts, TranscriptCounts } from "../core/findings.js";
import type { LiveEvent } from "../core/liveEvents.js";
import type { RunFacts } from "../core/runIdentity.js";
import { isPlainObject } from "../core/plainObject.js";
import { TOO_LONG_LINE, tooLongReason, UNREADABLE_LINE_PREFIX, type LineProblem, type LineSource } from "./io/lineSource.js";
import type { ForkTagger } from "./shared/forkHeads.js";
import { IdSet, KeySet } from "./shared/keySets.js";

/**
 * A format's name (`openclaw-session`, `claude-code`, …). The known ones are the registry's
 * (registry.ts `INPUT_FORMATS`): `--input-format` is checked against it, so a new format is named in
 * one place, its adapter.
 */
export type InputFormat = string;

export type { LineCounts, TranscriptCounts } from "../core/findings.js";

export const noTranscriptCounts = (): TranscriptCounts => ({ copies: 0, duplicates: 0, reconstructedCalls: 0 });

/** Diagnostics kept for the report; the counts stay exact beyond the cap. */
export const MAX_KEPT_DIAGNOSTICS = 1000;

/** Per-run line accounting shared by all inputs of one analysis. */
export class LineTally {
  readonly counts: LineCounts = { read: 0, used: 0, ignored: 0, skipped: 0 };
  readonly transcript: TranscriptCounts = noTranscriptCounts();
  readonly diagnostics: Diagnostic[] = [];
  diagnosticsTotal = 0;

  used(): void {
    this.counts.read++;
    this.counts.used++;
  }

  /** A line of a known kind that replay does not need (blank lines, other entry types). */
  ignored(file?: string, line?: number, reason?: string): void {
    this.counts.read++;
    this.counts.ignored++;
    if (reason !== undefined && file !== undefined && line !== undefined) this.note({ file, line, reason });
  }

  /** A bad line: not JSON, not an object, or missing what its format requires. */
  skipped(file: string, line: number, reason: string): void {
    this.counts.read++;
    this.counts.skipped++;
    this.note({ file, line, reason });
  }

  /** A diagnostic that does not account for a line of its own. */
  note(diagnostic: Diagnostic): void {
    this.diagnosticsTotal++;
    if (this.diagnostics.length < MAX_KEPT_DIAGNOSTICS) this.diagnostics.push(diagnostic);
  }

  /** The state to go back to with `rollback` (a file read again after `ReadAgain`). */
  mark(): TallyMark {
    return { counts: { ...this.counts }, transcript: { ...this.transcript }, kept: this.diagnostics.length, total: this.diagnosticsTotal };
  }

  rollback(mark: TallyMark): void {
    Object.assign(this.counts, mark.counts);
    Object.assign(this.transcript, mark.transcript);
    this.diagnostics.length = mark.kept;
    this.diagnosticsTotal = mark.total;
  }
}

export interface TallyMark {
  readonly counts: Readonly<LineCounts>;
  readonly transcript: Readonly<TranscriptCounts>;
  readonly kept: number;
  readonly total: number;
}

/** Result of handing an event to replay: used, or ignored with the reason. */
export type EmitResult = Disposition;

/**
 * What a format learns of a unit before its files are read, and hands its adapter through the
 * unit's history (`InputFiles.preface`): an OpenClaw session's trajectory sidecar, read last, whose
 * first pass names the runs of the transcripts read before it (openclaw/sidecarRuns.ts). The
 * adapter that made it recognises its own (`instanceof`); reading only needs to know which file it
 * reads last.
 */
export interface UnitPreface {
  /** The unit's file read last, after the history's other files (it is not the history's last file). */
  readonly file: string;
}

/**
 * What the files of one input unit — one session's transcripts, archives, copies and sidecar, read
 * as one history (openclaw/sessionFiles.ts) — share while they are read one after another. A unit of
 * one file has one too, so adapters need no special case.
 */
export class UnitHistory {
  /** Keys (id and timestamp: transcriptCopies.ts) of entries that earlier files of the unit held; kept only when it has several files. */
  readonly entryIds: KeySet | undefined;
  /** Keys of message entries replayed so far, to recognise rewritten copies (transcriptCopies.ts). */
  readonly messageKeys = new KeySet();
  /** Tool-call ids of the session so far (a result no call carries may be a rebuilt call: transcriptReplay.ts). */
  readonly callIds = new IdSet();
  /** Runs the session's earlier files counted: default names go on as `<sessionId>#<n>`. */
  runsBefore = 0;

  constructor(
    /** Every file of the unit, in reading order. */
    readonly files: readonly string[],
    /** What a format learned of the unit before it was read (`UnitPreface`), else false. */
    readonly preface: UnitPreface | false,
  ) {
    this.entryIds = files.length > 1 ? new KeySet() : undefined;
  }
}

export interface AdapterContext {
  readonly tally: LineTally;
  readonly unit: UnitHistory;
  /** Hands an event to replay (or, for a live event from a Gateway log, to the live report). */
  emit(event: LoopEvent | LiveEvent): EmitResult;
  /**
   * Hands what identifies a run (its time, prompt, channel, model, outcome: core/runIdentity.ts) to
   * the report, after at least one event of the run; absent where nothing reports runs (`looplens events`).
   */
  readonly facts?: (run: string, facts: RunFacts) => void;
  /**
   * Hands a model turn to replay without preparing it (pipeline/reading.ts `Delivery.turn`): what
   * `emit` would do with it, at less cost. Absent where replay does not take turns so (then `emit`).
   */
  readonly turn?: (event: TurnEvent) => void;
  readonly options: AdapterOptions;
  /**
   * Told the adapter's working state once its last line was read, before anything is done at the
   * file's end: what `resume` goes on from when the file grew (pipeline/cache/resumeUnit.ts). Only
   * adapters that can resume call it. `lines`: the number of the file's last line (a line whose
   * events are held back is not counted in the tally yet; the appended lines are numbered on from it).
   */
  readonly onReadThrough?: (state: object, lines: number) => void;
}

export interface AdapterOptions {
  /**
   * Session transcripts: replay only the branch that ends at the last entry (what the model's context
   * held) instead of every executed call in file order.
   */
  readonly activeBranch?: boolean;
  /**
   * The caller can undo what `read` emitted and tallied for this file: the adapter may then take
   * shortcuts that are checked as it goes, and throw `ReadAgain` when a check fails.
   */
  readonly canReadAgain?: boolean;
  /**
   * Arguments and results may be handed over with their strings as UTF-8 bytes (`form: "bytes"`,
   * see jsonBytes.ts): the consumer only hashes them. Off when events are written out.
   */
  readonly bytePayloads?: boolean;
  /**
   * Emit `run_end` where the input shows that a run is over though it writes no such event
   * (transcripts: the next user message starts another run), so that replay frees the run's state.
   * Off when events are written out, which mirror the input's own.
   */
  readonly closeRuns?: boolean;
  /** No file of the unit is read after this one: what it holds need not be kept for later files. */
  readonly lastOfUnit?: boolean;
  /**
   * Session transcripts of at least this many bytes on disk get a pass first (default
   * LAST_FILE_PASS_BYTES, openclaw/lastFilePass.ts), when they are the last file of their unit and
   * `canReadAgain` is given: the replay then keeps copy keys and call ids only where they can matter.
   */
  readonly lastFilePassBytes?: number;
}

/**
 * Thrown by `read` (only when `canReadAgain` was given) when a shortcut turned out wrong for this
 * file: the caller undoes what was emitted and tallied for it and calls `read` again without
 * `canReadAgain`, which reads the file the long way.
 */
export class ReadAgain extends Error {
  constructor(file: string, why: string) {
    super(`${file}: ${why}; read again`);
  }
}

/** An agent whose runs a format records: `--agent KIND` selects its runs, `--agent-home KIND` reads its folders. */
export interface AgentOfFormat {
  readonly kind: string;
  /** The folders the agent writes its transcripts to by default (existing or not), for `--agent-home`. */
  readonly homes?: (env: NodeJS.ProcessEnv, home: string) => string[];
}

/**
 * How a format's files are found and grouped into input units (discovery.ts reads these for every
 * format; no other module knows a format's file names).
 */
export interface InputFiles {
  /** Files a folder scan takes besides `*.jsonl`, `*.ndjson`, `*.log` (and their `.gz`/`.zst`): `name` is the file's name, `path` its path. */
  readonly scan?: (name: string, path: string) => boolean;
  /**
   * Files that are fragments of one input (an OpenHands events folder: one event a file): the files
   * it claims are grouped into units that every command reads as one input (`check` too, named by
   * `name`); the format's other files are left to the other rules.
   */
  readonly fragments?: {
    claims(file: string): boolean;
    units(files: readonly string[]): string[][];
    name(unit: readonly string[]): string;
  };
  /** What ties a forked conversation's files together (shared/forkFamilies.ts): the fork and its parent are one unit. */
  readonly forkTag?: ForkTagger;
  /**
   * A file at this path can only be this format's (its agent writes there and no other agent does):
   * it is not opened to look for another format's fork tag.
   */
  readonly ownsPath?: (path: string) => boolean;
  /**
   * The files of one session that analysis reads as one history (OpenClaw's transcript, its
   * archives and its sidecar): units of the files given, every other file a unit of its own. `check`
   * snapshots each file on its own.
   */
  readonly lives?: (files: readonly string[]) => string[][];
  /**
   * The other files of `file`'s unit in its folder (what a folder scan reads with it), for a command
   * given one file of a unit (`looplens explain FILE:LINE`); none when the file stands alone.
   */
  readonly companions?: (file: string) => Promise<string[]>;
  /** A file that stands for several inputs, `<file>#<member>` each (a SQLite transcript store: one a session). */
  readonly container?: InputContainer;
  /**
   * What the format learns of a unit before its files are read, when it does (`UnitPreface`);
   * `forced` is `--input-format`. Made again for each reading of the unit (a `ReadAgain`).
   */
  readonly preface?: (unit: readonly string[], forced: InputFormat | undefined) => Promise<(() => UnitPreface) | undefined>;
}

export interface InputContainer {
  /** Whether a folder scan's file of this name is opened to check that it is one (no other file is). */
  named(name: string): boolean;
  is(path: string): Promise<boolean>;
  /** The members, each one input `<path>#<member>`. */
  members(path: string): Promise<string[]>;
  open(path: string, member: string): Promise<LineSource>;
}

export interface InputAdapter {
  readonly format: InputFormat;
  /** The agent whose runs the format records; absent for looplens' own canonical events. */
  readonly agent?: AgentOfFormat;
  /** How its files are found and grouped, where it is more than one file at a time. */
  readonly files?: InputFiles;
  /** True when these first meaningful lines (parsed JSON, or the raw text if unparsable) are this format. */
  sniff(samples: readonly unknown[]): boolean;
  /**
   * True when a line too long to sample (over MAX_SAMPLE_LINE), known only by how it begins (its
   * first LINE_HEAD_BYTES, decoded), starts a file of this format: asked only when no adapter
   * recognised the samples, for formats whose every line may be that long (OpenHands evaluation output).
   */
  sniffLongLine?(head: string): boolean;
  read(source: LineSource, context: AdapterContext): Promise<void>;
  /**
   * Reads lines appended to a file that `read` read through, going on from the state it told
   * `onReadThrough` (restored: pipeline/cache/stateCodec.ts); the source's lines are numbered on
   * from the old ones. Formats whose earlier lines depend on later ones have none.
   */
  resume?(source: LineSource, context: AdapterContext, state: object): Promise<void>;
  /**
   * The classes of the state `resume` goes on from, by name: the state codec revives them with their
   * prototypes (pipeline/cache/resumeClasses.ts gathers them from the registry, so that the pipeline
   * names no format's folder).
   */
  readonly stateClasses?: Readonly<Record<string, abstract new (...args: never[]) => unknown>>;
}

export type ParsedLine =
  | { readonly ok: true; readonly value: unknown; /** Worth a diagnostic even if the line is used. */ readonly notice?: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses a JSON line, telling a truncated last line, an over-long line and bytes that were not UTF-8
 * apart from a plain bad line.
 */
export function parseJsonLine(text: string, terminated: boolean, problem?: LineProblem): ParsedLine {
  if (problem?.tooLong !== undefined || text === TOO_LONG_LINE) {
    return { ok: false, reason: tooLongReason(problem?.tooLong, problem?.head) };
  }
  try {
    const value: unknown = JSON.parse(text);
    return problem?.invalidUtf8 ? { ok: true, value, notice: "invalid UTF-8 (replaced by U+FFFD)" } : { ok: true, value };
  } catch {
    // A line the source could not give comes as text that names why (lineSource.ts `unreadableLine`).
    if (text.startsWith(UNREADABLE_LINE_PREFIX)) return { ok: false, reason: `unreadable ${text.slice(UNREADABLE_LINE_PREFIX.length, -1)}` };
    const reason = terminated ? "not valid JSON" : "truncated last line (not valid JSON)";
    const why = [problem?.invalidUtf8 ? "invalid UTF-8" : "", text.includes("\u0000") ? "NUL byte" : ""].filter(Boolean).join(", ");
    return { ok: false, reason: why ? `${reason}: ${why}` : reason };
  }
}

/**
 * Lines longer than this are not parsed when a file is only being looked at (format sniffing, scans
 * before reading): a 100 MB first line would otherwise be parsed two or three times.
 */
export const MAX_SAMPLE_LINE = 1 << 20;

export function isBlank(text: string): boolean {
  return text.trim() === "";
}

export type ObjectLine =
  | { readonly kind: "blank" }
  | { readonly kind: "bad"; readonly reason: string }
  | { readonly kind: "object"; readonly value: Record<string, unknown>; /** As in ParsedLine. */ readonly notice?: string };

/**
 * A line of a JSON-lines format whose lines are objects: blank, bad (with the reason), or the object
 * (with a notice about its bytes, to be recorded whatever becomes of the line).
 */
export function parseObjectLine(text: string, terminated: boolean, problem?: LineProblem): ObjectLine {
  if (isBlank(text)) return { kind: "blank" };
  const parsed = parseJsonLine(text, terminated, problem);
  if (!parsed.ok) return { kind: "bad", reason: parsed.reason };
  const value = parsed.value;
  if (!isPlainObject(value)) return { kind: "bad", reason: parsed.notice ? `not a JSON object: ${parsed.notice}` : "not a JSON object" };
  return parsed.notice === undefined ? { kind: "object", value } : { kind: "object", value, notice: parsed.notice };
}
