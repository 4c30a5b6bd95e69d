/**
 * Streaming line reader: files (gzip transparently), folders expanded elsewhere, or standard input.
 * Lines are split on raw bytes and decoded one at a time (invalid UTF-8 becomes U+FFFD), so neither
 * a huge file nor a huge line is ever decoded whole twice. CRLF endings and a leading BOM are removed.
 *
 * A per-line stream object (as the `ndjson` package builds) costs more than the JSON.parse it wraps;
 * this splitter hands each line to a synchronous callback instead (see bench/ for the figures).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/** Called once per line; return `false` to stop reading early (format sniffing). */
export type LineHandler = (text: string, lineNo: number, terminated: boolean) => boolean | void;

export interface LineSource {
  /** The path as shown to the user (`-` for standard input). */
  readonly file: string;
  /** Size in bytes when known (for progress), before decompression. */
  readonly size: number | undefined;
  /** Reads the whole input from the start; may be called more than once. */
  forEachLine(handler: LineHandler, onBytes?: (bytes: number) => void): Promise<void>;
}

const CHUNK = 1 << 20;

export async function splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  handler: LineHandler,
  onBytes?: (bytes: number) => void,
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
  for await (const raw of chunks) {
    const chunk = typeof raw === "string" ? Buffer.from(raw) : raw;
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
      if (!keepGoing) return;
      start = nl + 1;
    }
    // Pieces of an unfinished line are kept as a list and joined once: a 100 MB line costs O(n).
    if (start < chunk.length) carry.push(chunk.subarray(start));
  }
  if (carry.length > 0) {
    const line = Buffer.concat(carry);
    emit(line, 0, line.length, false);
  }
}

function decompressed(path: string, stream: Readable): Readable {
  return /\.gz$/i.test(path) ? stream.pipe(createGunzip()) : stream;
}

export async function fileSource(path: string): Promise<LineSource> {
  const info = await stat(path);
  return {
    file: path,
    size: info.size,
    async forEachLine(handler, onBytes) {
      const stream = decompressed(path, createReadStream(path, { highWaterMark: CHUNK }));
      try {
        await splitLines(stream, handler, onBytes);
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
    const { gunzipSync } = await import("node:zlib");
    data = gunzipSync(data);
  }
  return {
    file: "-",
    size: data.length,
    async forEachLine(handler, onBytes) {
      await splitLines([data], handler, onBytes);
    },
  };
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
