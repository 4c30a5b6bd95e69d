/**
 * What every input format is read through: a source of lines (a file, standard input, a store
 * session), handing each line to a synchronous callback, decoded (`forEachLine`) or as undecoded
 * bytes (`forEachRawLine`). Splitting is lineSplitter.ts, decoding decoding.ts, the sources
 * themselves (files with gzip and zstd recognised by their magic bytes, standard input, text)
 * sources.ts.
 *
 * A line longer than the line limit (`--max-line-bytes`, default MAX_LINE_BYTES) is not kept in
 * memory past the limit: its pieces are dropped as they arrive, as soon as the line is known to be over
 * the limit, and the handler gets TOO_LONG_LINE with `problem.tooLong` set, so memory stays bounded
 * whatever the input (and V8's string length limit, ~512 MB, is never hit).
 *
 * Who reads a file how often (issue 35 §5), counted per input shape by
 * test/adapters/io/lineSource.reads.test.ts on a small file of each (`analyze FILE`, and the file
 * met in a folder of its kind); an open is one read from disk, a pass one walk of the file's lines
 * (or one search of its bytes, `mayContain`):
 *
 *   shape                                   opens alone / in a folder   passes
 *   OpenClaw session transcript             2 / 1                       4: sniff, mayContain, first pass, main pass
 *   OpenClaw trajectory sidecar             2 / 1                       3: sniff, first pass, main pass
 *   Claude Code, Codex                      2 / 2                       2: sniff, read
 *   Gemini CLI, OpenHands, canonical events 2 / 2                       3: sniff, and the adapter's two
 *   Gateway log                             2 / 1                       3: sniff, and the adapter's two
 *
 * The opens: a file named alone is first looked at for a SQLite store's header (discovery.ts
 * `containerOf`, 16 bytes); a file of a format with fork families (Claude Code, Codex, and any
 * file not in an OpenClaw `sessions/` folder), when others of its kind are met with it, is opened
 * for its head (shared/forkHeads.ts, 4 KB first); then one open reads it. A file up to 1 MB is read
 * whole at that open and every pass runs over its bytes in memory (sources.ts SMALL_FILE): the
 * passes cost no read from disk. A larger file is not held: each pass opens it again (the sniff
 * reads only its first 64 KB), and one open more reads its magic bytes (sources.ts `fileSource`).
 * Removed as not paying: the fork-tag head of a file met alone (a family is two files or more; it
 * was a third open of every file named alone). Kept, measured not to pay for its removal: the head
 * of a file among others and the read that follows are one open each. To share one, discovery (which
 * groups files into units before any is read) would hold each file's first bytes until its unit is
 * read, maybe in a worker thread the bytes are copied to: up to 4 KB a file held at once (400 MB for
 * 100,000 files, or a cap and two paths). What it would save is an open, a 4 KB read and a close a
 * file: on 1,000 Claude Code files of ~18 KB (bench/generate.mjs --format claude-code, cut to at
 * most 24 KB; 18 MB), 3.6-86 ms for all of them (least-median of 7 rounds, page cache warm, load ~20
 * on 2 cores), against 6.2-8.3 s for `analyze --no-cache` of the folder: at most ~1%, within the
 * spread of one run to the next (2026-12-07).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Something wrong with a line's bytes, found while splitting (the text is still handed over). */
export interface LineProblem {
  /** Bytes that are not UTF-8 were replaced by U+FFFD. */
  readonly invalidUtf8?: boolean;
  /** The line had this many bytes, over MAX_LINE_BYTES; its text was dropped (see TOO_LONG_LINE). */
  readonly tooLong?: number;
  /** How such a line begins (its first LINE_HEAD_BYTES, decoded), for its diagnostic. */
  readonly head?: string;
}

/**
 * What a line source hands over for a line it has but cannot give (a transcript store's row with
 * neither readable JSON nor zstd): this marker, why, and ")". It is never valid JSON (it starts with
 * NUL), so every adapter takes it for a bad line, and `parseJsonLine` reports the reason.
 */
export const UNREADABLE_LINE_PREFIX = "\u0000(unreadable ";

export function unreadableLine(what: string): string {
  return `${UNREADABLE_LINE_PREFIX}${what})`;
}

/** Bytes of an over-long line kept for its diagnostic: enough to tell which line it is. */
export const LINE_HEAD_BYTES = 64;

/** Called once per line; return `false` to stop reading early (format sniffing). */
export type LineHandler = (text: string, lineNo: number, terminated: boolean, problem?: LineProblem) => boolean | void;

/**
 * Called once per line with its undecoded bytes, `bytes[start, end)` (a trailing CR already
 * removed, a BOM kept), valid only during the call. For a line over the limit `tooLong` is its
 * length, and the range only its first bytes (at most LINE_HEAD_BYTES, for the diagnostic). For passes that look at a few ASCII tokens of each line: decoding every line to a
 * string costs as much as parsing it.
 */
export type RawLineHandler = (bytes: Buffer, start: number, end: number, lineNo: number, terminated: boolean, tooLong?: number) => boolean | void;

/**
 * Told when the input could not be read to its end (a cut-off or corrupt compressed stream): the
 * lines before that point were delivered, `afterLine` is the last of them.
 */
export type StreamProblemHandler = (afterLine: number, reason: string) => void;

export interface ReadOptions {
  /** Called with byte counts as input is read (progress), counted before decompression. */
  readonly onBytes?: (bytes: number) => void;
  readonly onStreamProblem?: StreamProblemHandler;
  /**
   * Called after each chunk's lines were handed over; a promise it returns is waited for before the
   * next chunk is read (`looplens events` waits there for its output to drain).
   */
  readonly afterChunk?: () => Promise<void> | undefined;
  /**
   * Lines over this many bytes (default MAX_LINE_BYTES) are handed over as TOO_LONG_LINE without
   * being joined or decoded: a pass that only looks at a file (sniffing) sets it low to pass over
   * huge lines cheaply.
   */
  readonly maxLineBytes?: number;
}

/** A user-facing input problem (exit status 2), reported as one line without a stack trace. */
export class InputError extends Error {}

/** A compressed stream that ends early or is corrupt (what came before it is still read). */
export class DecompressionError extends Error {}

/**
 * Lines above this size are skipped unread: the default line limit. A line under the limit is held
 * whole before it is parsed, so the limit bounds memory on hostile input (a 6.9 MB gzip of one
 * 1.5 GB line: peak RSS 337 MB at 256 MiB, 114 MB at 32 MiB). The longest line of 30 real OpenClaw
 * session files is 243 KB (a tool result), of the agents' samples less: 32 MiB is over a hundred
 * times that; `--max-line-bytes` raises it.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * The line limit of this thread's reading (`--max-line-bytes`, `$LOOPLENS_MAX_LINE_BYTES`). Held here,
 * not passed along, because every adapter names it in its diagnostic for an over-long line, and
 * adapters get only the length of such a line; reading sets it (reading.ts) before each input unit.
 */
let lineLimit = MAX_LINE_BYTES;

export function setLineLimit(bytes: number | undefined): void {
  lineLimit = bytes ?? MAX_LINE_BYTES;
}

/**
 * Limits of the library's analyses (src/api/analyze.ts `maxLineBytes`): one per analysis, held in its
 * async context, so that two analyses at once on one thread each read under their own. Made on first
 * use: the CLI (one limit per thread, above) never pays for the context tracking.
 */
let scopedLimits: AsyncLocalStorage<number> | undefined;

/** Runs `work` (and all it awaits) under its own line limit. */
export function withLineLimit<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  scopedLimits ??= new AsyncLocalStorage<number>();
  return scopedLimits.run(bytes, work);
}

export function currentLineLimit(): number {
  return scopedLimits?.getStore() ?? lineLimit;
}

/** The diagnostic of a line over the limit (`bytes`: its length, when known; `head`: how it begins). */
export function tooLongReason(bytes: number | undefined, head?: string): string {
  const size = bytes !== undefined ? `${bytes} bytes, ` : "";
  const bytesLimit = currentLineLimit();
  const limit = bytesLimit % 2 ** 20 === 0 ? `${bytesLimit / 2 ** 20} MiB` : `${bytesLimit}-byte`;
  // JSON-quoted: the head is untrusted input (control characters come out escaped).
  const begins = head !== undefined && head !== "" ? `; it begins ${JSON.stringify(`${head}…`)}` : "";
  return `line too long (${size}over the ${limit} limit${begins}); not read (--max-line-bytes raises the limit)`;
}

/**
 * The text handed over in place of a dropped over-long line: not blank and never valid JSON, so that
 * any adapter skips it as a bad line even if it ignores `problem` (parseJsonLine names the reason).
 */
export const TOO_LONG_LINE = "\u0000(line too long)";

export interface LineSource {
  /** The path as shown to the user (`-` for standard input). */
  readonly file: string;
  /** Size in bytes when known (for progress), before decompression. */
  readonly size: number | undefined;
  /**
   * Where every read of a plain file stops when it is read by complete lines (`completeLines`): just
   * after its last newline when opened, from the file's start. Undefined: read to the end (a resumed
   * watch goes on from here, pipeline/watch/followedPoint.ts).
   */
  readonly readEnd?: number;
  /** Reads the whole input from the start; may be called more than once. */
  forEachLine(handler: LineHandler, options?: ReadOptions): Promise<void>;
  /** The same lines undecoded (sources that cannot offer this leave it out; readers then decode). */
  forEachRawLine?(handler: RawLineHandler, options?: ReadOptions): Promise<void>;
  /**
   * False only when none of `needles` occurs anywhere in the input's bytes: a search at the speed of
   * reading, for passes that can be skipped when a rare token is absent. Sources that cannot search
   * cheaply (compressed input) leave it out.
   */
  mayContain?(needles: readonly Buffer[]): Promise<boolean>;
  /**
   * The reader is done with the source: memory it holds may serve the next one. Called once, after
   * the last read; a source that is never released is left to the GC.
   */
  release?(): void;
}

/** Read size: 256 KB reads peak ~20 MB lower than 1 MB reads per thread, at the same speed (bench/). */
