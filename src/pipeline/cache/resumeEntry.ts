/**
 * What a unit's cache entry keeps to resume a grown file (resumeUnit.ts), and when a file counts as
 * grown (watch.md §2 "Growth": the same inode, its old size's prefix hash unchanged).
 *
 * At the write, the point gets the old file's size and a hash of all its bytes (read again once: the
 * point is kept only for files of at least `resumeMinBytes`, whose re-read is worth saving), and only
 * when the file ended with a whole line (a cut-off last line is read differently once completed) and
 * is not compressed (a compressed file is not read as a prefix). At a lookup, the entry holds for a
 * resume when its configs still hold, its one file has the same inode and device and is longer, and
 * the hash of its first `size` bytes is the one kept: any other edit (a rewrite, a truncation followed
 * by growth) is a full read.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { compressionOf } from "../../adapters/io/decompression.js";
import type { InputUnit } from "../../adapters/discovery.js";
import type { ByteHasher } from "./byteHash.js";
import { analysisOfEntry } from "./analysisEntry.js";
import type { UnitStamps } from "./fileStamps.js";
import type { ResumeFrom, ResumePoint } from "./resumeUnit.js";
import type { EntryStamp, UnitCache } from "./unitCache.js";

/** Files under this size keep no point by default: reading them again whole costs little. */
export const RESUME_MIN_BYTES = 1 << 20;

/** A point as the entry keeps it: with the old file's size and the hash of its bytes. */
export interface KeptResume extends ResumePoint {
  readonly size: number;
  readonly prefix: string;
}

/** Whether a unit of these stamps keeps a point: one plain file of at least `minBytes`. */
export function keepsResume(stamps: UnitStamps | undefined, minBytes: number): boolean {
  const stamp = stamps?.stamps.length === 1 ? stamps.stamps[0] : undefined;
  return stamp !== undefined && stamp !== null && Number(stamp.size) >= minBytes;
}

/**
 * A file's first `size` bytes hashed, whether they end a line and whether they are plain (not
 * compressed), with the hash's state: bytes appended later go on from it (`continuedTo`).
 */
export interface HashedPrefix {
  readonly size: number;
  readonly hash: string;
  readonly wholeLines: boolean;
  readonly plain: boolean;
  readonly stream: HashStream;
}

type HashStream = ReturnType<ByteHasher["stream"]>;

/** Bytes a prefix must hold for its plainness to stand for the longer file's (a compression's magic number is shorter). */
const MAGIC_BYTES_MAX = 16;

/**
 * The hash of the file's first `size` bytes, going on from `from` (the same file's shorter prefix,
 * hashed earlier in this run) when there is one: the grown file's prefix was read and hashed at the
 * lookup already (~12 MB on the bench's grown row), and its new point needs the hash of its new size.
 */
export function hashPrefix(path: string, size: number, hasher: ByteHasher, from?: HashedPrefix): HashedPrefix {
  const continued = from !== undefined && from.size >= MAGIC_BYTES_MAX && from.size <= size;
  const stream = continued ? from.stream : hasher.stream();
  let at = continued ? from.size : 0;
  let plain = continued ? from.plain : true;
  let last = continued && from.wholeLines ? 0x0a : -1;
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    while (at < size) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
      if (n === 0) throw new Error(`${path} is shorter than ${size} bytes`);
      if (at === 0) plain = compressionOf(buffer.subarray(0, n)) === "none";
      stream.update(buffer.subarray(0, n));
      last = buffer[n - 1]!;
      at += n;
    }
    // The digest leaves the state as it was (byteHash.test.ts): the hash can go on over more bytes.
    return { size, hash: `${size}:${stream.digest()}`, wholeLines: last === 0x0a, plain, stream };
  } finally {
    closeSync(fd);
  }
}

/**
 * The point with what tells the file grew later, as stamped; undefined when it cannot serve (see the
 * module comment). `prefix`: the file's old prefix as the lookup hashed it, to go on from.
 */
export function keptResume(point: ResumePoint, stamps: UnitStamps, hasher: ByteHasher, prefix?: HashedPrefix): KeptResume | undefined {
  const stamp = stamps.stamps[0];
  if (stamp === undefined || stamp === null) return undefined;
  const size = Number(stamp.size);
  try {
    const facts = hashPrefix(stamps.paths[0]!, size, hasher, prefix);
    return facts.wholeLines && facts.plain ? { ...point, size, prefix: facts.hash } : undefined;
  } catch {
    return undefined;
  }
}

/** Where a grown unit resumes from, and its old prefix as hashed to tell it grew (its new point's hash goes on from it). */
export interface GrownUnit {
  readonly from: ResumeFrom;
  readonly prefix: HashedPrefix;
}

/**
 * Where to resume the one-file unit of `key` from, when its entry was written before the file only
 * grew; undefined otherwise (then it is read in full). `configs` checks the entry's configs as a hit's.
 */
export function grownFrom(cache: UnitCache, key: string, unit: InputUnit, configs: (asked: never) => string): GrownUnit | undefined {
  if (unit.length !== 1) return undefined;
  // Told before the configs are checked: a file that did not only grow asks the resolver nothing.
  const grown = (stamp: EntryStamp<never>) => {
    const old = stamp.stamps[0];
    if (stamp.paths.length !== 1 || stamp.paths[0] !== unit[0] || old === undefined || old === null) return false;
    const now = statSync(unit[0]!, { bigint: true, throwIfNoEntry: false });
    return now !== undefined && String(now.ino) === old.ino && String(now.dev) === old.dev && now.size > BigInt(old.size);
  };
  return cache.lookUpAsWritten(
    key,
    configs,
    (entry, stamp) => {
      const analysis = analysisOfEntry(entry, undefined, undefined, true);
      const kept = analysis.resume as KeptResume | undefined;
      if (kept === undefined || kept.size !== Number(stamp.stamps[0]!.size) || analysis.spilled !== undefined) throw new Error("no point");
      const prefix = hashPrefix(unit[0]!, kept.size, cache.hasher);
      if (prefix.hash !== kept.prefix) throw new Error("not the same prefix");
      return { from: { ...kept, oldRuns: analysis.runs }, prefix };
    },
    grown,
  );
}
