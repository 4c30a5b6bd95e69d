/**
 * Streaming line reader: files (gzip and zstd transparently, recognised by their magic bytes, so an
 * archived `x.jsonl.reset.<ts>` that was compressed still reads), or standard input.
 * Lines are split on raw bytes and decoded one at a time (invalid UTF-8 becomes U+FFFD), so neither
 * a huge file nor a huge line is ever decoded whole twice. CRLF endings and a leading BOM are removed.
 *
 * A per-line stream object (as the `ndjson` package builds) costs more than the JSON.parse it wraps;
 * this splitter hands each line to a synchronous callback instead (see bench/ for the figures).
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { Decompress } from "fzstd";

/** Called once per line; return `false` to stop reading early (format sniffing). */
export type LineHandler = (text: string, lineNo: number, terminated: boolean) => boolean | void;

/**
 * Told when the input could not be read to its end (a cut-off or corrupt compressed stream): the
 * lines before that point were delivered, `afterLine` is the last of them.
 */
export type ProblemHandler = (afterLine: number, reason: string) => void;

export interface LineSource {
  /** The path as shown to the user (`-` for standard input). */
  readonly file: string;
  /** Size in bytes when known (for progress), before decompression. */
  readonly size: number | undefined;
  /** Reads the whole input from the start; may be called more than once. */
  forEachLine(handler: LineHandler, onBytes?: (bytes: number) => void, onProblem?: ProblemHandler): Promise<void>;
}

const CHUNK = 1 << 20;

export async function splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  handler: LineHandler,
  onBytes?: (bytes: number) => void,
  onProblem?: ProblemHandler,
): Promise<void> {
  let carry: Buffer[] = [];
  let lineNo = 0;
  const emit = (buf: Buffer, start: number, end: number, terminated: boolean): boolean => {
    lineNo++;
    if (end > start && buf[end - 1] === 13) end--; // CRLF
    let text = buf.toString("utf8", start, end);
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
    return handler(text, lineNo, terminated) !== false;
  };
  let problem: string | undefined;
  try {
    for await (const raw of chunks) {
      if (!consume(typeof raw === "string" ? Buffer.from(raw) : raw)) return;
    }
  } catch (error) {
    // Only decompression fails mid-stream (a crash while writing a .gz/.zst): keep what was read.
    if (!(error instanceof DecompressionError)) throw error;
    problem = error.message;
  }
  if (carry.length > 0) {
    const line = Buffer.concat(carry);
    emit(line, 0, line.length, false);
  }
  if (problem !== undefined) onProblem?.(lineNo, problem);

  function consume(chunk: Buffer): boolean {
    onBytes?.(chunk.length);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      let keepGoing: boolean;
      if (carry.length > 0) {
        carry.push(chunk.subarray(start, nl));
        const line = Buffer.concat(carry);
        carry = [];
        keepGoing = emit(line, 0, line.length, true);
      } else {
        keepGoing = emit(chunk, start, nl, true);
      }
      if (!keepGoing) return false;
      start = nl + 1;
    }
    // Pieces of an unfinished line are kept as a list and joined once: a 100 MB line costs O(n).
    if (start < chunk.length) carry.push(chunk.subarray(start));
    return true;
  }
}

/** A compressed stream that ends early or is corrupt. */
export class DecompressionError extends Error {}

type Compression = "gzip" | "zstd" | "none";

function compressionOf(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return "zstd";
  return "none";
}

async function* gunzipChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const input = Readable.from(chunks, { objectMode: false });
  const gunzip = createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
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

async function firstBytes(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const head = new Uint8Array(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const ZSTD_CHUNK = 1 << 14;

export async function fileSource(path: string): Promise<LineSource> {
  const info = await stat(path);
  const compression = info.isFile() ? compressionOf(await firstBytes(path)) : "none";
  return {
    file: path,
    size: info.size,
    async forEachLine(handler, onBytes, onProblem) {
      const stream = createReadStream(path, { highWaterMark: compression === "zstd" ? ZSTD_CHUNK : CHUNK });
      try {
        if (compression === "none") return await splitLines(stream as AsyncIterable<Buffer>, handler, onBytes, onProblem);
        // Progress counts bytes on disk, so it is measured before decompression.
        const raw = countingBytes(stream as AsyncIterable<Buffer>, onBytes);
        const chunks = compression === "gzip" ? gunzipChunks(raw) : zstdChunks(raw);
        await splitLines(chunks, handler, undefined, onProblem);
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
  const raw = Buffer.concat(chunks);
  const compression = compressionOf(raw);
  let data = raw;
  let problem: string | undefined;
  if (compression !== "none") {
    const parts: Buffer[] = [];
    try {
      for await (const part of compression === "gzip" ? gunzipChunks([raw]) : zstdChunks([raw])) parts.push(part);
    } catch (error) {
      if (!(error instanceof DecompressionError)) throw error;
      problem = error.message;
    }
    data = Buffer.concat(parts);
  }
  return {
    file: "-",
    size: raw.length,
    async forEachLine(handler, onBytes, onProblem) {
      await splitLines([data], handler, onBytes);
      if (problem !== undefined) onProblem?.(countLines(data), problem);
    },
  };
}

function countLines(data: Buffer): number {
  let lines = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) lines++;
  return data.length > 0 && data[data.length - 1] !== 10 ? lines + 1 : lines;
}

/** In-memory source (tests, and anything already buffered). */
export function textSource(file: string, text: string): LineSource {
  const data = Buffer.from(text);
  return {
    file,
    size: data.length,
    async forEachLine(handler, onBytes) {
      await splitLines([data], handler, onBytes);
    },
  };
}
