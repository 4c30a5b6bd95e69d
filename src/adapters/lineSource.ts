/**
 * Streaming line reader: files (gzip and zstd transparently, recognised by their magic bytes, so an
 * archived `x.jsonl.reset.<ts>` that was compressed still reads), or standard input.
 * Lines are split on raw bytes and decoded one at a time (invalid UTF-8 becomes U+FFFD), so neither
 * a huge file nor a huge line is ever decoded whole twice. CRLF endings and a BOM at the start of a
 * line (files concatenated with `cat` keep theirs) are removed.
 *
 * A line longer than MAX_LINE_BYTES is not kept in memory at all: its pieces are dropped as they
 * arrive and the handler gets TOO_LONG_LINE with `problem.tooLong` set, so memory stays bounded
 * whatever the input (and V8's string length limit, ~512 MB, is never hit).
 *
 * A per-line stream object (as the `ndjson` package builds) costs more than the JSON.parse it wraps;
 * this splitter hands each line to a synchronous callback instead. Measured once against ndjson 2.0.0
 * (split2 + JSON.parse, installed outside the repo), read + split + JSON.parse of the same file,
 * medians of 5: 67 MB of ~4 KB event lines, ours 125 MB/s vs ndjson 31 MB/s; 89 MB of ~220-byte
 * Gateway-log-like lines, 135 vs 94 MB/s (2 cores, machine under load).
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { Decompress } from "fzstd";

/** Something wrong with a line's bytes, found while splitting (the text is still handed over). */
export interface LineProblem {
  /** Bytes that are not UTF-8 were replaced by U+FFFD. */
  readonly invalidUtf8?: boolean;
  /** The line had this many bytes, over MAX_LINE_BYTES; its text was dropped (see TOO_LONG_LINE). */
  readonly tooLong?: number;
}

/** Called once per line; return `false` to stop reading early (format sniffing). */
export type LineHandler = (text: string, lineNo: number, terminated: boolean, problem?: LineProblem) => boolean | void;

/**
 * Called once per line with its undecoded bytes, `bytes[start, end)` (a trailing CR already
 * removed, a BOM kept), valid only during the call. `tooLong` is set, and the range empty, for a line
 * over the limit. For passes that look at a few ASCII tokens of each line: decoding every line to a
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

/** Lines above this size are skipped unread (a 100 MB line is still read). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

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
  /** Reads the whole input from the start; may be called more than once. */
  forEachLine(handler: LineHandler, options?: ReadOptions): Promise<void>;
  /** The same lines undecoded (sources that cannot offer this leave it out; readers then decode). */
  forEachRawLine?(handler: RawLineHandler, options?: ReadOptions): Promise<void>;
}

/** Read size: 256 KB reads peak ~20 MB lower than 1 MB reads per thread, at the same speed (bench/). */
const CHUNK = 1 << 18;

/** True when decoding replaced bytes that were not UTF-8 (rather than a real U+FFFD in the input). */
function hasInvalidUtf8(text: string, buf: Buffer, start: number, end: number): boolean {
  if (!text.includes("\uFFFD")) return false;
  let decoded = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) decoded++;
  let literal = 0;
  for (let i = buf.indexOf("\uFFFD", start); i !== -1 && i < end; i = buf.indexOf("\uFFFD", i + 3)) literal++;
  return decoded !== literal;
}

/**
 * Decodes each raw line for a text handler: UTF-8 (invalid bytes become U+FFFD and are flagged), a
 * BOM at the start of the line removed, over-long lines handed over as TOO_LONG_LINE.
 */
export function decodingLines(handler: LineHandler): RawLineHandler {
  return (buf, start, end, lineNo, terminated, tooLong) => {
    if (tooLong !== undefined) return handler(TOO_LONG_LINE, lineNo, terminated, { tooLong });
    const { text, problem } = decodeLine(buf, start, end);
    return handler(text, lineNo, terminated, problem);
  };
}

/** Where a line's content starts: after a UTF-8 BOM (EF BB BF) if it has one. */
export function afterBom(bytes: Buffer, start: number, end: number): number {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? start + 3 : start;
}

/** `bytes.toString("latin1", from, to)` without its argument checks, which cost as much as the copy on small lines. */
export function latin1Text(bytes: Buffer, from: number, to: number): string {
  return (bytes as unknown as { latin1Slice(from: number, to: number): string }).latin1Slice(from, to);
}

/** One line's text: UTF-8 (invalid bytes flagged), a BOM at its start removed. */
export function decodeLine(buf: Buffer, start: number, end: number): { text: string; problem?: LineProblem } {
  let text = buf.toString("utf8", start, end);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
  return hasInvalidUtf8(text, buf, start, end) ? { text, problem: { invalidUtf8: true } } : { text };
}

/**
 * Splits pushed chunks into lines on raw bytes. Chunks may be reused by the caller after `push`
 * returns: every line is handed over before that, and an unfinished line is copied.
 */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carried = 0; // bytes of the unfinished line, kept or dropped
  private lineNo = 0;

  constructor(
    private readonly handler: RawLineHandler,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Lines handed over so far. */
  get lines(): number {
    return this.lineNo;
  }

  private emit(buf: Buffer, start: number, end: number, terminated: boolean): boolean {
    this.lineNo++;
    if (end > start && buf[end - 1] === 13) end--; // CRLF
    return this.handler(buf, start, end, this.lineNo, terminated) !== false;
  }

  private emitTooLong(bytes: number, terminated: boolean): boolean {
    this.lineNo++;
    return this.handler(EMPTY, 0, 0, this.lineNo, terminated, bytes) !== false;
  }

  private endCarried(chunk: Buffer, start: number, end: number, terminated: boolean): boolean {
    const bytes = this.carried + (end - start);
    const carry = this.carry;
    this.carry = [];
    this.carried = 0;
    if (bytes > this.maxLineBytes) return this.emitTooLong(bytes, terminated);
    carry.push(chunk.subarray(start, end));
    const line = Buffer.concat(carry);
    return this.emit(line, 0, line.length, terminated);
  }

  /** Returns false when the handler asked to stop. */
  push(chunk: Buffer): boolean {
    const max = this.maxLineBytes;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const keepGoing =
        this.carried > 0 ? this.endCarried(chunk, start, nl, true) : nl - start > max ? this.emitTooLong(nl - start, true) : this.emit(chunk, start, nl, true);
      if (!keepGoing) return false;
      start = nl + 1;
    }
    // Pieces of an unfinished line are copied (the chunk may be reused) and joined once: a 100 MB
    // line costs O(n). Past the limit they are dropped, counting bytes only.
    if (start < chunk.length) {
      this.carried += chunk.length - start;
      if (this.carried <= max) this.carry.push(Buffer.from(chunk.subarray(start)));
      else this.carry = [];
    }
    return true;
  }

  /** The last line, if the input did not end with a newline. */
  end(): void {
    if (this.carried > 0) this.endCarried(Buffer.alloc(0), 0, 0, false);
  }
}

const EMPTY = Buffer.alloc(0);

/** Splits a stream of chunks into decoded lines. */
export function splitLines(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, handler: LineHandler, options: ReadOptions = {}): Promise<void> {
  return splitRawLines(chunks, decodingLines(handler), options);
}

export async function splitRawLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  handler: RawLineHandler,
  options: ReadOptions = {},
): Promise<void> {
  const { onBytes, onStreamProblem, maxLineBytes } = options;
  const splitter = new LineSplitter(handler, maxLineBytes);
  let problem: string | undefined;
  try {
    for await (const raw of chunks) {
      const chunk = typeof raw === "string" ? Buffer.from(raw) : raw;
      if (!splitter.push(chunk)) return;
      onBytes?.(chunk.length); // after the split: progress counts the lines of these bytes
    }
  } catch (error) {
    // Only decompression fails mid-stream (a crash while writing a .gz/.zst): keep what was read.
    if (!(error instanceof DecompressionError)) throw error;
    problem = error.message;
  }
  splitter.end();
  if (problem !== undefined) onStreamProblem?.(splitter.lines, problem);
}

/**
 * Plain files are read synchronously into one reused buffer. A read stream allocates a fresh buffer
 * per read, and those are reclaimed so lazily that they alone held ~60 MB of RSS on a 200 MB folder.
 * Asynchronous reads cost a thread-pool round trip each, which a pass that only scans bytes waits
 * on (bench: ~80 of 1300 ms idle for a 67 MB transcript); a synchronous read of a cached file is a
 * copy. Every YIELD_EVERY reads the loop yields, so that a worker pool's messages and the progress
 * bar are not held up by a large file.
 */
async function readPlainFile(path: string, handler: RawLineHandler, options: ReadOptions): Promise<void> {
  const { onBytes, maxLineBytes } = options;
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const splitter = new LineSplitter(handler, maxLineBytes);
    // Format sniffing stops after a few lines: the first read is small.
    for (let reads = 0, size = FIRST_READ; ; reads++, size = CHUNK) {
      const bytesRead = readSync(fd, buffer, 0, size, null);
      if (bytesRead === 0) break;
      if (!splitter.push(buffer.subarray(0, bytesRead))) return;
      onBytes?.(bytesRead);
      if (reads % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    splitter.end();
  } finally {
    closeSync(fd);
  }
}

const YIELD_EVERY = 16;
const FIRST_READ = 1 << 16;

type Compression = "gzip" | "zstd" | "none";

function compressionOf(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return "zstd";
  return "none";
}

const isZlibError = (error: unknown): boolean => String((error as { code?: unknown })?.code ?? "").startsWith("Z_");

async function* gunzipChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const input = Readable.from(chunks, { objectMode: false });
  const gunzip = createGunzip();
  // pipe() does not forward errors: a read error would be left unhandled and crash the process.
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    // A read error of the file is not the data's fault: it stays an error (see readReporting).
    if (!isZlibError(error)) throw error;
    throw new DecompressionError(`gzip data ends early or is corrupt (${(error as Error).message}); read up to here`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

async function* countingBytes(chunks: AsyncIterable<Buffer>, onBytes: ((bytes: number) => void) | undefined): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    onBytes?.(chunk.length);
    yield chunk;
  }
}

/** Streams zstd through fzstd's `Decompress`; small input chunks keep the output queue short. */
async function* zstdChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const out: Buffer[] = [];
  // In streaming mode fzstd allocates every decoded block afresh, so a view (no copy) is safe.
  const decoder = new Decompress((data) => void out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
  const fail = (error: unknown) =>
    new DecompressionError(`zstd data ends early or is corrupt (${(error as Error)?.message ?? error}); read up to here`);
  for await (const chunk of chunks) {
    try {
      decoder.push(chunk);
    } catch (error) {
      yield* out.splice(0);
      throw fail(error);
    }
    yield* out.splice(0);
  }
  try {
    decoder.push(new Uint8Array(0), true);
  } catch (error) {
    yield* out.splice(0);
    throw fail(error);
  }
  yield* out.splice(0);
}

function decompressedChunks(compression: Exclude<Compression, "none">, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  return compression === "gzip" ? gunzipChunks(chunks) : zstdChunks(chunks);
}

/** Synchronous, like the plain read: cheaper than thread-pool round trips per file. */
function firstBytes(path: string): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const head = new Uint8Array(4);
    return head.subarray(0, readSync(fd, head, 0, 4, 0));
  } finally {
    closeSync(fd);
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory",
  ENOTDIR: "a component of the path is not a directory",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "file name too long",
  EIO: "input/output error",
};

/** `cannot read PATH: why`, for file-system errors. */
export function describeReadError(path: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const reason = code !== undefined ? FS_REASONS[code] : undefined;
  return `cannot read ${path}: ${reason ?? message ?? String(error)}`;
}

/** Errors of the file or stream (not of the handler) become one-line InputErrors. */
async function readReporting(path: string, handler: RawLineHandler, read: (handler: RawLineHandler) => Promise<void>): Promise<void> {
  let handlerError: unknown;
  const guarded: RawLineHandler = (...args) => {
    try {
      return handler(...args);
    } catch (error) {
      handlerError = error;
      throw error;
    }
  };
  try {
    await read(guarded);
  } catch (error) {
    if (error === handlerError || error instanceof InputError) throw error;
    throw new InputError(describeReadError(path, error));
  }
}

/** A source from its raw-line reader: `forEachLine` decodes what `forEachRawLine` splits. */
function rawSource(file: string, size: number | undefined, forEachRawLine: (handler: RawLineHandler, options?: ReadOptions) => Promise<void>): LineSource {
  return {
    file,
    size,
    forEachRawLine,
    forEachLine: (handler, options) => forEachRawLine(decodingLines(handler), options),
  };
}

const ZSTD_CHUNK = 1 << 14;

export async function fileSource(path: string): Promise<LineSource> {
  const info = statSync(path); // synchronous: cheaper than a thread-pool round trip per file
  const compression = info.isFile() ? compressionOf(firstBytes(path)) : "none";
  return rawSource(path, info.size, async (handler, options = {}) => {
    // Regular uncompressed files (the common case) go through reused buffers; pipes and
    // compressed files through a stream.
    if (compression === "none" && info.isFile()) return readReporting(path, handler, (guarded) => readPlainFile(path, guarded, options));
    const stream = createReadStream(path, { highWaterMark: compression === "zstd" ? ZSTD_CHUNK : CHUNK });
    const read = (guarded: RawLineHandler): Promise<void> => {
      const raw = stream as AsyncIterable<Buffer>;
      if (compression === "none") return splitRawLines(raw, guarded, options);
      // Progress counts bytes on disk, so it is measured before decompression.
      const chunks = decompressedChunks(compression, countingBytes(raw, options.onBytes));
      return splitRawLines(chunks, guarded, { ...options, onBytes: undefined });
    };
    try {
      await readReporting(path, handler, read);
    } finally {
      stream.destroy();
    }
  });
}

/** Standard input can be read only once, so it is kept in memory for adapters that need two passes. */
export async function stdinSource(stdin: Readable = process.stdin): Promise<LineSource> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const raw = Buffer.concat(chunks);
  const compression = compressionOf(raw);
  if (compression === "none") return bufferSource("-", raw);
  const parts: Buffer[] = [];
  let problem: string | undefined;
  try {
    for await (const part of decompressedChunks(compression, [raw])) parts.push(part);
  } catch (error) {
    if (!(error instanceof DecompressionError)) throw error;
    problem = error.message;
  }
  const data = Buffer.concat(parts);
  // Replayed on every read, failing where the stream failed, so that splitLines reports it as for a file.
  async function* replay(): AsyncGenerator<Buffer> {
    yield data;
    if (problem !== undefined) throw new DecompressionError(problem);
  }
  return rawSource("-", raw.length, async (handler, options = {}) => {
    await splitRawLines(replay(), handler, { ...options, onBytes: undefined });
    options.onBytes?.(raw.length);
  });
}

function bufferSource(file: string, data: Buffer): LineSource {
  return rawSource(file, data.length, (handler, options) => splitRawLines([data], handler, options));
}

/** In-memory source (tests, and anything already buffered). */
export function textSource(file: string, text: string): LineSource {
  return bufferSource(file, Buffer.from(text));
}
