/**
 * Streaming line reader: files (gzip transparently), folders expanded elsewhere, or standard input.
 * Lines are split on raw bytes and decoded one at a time (invalid UTF-8 becomes U+FFFD), so neither
 * a huge file nor a huge line is ever decoded whole twice. CRLF endings and a BOM at the start of a
 * line (files concatenated with `cat` keep theirs) are removed.
 *
 * A line longer than MAX_LINE_BYTES is not kept in memory at all: its pieces are dropped as they
 * arrive and the handler gets TOO_LONG_LINE with `problem.tooLong` set, so memory stays bounded
 * whatever the input (and V8's string length limit, ~512 MB, is never hit).
 *
 * A per-line stream object (as the `ndjson` package builds) costs more than the JSON.parse it wraps;
 * this splitter hands each line to a synchronous callback instead (see bench/ for the figures).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { constants as zlib, createGunzip, gunzipSync } from "node:zlib";

/** Something wrong with a line's bytes, found while splitting (the text is still handed over). */
export interface LineProblem {
  /** Bytes that are not UTF-8 were replaced by U+FFFD. */
  readonly invalidUtf8?: boolean;
  /** The line had this many bytes, over MAX_LINE_BYTES; its text was dropped (see TOO_LONG_LINE). */
  readonly tooLong?: number;
}

/** Called once per line; return `false` to stop reading early (format sniffing). */
export type LineHandler = (text: string, lineNo: number, terminated: boolean, problem?: LineProblem) => boolean | void;

/** A user-facing input problem (exit status 2), reported as one line without a stack trace. */
export class InputError extends Error {}

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
  /**
   * Reads the whole input from the start; may be called more than once. Lines over `maxLineBytes`
   * (default MAX_LINE_BYTES) are handed over as TOO_LONG_LINE without being joined or decoded:
   * a pass that only looks at a file (sniffing) sets it low to pass over huge lines cheaply.
   */
  forEachLine(handler: LineHandler, onBytes?: (bytes: number) => void, maxLineBytes?: number): Promise<void>;
}

const CHUNK = 1 << 20;

/** True when decoding replaced bytes that were not UTF-8 (rather than a real U+FFFD in the input). */
function hasInvalidUtf8(text: string, buf: Buffer, start: number, end: number): boolean {
  if (!text.includes("\uFFFD")) return false;
  let decoded = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) decoded++;
  let literal = 0;
  for (let i = buf.indexOf("\uFFFD", start); i !== -1 && i < end; i = buf.indexOf("\uFFFD", i + 3)) literal++;
  return decoded !== literal;
}

export async function splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  handler: LineHandler,
  onBytes?: (bytes: number) => void,
  maxLineBytes = MAX_LINE_BYTES,
): Promise<void> {
  let carry: Buffer[] = [];
  let carried = 0; // bytes of the unfinished line, kept or dropped
  let lineNo = 0;
  const emit = (buf: Buffer, start: number, end: number, terminated: boolean): boolean => {
    lineNo++;
    if (end > start && buf[end - 1] === 13) end--; // CRLF
    let text = buf.toString("utf8", start, end);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
    const problem = hasInvalidUtf8(text, buf, start, end) ? { invalidUtf8: true } : undefined;
    return handler(text, lineNo, terminated, problem) !== false;
  };
  const emitTooLong = (bytes: number, terminated: boolean): boolean => {
    lineNo++;
    return handler(TOO_LONG_LINE, lineNo, terminated, { tooLong: bytes }) !== false;
  };
  const endCarried = (chunk: Buffer, start: number, end: number, terminated: boolean): boolean => {
    const bytes = carried + (end - start);
    if (bytes > maxLineBytes) {
      carry = [];
      carried = 0;
      return emitTooLong(bytes, terminated);
    }
    carry.push(chunk.subarray(start, end));
    const line = Buffer.concat(carry);
    carry = [];
    carried = 0;
    return emit(line, 0, line.length, terminated);
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === "string" ? Buffer.from(raw) : raw;
    onBytes?.(chunk.length);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      const keepGoing = carried > 0 ? endCarried(chunk, start, nl, true) : nl - start > maxLineBytes ? emitTooLong(nl - start, true) : emit(chunk, start, nl, true);
      if (!keepGoing) return;
      start = nl + 1;
    }
    // Pieces of an unfinished line are kept as a list and joined once: a 100 MB line costs O(n).
    // Past the limit they are dropped, counting bytes only.
    if (start < chunk.length) {
      carried += chunk.length - start;
      if (carried <= maxLineBytes) carry.push(chunk.subarray(start));
      else carry = [];
    }
  }
  if (carried > 0) endCarried(Buffer.alloc(0), 0, 0, false);
}

// A gzip file cut off mid-write (a crash) yields what it holds, like a plain file with a cut-off
// last line, instead of failing with "unexpected end of file".
const GUNZIP_OPTIONS = { finishFlush: zlib.Z_SYNC_FLUSH };

function decompressed(path: string, stream: Readable): Readable {
  if (!/\.gz$/i.test(path)) return stream;
  const gunzip = createGunzip(GUNZIP_OPTIONS);
  // pipe() does not forward errors: a read error would be left unhandled and crash the process.
  stream.on("error", (error) => gunzip.destroy(error));
  return stream.pipe(gunzip);
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
  Z_DATA_ERROR: "not valid gzip data",
  Z_BUF_ERROR: "gzip data ends early",
};

/** `cannot read PATH: why`, for file-system and decompression errors. */
export function describeReadError(path: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const reason = code !== undefined ? FS_REASONS[code] : undefined;
  const detail = code?.startsWith("Z_") && message ? ` (${message})` : "";
  return `cannot read ${path}: ${reason ?? message ?? String(error)}${detail}`;
}

/** Errors of the file or stream (not of the handler) become one-line InputErrors. */
async function readReporting(path: string, handler: LineHandler, read: (handler: LineHandler) => Promise<void>): Promise<void> {
  let handlerError: unknown;
  const guarded: LineHandler = (...args) => {
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

export async function fileSource(path: string): Promise<LineSource> {
  const info = await stat(path);
  return {
    file: path,
    size: info.size,
    async forEachLine(handler, onBytes, maxLineBytes) {
      const stream = decompressed(path, createReadStream(path, { highWaterMark: CHUNK }));
      try {
        await readReporting(path, handler, (guarded) => splitLines(stream, guarded, onBytes, maxLineBytes));
      } finally {
        stream.destroy();
      }
    },
  };
}

/** Standard input can be read only once, so it is kept in memory for adapters that need two passes. */
export async function stdinSource(stdin: Readable = process.stdin): Promise<LineSource> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  let data = Buffer.concat(chunks);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, GUNZIP_OPTIONS);
    } catch (error) {
      throw new InputError(describeReadError("-", error));
    }
  }
  return {
    file: "-",
    size: data.length,
    async forEachLine(handler, onBytes, maxLineBytes) {
      await splitLines([data], handler, onBytes, maxLineBytes);
    },
  };
}

/** In-memory source (tests, and anything already buffered). */
export function textSource(file: string, text: string): LineSource {
  const data = Buffer.from(text);
  return {
    file,
    size: data.length,
    async forEachLine(handler, onBytes, maxLineBytes) {
      await splitLines([data], handler, onBytes, maxLineBytes);
    },
  };
}
