/**
 * One cache entry on disk: a text file of lines, `<dir>/entries/<2 hex>/<16 hex>.ndjson`, named by a
 * hash of its key (cacheKey.ts) and sharded by the hash's first byte, so that no folder holds more
 * than a few hundred entries and no index is shared between processes.
 *
 *   line 1      the stamp: JSON with the key text and what tells the entry still holds (fileStamps.ts)
 *   lines 2…n-1 the body (analysisEntry.ts, sweepEntry.ts, reportCache.ts: a command's output as it was written)
 *   line n      `#` and the xxhash of the body's bytes
 *
 * Written to a temporary file of a unique name in the same folder and renamed over the entry: a
 * reader sees the old entry or the new one, whole, never a mix, and two processes writing one entry
 * at once each rename a whole file (the last one stays). Read in chunks, the body hashed as it goes:
 * a truncated or corrupted entry is told by its last line (missing, or not the hash of what came
 * before) once the body has been read, and the reader then undoes what it took from it
 * (`CorruptEntry`).
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, utimesSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
import type { ByteHasher } from "./byteHash.js";
import { openForReading } from "../../adapters/io/openForReading.js";

/** The entry does not hold what its stamp promises: truncated, corrupted, or replaced mid-read. */
export class CorruptEntry extends Error {}

export const ENTRIES_FOLDER = "entries";

/** Where the entry of a key hash lives. */
export function entryPath(dir: string, keyHash: string): string {
  return join(dir, ENTRIES_FOLDER, keyHash.slice(0, 2), `${keyHash}.ndjson`);
}

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

/** Temporary files are named after the entry, so a crashed writer's are found (and removed) by the eviction scan. */
export const TEMP_SUFFIX = ".tmp";

let written = 0;

/** Shard folders this thread made or found, so that each is looked at once a command. */
const madeFolders = new Set<string>();

/** Opens a new file for writing, its folder made first if this thread has not seen it (or it was removed meanwhile: `cache clear`). */
function openInFolder(path: string): number {
  const folder = dirname(path);
  if (madeFolders.has(folder)) {
    try {
      return openSync(path, "w");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  makeFolder(folder);
  madeFolders.add(folder);
  return openSync(path, "w");
}

/**
 * Writes an entry atomically: `stamp` as its first line, then the body's lines and their hash.
 * Returns its size in bytes. Throws when the folder cannot be written (the caller decides).
 */
export function writeEntry(path: string, stamp: string, body: Iterable<string | Uint8Array>, hasher: ByteHasher): number {
  const temp = `${path}.${process.pid}-${threadId}-${written++}-${Math.random().toString(36).slice(2, 8)}${TEMP_SUFFIX}`;
  const fd = openInFolder(temp);
  let size = 0;
  try {
    const hash = hasher.stream();
    // The stamp goes out with the first batch of the body and the hash line with the last: a small
    // entry is one write (on an overlay file system each system call of the cold run's 1,601 writes counted).
    let head: Buffer | undefined = Buffer.from(`${stamp}\n`);
    let pending: string[] = [];
    let pendingLength = 0;
    const writeOut = (bytes: Uint8Array, last: boolean) => {
      hash.update(bytes);
      const buffers = [...(head ? [head] : []), bytes, ...(last ? [Buffer.from(`#${hash.digest()}\n`)] : [])];
      const all = buffers.length === 1 ? bytes : Buffer.concat(buffers);
      for (let done = 0; done < all.length; ) done += writeSync(fd, all, done, all.length - done, size + done);
      size += all.length;
      head = undefined;
    };
    const flush = (last: boolean) => {
      writeOut(Buffer.from(pending.join("")), last);
      pending = [];
      pendingLength = 0;
    };
    for (const item of body) {
      // Bytes go out as they are, with no newline of their own (a kept output: reportCache.ts).
      if (typeof item !== "string") {
        if (pendingLength > 0) flush(false);
        writeOut(item, false);
        continue;
      }
      pending.push(item, "\n");
      pendingLength += item.length + 1;
      if (pendingLength >= WRITE_BATCH) flush(false);
    }
    flush(true);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return size;
}

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

/** Opens an entry for reading, or undefined when there is none (or it cannot be read, or has no stamp line). */
export function openEntry(path: string, hasher: ByteHasher): OpenEntry | undefined {
  const fd = openForReading(path);
  if (fd === undefined) return undefined;
  try {
    const { size, mtimeMs } = fstatSync(fd);
    let head = (chunk ??= Buffer.allocUnsafe(READ_CHUNK));
    let filled = readSync(fd, head, 0, Math.min(head.length, size), 0);
    let newline = head.subarray(0, filled).indexOf(10);
    // A stamp line longer than a chunk (a unit of thousands of files): read on into a larger buffer.
    while (newline < 0) {
      if (filled >= size) throw new CorruptEntry("no stamp line");
      const larger = Buffer.allocUnsafe(Math.min(size, head.length * 2));
      head.copy(larger, 0, 0, filled);
      head = larger;
      filled += readSync(fd, head, filled, head.length - filled, filled);
      newline = head.subarray(0, filled).indexOf(10);
    }
    const stamp = head.toString("utf8", 0, newline);
    let closed = false;
    return {
      stamp,
      mtimeMs,
      readBody: (restFor) => readBody(fd, newline + 1, size, hasher, restFor),
      readWhole: () => readWhole(fd, newline + 1, size, hasher),
      close() {
        if (!closed) closeSync(fd);
        closed = true;
      },
    };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** See `OpenEntry.readBody`: the body is `[start, size - HASH_LINE_BYTES)`, hashed as it is read. */
function readBody(fd: number, start: number, size: number, hasher: ByteHasher, restFor: (first: string) => (bytes: Buffer) => void): void {
  const end = size - HASH_LINE_BYTES;
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
  readSync(fd, last, 0, HASH_LINE_BYTES, end);
  if (rest === undefined || last.toString("latin1") !== `#${hash.digest()}\n`) throw new CorruptEntry("the body does not match its hash");
}

/** See `OpenEntry.readWhole`: one read into one buffer, no copy (a kept output: reportCache.ts). */
function readWhole(fd: number, start: number, size: number, hasher: ByteHasher): { first: string; rest: Buffer } {
  const end = size - HASH_LINE_BYTES;
  if (end <= start) throw new CorruptEntry("the entry is too short");
  const body = Buffer.allocUnsafe(size - start);
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

/** Marks an entry as used now (least recently used ones are evicted first: eviction.ts). */
export function touchEntry(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // gone meanwhile (evicted by another process), or read-only: it is only used less recently
  }
}
