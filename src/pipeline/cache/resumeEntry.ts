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

/** The hash of the file's first `size` bytes, whether they end a line, and whether they are plain (not compressed). */
function prefixFacts(path: string, size: number, hasher: ByteHasher): { hash: string; wholeLines: boolean; plain: boolean } {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const hash = hasher.stream();
    let last = -1;
    let plain = true;
    for (let at = 0; at < size; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
      if (n === 0) throw new Error(`${path} is shorter than ${size} bytes`);
      if (at === 0) plain = compressionOf(buffer.subarray(0, n)) === "none";
      hash.update(buffer.subarray(0, n));
      last = buffer[n - 1]!;
      at += n;
    }
    return { hash: `${size}:${hash.digest()}`, wholeLines: last === 0x0a, plain };
  } finally {
    closeSync(fd);
  }
}

/** The point with what tells the file grew later, as stamped; undefined when it cannot serve (see the module comment). */
export function keptResume(point: ResumePoint, stamps: UnitStamps, hasher: ByteHasher): KeptResume | undefined {
  const stamp = stamps.stamps[0];
  if (stamp === undefined || stamp === null) return undefined;
  const size = Number(stamp.size);
  try {
    const facts = prefixFacts(stamps.paths[0]!, size, hasher);
    return facts.wholeLines && facts.plain ? { ...point, size, prefix: facts.hash } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where to resume the one-file unit of `key` from, when its entry was written before the file only
 * grew; undefined otherwise (then it is read in full). `configs` checks the entry's configs as a hit's.
 */
export function grownFrom(cache: UnitCache, key: string, unit: InputUnit, configs: (asked: never) => string): ResumeFrom | undefined {
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
      if (prefixFacts(unit[0]!, kept.size, cache.hasher).hash !== kept.prefix) throw new Error("not the same prefix");
      return { ...kept, oldRuns: analysis.runs };
    },
    grown,
  );
}
