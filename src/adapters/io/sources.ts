/**
 * Line sources: files (gzip and zstd transparently, recognised by their magic bytes, so an archived
 * `x.jsonl.reset.<ts>` that was compressed still reads) and text (tests); standard input: stdinSource.ts.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from "node:fs";
import { decodingLines } from "./decoding.js";
import { compressionOf, countingBytes, decompressedChunks } from "./decompression.js";
import { InputError, type LineSource, type RawLineHandler, type ReadOptions } from "./lineSource.js";
import { LineSplitter, splitRawLines } from "./lineSplitter.js";

/** Read size: 256 KB reads peak ~20 MB lower than 1 MB reads per thread, at the same speed (bench/). */
const CHUNK = 1 << 18;


/**
 * Plain files are read synchronously into one reused buffer. A read stream allocates a fresh buffer
 * per read, and those are reclaimed so lazily that they alone held ~60 MB of RSS on a 200 MB folder.
 * Asynchronous reads cost a thread-pool round trip each, which a pass that only scans bytes waits
 * on (bench: ~80 of 1300 ms idle for a 67 MB transcript); a synchronous read of a cached file is a
 * copy. Every YIELD_EVERY reads the loop yields, so that a worker pool's messages and the progress
 * bar are not held up by a large file. At most `upTo` bytes are read (`completeLines`).
 */
async function readPlainFile(path: string, handler: RawLineHandler, options: ReadOptions, upTo = Infinity, start = 0): Promise<void> {
  const { onBytes, maxLineBytes } = options;
  const fd = openSync(path, "r");
  const buffer = freeBuffers.pop() ?? Buffer.allocUnsafe(CHUNK);
  try {
    const splitter = new LineSplitter(handler, maxLineBytes);
    // Format sniffing stops after a few lines: the first read is small.
    for (let reads = 0, size = FIRST_READ, left = upTo, at = start; left > 0; reads++, size = CHUNK) {
      const bytesRead = readSync(fd, buffer, 0, Math.min(size, left), at);
      left -= bytesRead;
      at += bytesRead;
      if (bytesRead === 0) break;
      if (!splitter.push(buffer.subarray(0, bytesRead))) return;
      onBytes?.(bytesRead);
      const wait = options.afterChunk?.();
      if (wait) await wait;
      else if (reads % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    splitter.end();
  } finally {
    freeBuffers.push(buffer);
    closeSync(fd);
  }
}

/**
 * Read buffers are reused from file to file (a file is read up to three times: sniffing and two
 * passes). A fresh 256 KB buffer per read of each file is memory outside the heap that only a GC
 * frees: over a folder of 1,600 files those were ~1.2 GB of allocations, and a worker thread's RSS
 * grew with them. A list, not one buffer: reads may overlap (a handler may read another file).
 */
const freeBuffers: Buffer[] = [];

const YIELD_EVERY = 16;
const FIRST_READ = 1 << 16;

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

/** A source that splits its own bytes (every source of a file's or a buffer's bytes). */
export type RawLineSource = LineSource & Required<Pick<LineSource, "forEachRawLine">>;

/** A source from its raw-line reader: `forEachLine` decodes what `forEachRawLine` splits. */
export function rawSource(
  file: string,
  size: number | undefined,
  forEachRawLine: (handler: RawLineHandler, options?: ReadOptions) => Promise<void>,
  mayContain?: (needles: readonly Buffer[]) => Promise<boolean>,
  release?: () => void,
): RawLineSource {
  return {
    file,
    size,
    forEachRawLine,
    forEachLine: (handler, options) => forEachRawLine(decodingLines(handler), options),
    ...(mayContain && { mayContain }),
    ...(release && { release }),
  };
}

const containsAny = (data: Buffer, needles: readonly Buffer[]) => needles.some((needle) => data.includes(needle));

function guessedTrue(search: () => boolean): boolean {
  try {
    return search();
  } catch {
    return true;
  }
}

/**
 * Whether a plain file holds any of `needles`, read in chunks into one reused buffer; each chunk
 * after the first starts with the last bytes of the one before, so a needle across two reads is found.
 * Throws what opening or reading the file throws: callers decide what an unreadable file answers.
 */
export function fileContains(path: string, needles: readonly Buffer[]): boolean {
  const overlap = Math.max(0, ...needles.map((needle) => needle.length - 1));
  // A long needle (a searched-for line head comes from the input) gets a buffer with room for it.
  const pooled = overlap < CHUNK / 2;
  const fd = openSync(path, "r");
  const buffer = pooled ? (freeBuffers.pop() ?? Buffer.allocUnsafe(CHUNK)) : Buffer.allocUnsafe(CHUNK + overlap);
  try {
    for (let kept = 0; ; ) {
      const bytesRead = readSync(fd, buffer, kept, buffer.length - kept, null);
      if (bytesRead === 0) return false;
      const filled = kept + bytesRead;
      if (containsAny(buffer.subarray(0, filled), needles)) return true;
      kept = Math.min(overlap, filled);
      buffer.copy(buffer, 0, filled - kept, filled);
    }
  } finally {
    if (pooled) freeBuffers.push(buffer);
    closeSync(fd);
  }
}

const ZSTD_CHUNK = 1 << 14;

/**
 * Files up to this size are read once, whole, when opened, and every pass reads them from memory:
 * most files of a state directory are small (half of them under ~30 KB) and are read up to three
 * times (sniffing and two passes), and each read cost an open, a read and a close.
 */
const SMALL_FILE = 1 << 20;

export interface FileSourceOptions {
  /**
   * Only the file's complete lines (`looplens watch`: a line counts at its `\n`, a line still being
   * written is held): a plain line file is read up to the last newline of the size it has when
   * opened, so that an analysis never sees a cut-off last line. Compressed files (archives, written
   * whole) and `.json` documents (one JSON value, often with no newline at all) are read whole.
   */
  readonly completeLines?: boolean;
}

/** Files read as one JSON document, not as lines (Gemini CLI's legacy chats, OpenHands' event files). */
const JSON_DOCUMENT = /\.json$/i;

export async function fileSource(path: string, { completeLines = false }: FileSourceOptions = {}): Promise<LineSource> {
  const info = statSync(path); // synchronous: cheaper than a thread-pool round trip per file
  const byLines = completeLines && !JSON_DOCUMENT.test(path);
  if (info.isFile() && info.size <= SMALL_FILE) {
    return pooledSmallFile(path, byLines) ?? (byLines ? completeLinesSource(path, readFileSync(path)) : smallFileSource(path, readFileSync(path)));
  }
  const compression = info.isFile() ? compressionOf(firstBytes(path)) : "none";
  const searchable = compression === "none" && info.isFile();
  // The end of the last complete line, found once when opened: every pass reads the same lines.
  const upTo = byLines && searchable ? completeEnd(path, info.size) : Infinity;
  // A read error here answers "maybe": the pass that was to be skipped reads the file and reports it.
  const mayContain = searchable ? async (needles: readonly Buffer[]) => guessedTrue(() => fileContains(path, needles)) : undefined;
  const source = rawSource(path, info.size, async (handler, options = {}) => {
    // Regular uncompressed files (the common case) go through reused buffers; pipes and
    // compressed files through a stream.
    if (compression === "none" && info.isFile()) return readReporting(path, handler, (guarded) => readPlainFile(path, guarded, options, upTo));
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
  }, mayContain);
  return upTo === Infinity ? source : { ...source, readEnd: upTo };
}

/**
 * A plain file's lines from byte `start` on (the part a grown file gained: pipeline/cache/resumeUnit.ts),
 * read as any plain file is, through the reused buffers: never held whole, however much it grew.
 * `start` must be where a line begins; lines are numbered from 1 there. `completeLines`: only up to
 * the last newline (`readEnd`, counted from the file's start), as `fileSource` reads.
 */
export function plainFileFrom(path: string, start: number, completeLines = false): RawLineSource {
  const { size, end } = appendedExtent(path, start, completeLines);
  const source = rawSource(path, Math.max(0, Math.min(size, end) - start), (handler, options = {}) =>
    readReporting(path, handler, (guarded) => readPlainFile(path, guarded, options, end - start, start)),
  );
  return completeLines ? { ...source, readEnd: end } : source;
}

/** The file's size and where its lines end; a file gone since it was seen is an InputError like any read
 * of it, not a crash (watch resumes a grown file here and tells a file deleted under it as gone). */
function appendedExtent(path: string, start: number, completeLines: boolean): { readonly size: number; readonly end: number } {
  try {
    const size = statSync(path).size;
    return { size, end: completeLines ? Math.max(start, completeEnd(path, size)) : Infinity };
  } catch (error) {
    throw new InputError(describeReadError(path, error));
  }
}

/**
 * Buffers that small files are read into, given back when their source is released. A buffer per
 * file (`readFileSync`) lives until a GC collects it, and a file is read for longer than a young
 * generation lasts: on the 680 MB state folder of the bench ~20 MB of dead file buffers were held
 * at the peak (heaptrack: 9,226 live allocations from the array-buffer allocator), most in the
 * worker thread's malloc arena.
 */
const smallFileBuffers: Buffer[] = [];

/** A small file read into a pooled buffer; undefined when it no longer fits (it grew since its size was taken). */
export function pooledSmallFile(path: string, completeLines = false): LineSource | undefined {
  const fd = openSync(path, "r");
  const buffer = smallFileBuffers.pop() ?? Buffer.allocUnsafe(SMALL_FILE + 1);
  let length = 0;
  try {
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
  } catch (error) {
    // A read that failed keeps nothing of the buffer: it serves the next file.
    smallFileBuffers.push(buffer);
    throw error;
  } finally {
    closeSync(fd);
  }
  if (length > SMALL_FILE) {
    smallFileBuffers.push(buffer);
    return undefined;
  }
  let released = false;
  const data = buffer.subarray(0, length);
  const release = () => {
    if (!released) smallFileBuffers.push(buffer);
    released = true;
  };
  return completeLines ? completeLinesSource(path, data, release) : smallFileSource(path, data, release);
}

/** A small file's complete lines (`completeLines`), where they end told (`readEnd`); compressed data stays whole. */
function completeLinesSource(path: string, data: Buffer, release?: () => void): LineSource {
  if (compressionOf(data) !== "none") return smallFileSource(path, data, release);
  const complete = data.subarray(0, data.lastIndexOf(10) + 1);
  return { ...smallFileSource(path, complete, release), readEnd: complete.length };
}

/** Where the last complete line of a plain file of `size` bytes ends (0: none yet), read backwards. */
function completeEnd(path: string, size: number): number {
  const fd = openSync(path, "r");
  const buffer = freeBuffers.pop() ?? Buffer.allocUnsafe(CHUNK);
  try {
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - CHUNK);
      const bytesRead = readSync(fd, buffer, 0, end - start, start);
      const newline = buffer.subarray(0, bytesRead).lastIndexOf(10);
      if (newline >= 0) return start + newline + 1;
      end = start;
    }
    return 0;
  } finally {
    freeBuffers.push(buffer);
    closeSync(fd);
  }
}

/** A small file already read (`fileSource`): plain, or compressed, as a larger file would be read. */
function smallFileSource(path: string, data: Buffer, release?: () => void): LineSource {
  const compression = compressionOf(data);
  return rawSource(
    path,
    data.length,
    (handler, options = {}) =>
      readReporting(path, handler, (guarded) => {
        if (compression === "none") return splitRawLines([data], guarded, options);
        const chunks = decompressedChunks(compression, countingBytes([data], options.onBytes));
        return splitRawLines(chunks, guarded, { ...options, onBytes: undefined });
      }),
    compression === "none" ? async (needles) => containsAny(data, needles) : undefined,
    release,
  );
}

function bufferSource(file: string, data: Buffer): LineSource {
  return rawSource(file, data.length, (handler, options) => splitRawLines([data], handler, options), async (needles) => containsAny(data, needles));
}

/** In-memory source (tests, and anything already buffered). */
export function textSource(file: string, text: string): LineSource {
  return bufferSource(file, Buffer.from(text));
}
