/**
 * What tells that a unit's files are the ones a cache entry was made from (watch.md §2): per file its
 * size, modification and status-change times (ns), inode and device, and, where those times cannot
 * be trusted, a hash of its first and last 64 KiB.
 *
 * Why not hash every file every time: the hash reads up to 128 KiB of each file, and on the bench's
 * real-shaped state folder (7,241 files) that is 362 MB read and hashed, ~0.3-0.5 s, more than the
 * whole warm run may take (≥ 20× faster than the 7 s cold run). Timestamps tell writes apart except
 * when two writes fall in one tick of the file system's clock (Linux stamps files from a coarse clock,
 * ticks of 1-10 ms; FAT and some network file systems keep whole or even two seconds). So, as git does
 * for its index ("racy git"): a file whose status-change time was within RACY_NS of the moment it was
 * stamped, or whose clock shows no sub-second part (a coarse file system), is *racy*, and its stamp
 * keeps the content hash, checked on every lookup; any other file is told apart by its times alone.
 * The status-change time (ctime) matters: a rewrite that restores the modification time (`touch -r`,
 * `utimes`) still moves it, and no user call sets it back.
 *
 * What remains unseen (docs): an edit that keeps the size, the inode, both 64 KiB ends and both
 * times. The times stay only when the edit falls in the same clock tick as the write before it and
 * that write was stamped in that tick too (then the ends are hashed), or on a file system with coarse
 * times (then too the ends are hashed): so, in practice, a same-size rewrite in the middle (beyond the
 * first and last 64 KiB) of a file over 128 KiB, made within one clock tick of the previous write.
 */
import { closeSync, openSync, readSync, statSync, type BigIntStats } from "node:fs";
import type { ByteHasher } from "./byteHash.js";

/** One file as it was stamped (numbers as decimal strings: bigints do not go through JSON). */
export interface FileStamp {
  readonly size: string;
  readonly mtimeNs: string;
  readonly ctimeNs: string;
  readonly ino: string;
  readonly dev: string;
  /** The hash of the first and last ENDS_BYTES (the whole file up to twice that): only on racy stamps. */
  readonly ends?: string;
}

/** A path's stamp, or null when it does not exist (a SQLite store's write-ahead log may not). */
export type PathStamp = FileStamp | null;

/** Bytes hashed at each end of a file whose times cannot be trusted. */
export const ENDS_BYTES = 64 * 1024;

/** A status change this close to the stamp may be followed by another in the same clock tick. */
export const RACY_NS = 3_000_000_000n;

function statOrNull(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Whether a file with this status-change time, stamped at `nowNs`, needs its content hashed. */
export function isRacy(ctimeNs: bigint, nowNs: bigint, racyNs = RACY_NS): boolean {
  return nowNs - ctimeNs < racyNs || ctimeNs % 1_000_000_000n === 0n;
}

/** Hash of a file's first and last ENDS_BYTES (of all of it when it is shorter than twice that). */
export function endsHash(path: string, size: number, hasher: ByteHasher): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(Math.min(size, 2 * ENDS_BYTES));
    const readAt = (into: number, length: number, at: number) => {
      for (let done = 0; done < length; ) {
        const n = readSync(fd, buffer, into + done, length - done, at + done);
        if (n === 0) throw new Error(`${path} shrank while it was stamped`);
        done += n;
      }
    };
    if (size <= 2 * ENDS_BYTES) readAt(0, size, 0);
    else {
      readAt(0, ENDS_BYTES, 0);
      readAt(ENDS_BYTES, ENDS_BYTES, size - ENDS_BYTES);
    }
    // The size belongs to what is hashed: two files of other sizes are never equal, whatever their ends.
    return `${size}:${hasher.hash(buffer)}`;
  } finally {
    closeSync(fd);
  }
}

const stampFields = (info: BigIntStats) => ({
  size: String(info.size),
  mtimeNs: String(info.mtimeNs),
  ctimeNs: String(info.ctimeNs),
  ino: String(info.ino),
  dev: String(info.dev),
});

/**
 * A path's stamp now: its times, and the ends' hash when racy (`nowNs`: when the stamp is taken, on
 * the machine's clock). Throws when the path cannot be read (the caller does not cache the unit).
 */
export function stampPath(path: string, hasher: ByteHasher, racyNs = RACY_NS, nowNs = currentNs()): PathStamp {
  const info = statOrNull(path);
  if (info === null) return null;
  if (!info.isFile()) throw new Error(`${path} is not a file`);
  const fields = stampFields(info);
  return isRacy(info.ctimeNs, nowNs, racyNs) ? { ...fields, ends: endsHash(path, Number(info.size), hasher) } : fields;
}

export const currentNs = () => BigInt(Date.now()) * 1_000_000n;

/**
 * Whether `path` is still the file `stored` stamped: the same times, size, inode and device, and for
 * a racy stamp the same ends. The hash is read only when everything else matches.
 */
export function stillStamped(path: string, stored: PathStamp, hasher: ByteHasher): boolean {
  const info = statOrNull(path);
  if (info === null || stored === null) return info === stored;
  const now = stampFields(info);
  if (now.size !== stored.size || now.mtimeNs !== stored.mtimeNs || now.ctimeNs !== stored.ctimeNs || now.ino !== stored.ino || now.dev !== stored.dev) return false;
  return stored.ends === undefined || endsHash(path, Number(info.size), hasher) === stored.ends;
}

/**
 * Whether a file stamped `now` is the one stamped `then` (`stillStamped`, from two stamps: no stat);
 * undefined when only its ends' hash can tell (racy then, not now).
 */
export function sameStamp(then: PathStamp, now: PathStamp): boolean | undefined {
  if (then === null || now === null) return then === now;
  if (then.size !== now.size || then.mtimeNs !== now.mtimeNs || then.ctimeNs !== now.ctimeNs || then.ino !== now.ino || then.dev !== now.dev) return false;
  if (then.ends === undefined) return true;
  return now.ends === undefined ? undefined : now.ends === then.ends;
}

/** The times and size of an open descriptor's file, to tell that it did not change while it was read. */
export function sameAsOpened(path: string, stored: PathStamp): boolean {
  const info = statOrNull(path);
  if (info === null || stored === null) return info === stored;
  const now = stampFields(info);
  return now.size === stored.size && now.mtimeNs === stored.mtimeNs && now.ctimeNs === stored.ctimeNs && now.ino === stored.ino;
}

/** The name of standard input among a unit's files: never cached. */
export const STDIN = "-";

/** The paths a unit's results depend on, and their stamps, in order. */
export interface UnitStamps {
  readonly paths: readonly string[];
  readonly stamps: readonly PathStamp[];
}

/**
 * The paths that hold a unit's input: its files, and for a SQLite store session (`<db>#<session>`)
 * the database and its write-ahead log (sqliteImage.ts reads both; a change to either is a miss for
 * every session of the store). Undefined for standard input, which is never cached.
 */
export function unitPaths(unit: readonly string[]): string[] | undefined {
  const paths: string[] = [];
  for (const file of unit) {
    if (file === STDIN) return undefined;
    // Only a path with a `#` can name a store's session: any other is stamped as it is, without a
    // stat here (stampPath stats it; on the bench's 1,601 files a pass of stats is ~15 ms of a re-run).
    const db = file.includes("#") && statOrNull(file) === null ? storeOf(file) : undefined;
    if (db === undefined) paths.push(file);
    else paths.push(db, `${db}-wal`);
  }
  return paths;
}

/** The database of `<db>#<session>`: the longest prefix before a `#` that is a file. */
function storeOf(path: string): string | undefined {
  for (let hash = path.lastIndexOf("#"); hash > 0; hash = path.lastIndexOf("#", hash - 1)) {
    if (statOrNull(path.slice(0, hash))?.isFile()) return path.slice(0, hash);
  }
  return undefined;
}

/** A unit's stamps now; undefined when it is not cached (standard input, or a file that cannot be stamped). */
export function stampUnit(unit: readonly string[], hasher: ByteHasher, racyNs = RACY_NS): UnitStamps | undefined {
  try {
    const paths = unitPaths(unit);
    if (paths === undefined) return undefined;
    const nowNs = currentNs();
    return { paths, stamps: paths.map((path) => stampPath(path, hasher, racyNs, nowNs)) };
  } catch {
    return undefined; // unreadable: the analysis says why, and nothing is cached
  }
}

/** Whether every path of the unit is still as stamped (the paths are those of the key, so the same). */
export function unitStillStamped(stored: UnitStamps, hasher: ByteHasher): boolean {
  try {
    return stored.paths.every((path, i) => stillStamped(path, stored.stamps[i]!, hasher));
  } catch {
    return false;
  }
}

/**
 * Whether the unit's files, stamped `now` earlier in this command, are as `stored` stamped them: as
 * `unitStillStamped`, without a stat of each (a racy stored stamp whose ends `now` did not hash is
 * asked of the file itself).
 */
export function unitStampedAs(stored: UnitStamps, now: UnitStamps, hasher: ByteHasher): boolean {
  try {
    return stored.paths.length === now.paths.length && stored.paths.every((path, i) => path === now.paths[i] && (sameStamp(stored.stamps[i]!, now.stamps[i]!) ?? stillStamped(path, stored.stamps[i]!, hasher)));
  } catch {
    return false;
  }
}

/** Whether no path changed while the unit was read (times and sizes only): otherwise its result is not stored. */
export function unitUnchangedSince(stored: UnitStamps): boolean {
  try {
    return stored.paths.every((path, i) => sameAsOpened(path, stored.stamps[i]!));
  } catch {
    return false;
  }
}
