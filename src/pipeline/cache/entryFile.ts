/**
 * One cache entry: a record of lines in a pack file (packFile.ts), at the offset and length the
 * cache's index gives for the hash of its key (packIndex.ts).
 *
 *   line 1      the stamp: JSON with the key text and what tells the entry still holds (fileStamps.ts)
 *   lines 2…n-1 the body (analysisEntry.ts, sweepEntry.ts, reportCache.ts: a command's output as it was written)
 *   line n      `#` and the xxhash of the body's bytes
 *
 * The body is a sequence of lines whose first says what follows (analysisEntry.ts' `S`/`V` summary,
 * a sweep's line, a kept output's meta): a kind of line added later (a replay state to resume from)
 * is one more line, and an entry without it is still read. Read in chunks, the body hashed as it
 * goes: a truncated or corrupted entry is told by its last line (missing, or not the hash of what
 * came before) once the body has been read, and the reader then undoes what it took from it
 * (`CorruptEntry`).
 */
import { mkdirSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ByteHasher } from "./byteHash.js";

/** The entry does not hold what its stamp promises: truncated, corrupted, or replaced mid-read. */
export class CorruptEntry extends Error {}

/** The folder of the layout before packs (one file per entry): never read, removed by the next run that writes (cacheUsage.ts). */
export const OLD_ENTRIES_FOLDER = "entries";

/**
 * Makes a folder and its parents, one level at a time. Not `mkdirSync(…, { recursive: true })`: on
 * Node 20 that never returns for a path under /proc (`LOOPLENS_CACHE_DIR=/proc/x` spun at 100% CPU).
 */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  for (let folder = path; ; folder = dirname(folder)) {
    try {
      if (statSync(folder).isDirectory()) break;
      throw Object.assign(new Error(`${folder} is not a folder`), { code: "ENOTDIR" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(folder) === folder) throw error;
      missing.push(folder);
    }
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // made meanwhile by another process
    }
  }
}

/** Temporary files (of the index, usage.json) end so, and are removed by the eviction scan once old (a writer died). */
export const TEMP_SUFFIX = ".tmp";

/**
 * Encodes an entry: `stamp` as its first line, then the body's lines and their hash, handed to
 * `sink` in pieces of about WRITE_BATCH bytes (a small entry is one piece). Returns its length.
 *
 * The lines are encoded straight into one buffer, reused for every entry (`sink` copies or writes
 * what it is handed before it returns: packFile.ts), not joined into a string and encoded from it:
 * the join copied every line once more, the encoding made a buffer of each batch, and both were
 * garbage (bench folder, 1,601 entries of 26 MB: 30 against 78 ms of CPU, the lines' JSON aside).
 */
export function encodeEntry(stamp: string, body: Iterable<string | Uint8Array>, hasher: ByteHasher, sink: (bytes: Uint8Array) => void): number {
  const hash = hasher.stream();
  const buffer = (encoding ??= Buffer.allocUnsafe(WRITE_BATCH));
  let used = 0;
  /** The buffer's bytes before this are not hashed: the stamp line, which the hash does not cover. */
  let bodyFrom = 0;
  let size = 0;
  const send = (bytes: Uint8Array) => {
    sink(bytes);
    size += bytes.length;
  };
  const flush = () => {
    if (used === 0) return;
    if (used > bodyFrom) hash.update(buffer.subarray(bodyFrom, used));
    send(buffer.subarray(0, used));
    used = bodyFrom = 0;
  };
  // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4): a line fits when this says so.
  const fits = (line: string) => line.length * 3 + 1 <= buffer.length - used;
  const putLine = (line: string) => {
    used += buffer.write(line, used);
    buffer[used++] = 10;
  };
  if (stamp.length * 3 + 1 <= buffer.length) {
    putLine(stamp);
    bodyFrom = used;
  } else send(Buffer.from(`${stamp}\n`));
  for (const item of body) {
    // Bytes go out as they are, with no newline of their own (a kept output: reportCache.ts).
    if (typeof item !== "string") {
      flush();
      hash.update(item);
      send(item);
      continue;
    }
    if (!fits(item)) flush();
    if (fits(item)) putLine(item);
    else {
      const line = Buffer.from(`${item}\n`); // longer than the buffer
      hash.update(line);
      send(line);
    }
  }
  if (used + HASH_LINE_BYTES > buffer.length) flush();
  if (used > bodyFrom) hash.update(buffer.subarray(bodyFrom, used));
  used += buffer.write(`#${hash.digest()}\n`, used, "latin1");
  send(buffer.subarray(0, used));
  return size;
}

/** The buffer entries are encoded in (one per thread: an entry is encoded at once). */
let encoding: Buffer | undefined;

const WRITE_BATCH = 1 << 20;
const READ_CHUNK = 1 << 20;

/** One read buffer per thread: entries are read one at a time. */
let chunk: Buffer | undefined;

/** The last line: `#`, 16 hex digits, a newline. */
const HASH_LINE_BYTES = 18;

/** An open entry: its stamp line, and its body to be read once (`readBody`), then closed. */
export interface OpenEntry {
  readonly stamp: string;
  /** When the entry was last written or used (ms), for touching it on a hit. */
  readonly mtimeMs: number;
  /**
   * Reads the body: its first line goes to `restFor`, which returns where the bytes after it (whole
   * lines) go, in chunks, as they are read. Throws `CorruptEntry` at the end when the body is not what
   * was written: what was handed out must then be undone by the caller.
   */
  readBody(restFor: (first: string) => (bytes: Buffer) => void): void;
  /** Reads the body whole into one buffer, checked against its hash (throws `CorruptEntry`): its first line, and the bytes after it. */
  readWhole(): { readonly first: string; readonly rest: Buffer };
  close(): void;
}

/**
 * Opens the entry at `[offset, offset + length)` of an open pack (packFile.ts) for reading, or
 * undefined when it has no stamp line there (the pack was cut short, or the place is not an entry).
 * `usedMs`: when the index says it was last used.
 */
export function openEntry(fd: number, offset: number, length: number, hasher: ByteHasher, usedMs: number): OpenEntry | undefined {
  const end = offset + length;
  try {
    let head = (chunk ??= Buffer.allocUnsafe(READ_CHUNK));
    let filled = readSync(fd, head, 0, Math.min(head.length, length), offset);
    let newline = head.subarray(0, filled).indexOf(10);
    // A stamp line longer than a chunk (a unit of thousands of files): read on into a larger buffer.
    while (newline < 0) {
      if (filled >= length) return undefined;
      const larger = Buffer.allocUnsafe(Math.min(length, head.length * 2));
      head.copy(larger, 0, 0, filled);
      const before = filled;
      head = larger;
      filled += readSync(fd, head, filled, head.length - filled, offset + filled);
      if (filled === before) return undefined;
      newline = head.subarray(0, filled).indexOf(10);
    }
    const stamp = head.toString("utf8", 0, newline);
    const bodyStart = offset + newline + 1;
    // Most entries fit in the first read (11 KB on average on the bench's folder): their body is
    // taken from it rather than read a second time. It is the thread's read buffer, so the entry
    // is read before another is opened (as every caller does: lookUp reads what it found at once).
    const inMemory = filled === length ? head.subarray(newline + 1, length) : undefined;
    return {
      stamp,
      mtimeMs: usedMs,
      readBody: (restFor) => (inMemory ? bodyInMemory(inMemory, hasher, restFor) : readBody(fd, bodyStart, end, hasher, restFor)),
      readWhole: () => (inMemory ? wholeInMemory(inMemory, hasher) : readWhole(fd, bodyStart, end, hasher)),
      // The pack's descriptor is the pack readers' (packFile.ts), kept for the next entry.
      close() {},
    };
  } catch {
    return undefined;
  }
}

/** See `OpenEntry.readBody`: the body is `[start, size - HASH_LINE_BYTES)`, hashed as it is read. */
function readBody(fd: number, start: number, recordEnd: number, hasher: ByteHasher, restFor: (first: string) => (bytes: Buffer) => void): void {
  const end = recordEnd - HASH_LINE_BYTES;
  if (end <= start) throw new CorruptEntry("the entry is too short");
  const hash = hasher.stream();
  const buffer = (chunk ??= Buffer.allocUnsafe(READ_CHUNK));
  const first: Buffer[] = [];
  let rest: ((bytes: Buffer) => void) | undefined;
  for (let at = start; at < end; ) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
    if (n === 0) throw new CorruptEntry("the entry ends early");
    at += n;
    const bytes = buffer.subarray(0, n);
    hash.update(bytes);
    if (rest !== undefined) {
      rest(bytes);
      continue;
    }
    const newline = bytes.indexOf(10);
    if (newline < 0) {
      first.push(Buffer.from(bytes));
      continue;
    }
    first.push(bytes.subarray(0, newline));
    rest = restFor(Buffer.concat(first).toString("utf8"));
    if (newline + 1 < n) rest(bytes.subarray(newline + 1));
  }
  const last = Buffer.alloc(HASH_LINE_BYTES);
  if (readSync(fd, last, 0, HASH_LINE_BYTES, end) !== HASH_LINE_BYTES) throw new CorruptEntry("the entry ends early");
  if (rest === undefined || last.toString("latin1") !== `#${hash.digest()}\n`) throw new CorruptEntry("the body does not match its hash");
}

/** The body and its hash line, checked before any of it is handed out; its first line, and the bytes after it. */
function checkedInMemory(bytes: Buffer, hasher: ByteHasher): { first: string; rest: Buffer } {
  const end = bytes.length - HASH_LINE_BYTES;
  if (end <= 0) throw new CorruptEntry("the entry is too short");
  const body = bytes.subarray(0, end);
  const newline = body.indexOf(10);
  if (newline < 0 || bytes.toString("latin1", end) !== `#${hasher.hash(body)}\n`) throw new CorruptEntry("the body does not match its hash");
  return { first: body.toString("utf8", 0, newline), rest: body.subarray(newline + 1) };
}

/** See `OpenEntry.readBody`, for a body already read. */
function bodyInMemory(bytes: Buffer, hasher: ByteHasher, restFor: (first: string) => (bytes: Buffer) => void): void {
  const { first, rest } = checkedInMemory(bytes, hasher);
  const to = restFor(first);
  if (rest.length > 0) to(rest);
}

/** See `OpenEntry.readWhole`, for a body already read: copied out of the thread's read buffer. */
function wholeInMemory(bytes: Buffer, hasher: ByteHasher): { first: string; rest: Buffer } {
  const { first, rest } = checkedInMemory(bytes, hasher);
  return { first, rest: Buffer.from(rest) };
}

/** See `OpenEntry.readWhole`: one read into one buffer, no copy (a kept output: reportCache.ts). */
function readWhole(fd: number, start: number, recordEnd: number, hasher: ByteHasher): { first: string; rest: Buffer } {
  const end = recordEnd - HASH_LINE_BYTES;
  if (end <= start) throw new CorruptEntry("the entry is too short");
  const body = Buffer.allocUnsafe(recordEnd - start);
  for (let done = 0; done < body.length; ) {
    const n = readSync(fd, body, done, body.length - done, start + done);
    if (n === 0) throw new CorruptEntry("the entry ends early");
    done += n;
  }
  const bytes = body.subarray(0, end - start);
  const newline = bytes.indexOf(10);
  // Hashed in pieces: xxhash-wasm copies what it hashes at once into its memory, grown to fit (13 MB: ~3× slower).
  const hash = hasher.stream();
  for (let at = 0; at < bytes.length; at += READ_CHUNK) hash.update(bytes.subarray(at, at + READ_CHUNK));
  if (newline < 0 || body.toString("latin1", end - start) !== `#${hash.digest()}\n`) throw new CorruptEntry("the body does not match its hash");
  return { first: bytes.toString("utf8", 0, newline), rest: bytes.subarray(newline + 1) };
}
