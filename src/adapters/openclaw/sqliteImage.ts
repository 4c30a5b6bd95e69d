/**
 * A point-in-time image of an SQLite database file as bytes in memory, with the committed frames of
 * its write-ahead log applied, for a library that can only open a database from memory (sql.js; see
 * sqliteStore.ts for why that one).
 *
 * Why not let SQLite read the file: a running Gateway holds the store open (in WAL mode, recent
 * transactions live only in `<db>-wal` until a checkpoint). Reading it through SQLite from here would
 * need the `-shm` wal-index and POSIX locks, which no WebAssembly build offers: node-sqlite3-wasm
 * "locks" by creating a `<db>.lock` directory next to the database (a write into the state
 * directory, left behind if looplens is killed) and cannot open a WAL database read-only at all.
 * Reading the two files' bytes takes no lock and writes nothing, so the Gateway is never held up,
 * and replaying the log's frames ourselves (the WAL format is fixed: sqlite.org/fileformat2.html
 * §4) gives the same committed state SQLite would show; a transaction still open in the Gateway is
 * not part of it (its frames have no commit frame yet).
 *
 * The files may change while they are read (a checkpoint copies the log into the database, then
 * restarts the log): both are stat'ed before and after, and read again when either changed.
 */
import { readFileSync, statSync, type Stats } from "node:fs";
import { InputError } from "../io/lineSource.js";
import { describeReadError } from "../io/sources.js";

/** "SQLite format 3\0": the first 16 bytes of every SQLite database file. */
export const SQLITE_MAGIC = Buffer.from("SQLite format 3\u0000", "latin1");

/** SQLite's own errors ("file is not a database", "database disk image is malformed") become InputErrors naming the db. */
export function asStoreError(dbPath: string, error: unknown): Error {
  if (error instanceof InputError) return error;
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  if (code !== undefined) return new InputError(describeReadError(dbPath, error));
  // sql.js throws plain Errors with SQLite's message; anything else is a bug and keeps its stack.
  if (error instanceof Error && typeof message === "string" && SQLITE_MESSAGE.test(message)) return new InputError(`cannot read ${dbPath}: ${message}`);
  return error instanceof Error ? error : new Error(String(error));
}

const SQLITE_MESSAGE = /^(SQLITE|file is not|database|no such|unable to|disk I\/O|malformed)/i;

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const READ_ATTEMPTS = 4;

/** The database bytes to open, and how many pages of committed log frames were applied. */
export interface DatabaseImage {
  readonly bytes: Uint8Array;
  readonly walPages: number;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

const sameFile = (a: Stats | undefined, b: Stats | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** Reads `<path>` and `<path>-wal` as one consistent snapshot (see above); InputError when unreadable. */
export function readDatabaseImage(path: string): DatabaseImage {
  const walPath = `${path}-wal`;
  try {
    for (let attempt = 1; ; attempt++) {
      const before = [statSync(path), statOrUndefined(walPath)] as const;
      const db = readFileSync(path);
      const wal = before[1] !== undefined ? readWal(walPath) : undefined;
      const after = [statSync(path), statOrUndefined(walPath)] as const;
      // A store written without pause never settles: the last read is still a committed state
      // unless a checkpoint ran during it, which SQLite's page checks then report as corruption.
      if ((sameFile(before[0], after[0]) && sameFile(before[1], after[1])) || attempt === READ_ATTEMPTS) return imageOf(path, db, wal);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeReadError(path, error));
  }
}

function readWal(walPath: string): Buffer | undefined {
  try {
    return readFileSync(walPath);
  } catch (error) {
    // Removed between the stat and the read: the Gateway closed it after a final checkpoint.
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The page size of a database header (offset 16, big-endian; 1 means 65536). */
function pageSizeOf(db: Buffer): number {
  const raw = db.readUInt16BE(16);
  return raw === 1 ? 65536 : raw;
}

function imageOf(path: string, db: Buffer, wal: Buffer | undefined): DatabaseImage {
  if (db.length < 100 || !db.subarray(0, 16).equals(SQLITE_MAGIC)) throw new InputError(`${path}: not an SQLite database`);
  const frames = wal !== undefined ? committedFrames(wal, pageSizeOf(db)) : undefined;
  let image: Buffer = db;
  if (frames !== undefined && frames.pages.size > 0) {
    const pageSize = pageSizeOf(db);
    image = Buffer.alloc(frames.dbPages * pageSize);
    db.copy(image, 0, 0, Math.min(db.length, image.length));
    for (const [page, offset] of frames.pages) {
      if (page <= frames.dbPages) wal!.copy(image, (page - 1) * pageSize, offset, offset + pageSize);
    }
  }
  // Bytes 18-19 say "WAL mode" (2): the image is opened without its log, as a rollback-journal
  // database (1), or SQLite would look for a log and a wal-index that the in-memory file lacks.
  if (image[18] === 2 || image[19] === 2) {
    if (image === db) image = Buffer.from(db); // the read buffer is ours, but keep `db` as read
    image[18] = 1;
    image[19] = 1;
  }
  return { bytes: image, walPages: frames?.count ?? 0 };
}

/**
 * The last version of each page up to the log's last valid commit frame (frames after it belong to a
 * transaction not yet committed, or to an earlier generation of the log: their salts or checksums
 * do not chain), and the database size in pages that commit recorded.
 */
function committedFrames(wal: Buffer, dbPageSize: number): { pages: Map<number, number>; dbPages: number; count: number } | undefined {
  if (wal.length < WAL_HEADER) return undefined;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  const bigEndian = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8);
  if (pageSize !== dbPageSize) return undefined;
  let sum = checksum(wal, 0, 24, bigEndian, 0, 0);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return undefined;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const pending = new Map<number, number>();
  const pages = new Map<number, number>();
  let dbPages = 0;
  let count = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sum = checksum(wal, at, at + 8, bigEndian, sum[0], sum[1]);
    sum = checksum(wal, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, bigEndian, sum[0], sum[1]);
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    pending.set(wal.readUInt32BE(at), at + FRAME_HEADER);
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize !== 0) {
      for (const [page, offset] of pending) pages.set(page, offset);
      count += pending.size;
      pending.clear();
      dbPages = commitSize;
    }
  }
  return { pages, dbPages, count };
}

/** SQLite's WAL checksum: pairs of 32-bit words in the log's byte order, two running sums. */
function checksum(bytes: Buffer, from: number, to: number, bigEndian: boolean, s1: number, s2: number): [number, number] {
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
    const x1 = bigEndian ? bytes.readUInt32BE(i + 4) : bytes.readUInt32LE(i + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}
