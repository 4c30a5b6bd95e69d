/**
 * The cache's size bound and its counts, without a shared index: `usage.json` beside the entries
 * holds an estimate of their bytes (as of the last scan, plus what runs wrote since) and hit counts
 * for `looplens cache info`. It is only ever replaced whole (temporary file + rename), and nothing
 * depends on it being exact: two processes that update it at once lose one's additions, which the
 * next scan corrects.
 *
 * A run that wrote entries scans the folder (one stat per entry) when the estimate passes the bound,
 * or when the last scan is a day old, and evicts the least recently used entries (their modification
 * time: a hit touches its entry, entryFile.ts) until the cache is down to LOW_WATER of the bound, so
 * that the next scans are many runs away. Runs that only read never scan. Temporary files left by a
 * writer that died are removed by the scan once they are an hour old.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CacheSetup } from "./cacheSetup.js";
import { ENTRIES_FOLDER, TEMP_SUFFIX } from "./entryFile.js";

const USAGE_FILE = "usage.json";
const LOW_WATER = 0.8;
const RESCAN_MS = 24 * 60 * 60 * 1000;
const STALE_TEMP_MS = 60 * 60 * 1000;

export interface CacheUsage {
  /** Bytes of the entries, as estimated (see the module comment). */
  readonly bytes: number;
  readonly scannedAt: number;
  /** Counts since the cache was made or cleared. */
  readonly since: number;
  readonly hits: number;
  readonly misses: number;
  readonly last?: { readonly at: number; readonly command: string; readonly hits: number; readonly misses: number };
}

export function readUsage(dir: string): CacheUsage | undefined {
  try {
    const usage = JSON.parse(readFileSync(join(dir, USAGE_FILE), "utf8")) as CacheUsage;
    return typeof usage.bytes === "number" && typeof usage.hits === "number" ? usage : undefined;
  } catch {
    return undefined;
  }
}

function writeUsage(dir: string, usage: CacheUsage): void {
  const path = join(dir, USAGE_FILE);
  const temp = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}${TEMP_SUFFIX}`;
  try {
    writeFileSync(temp, JSON.stringify(usage));
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** One entry file as a scan finds it. */
interface ScannedFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Every entry (and leftover temporary file) under the folder. */
export function scanEntries(dir: string): { entries: ScannedFile[]; temps: ScannedFile[] } {
  const entries: ScannedFile[] = [];
  const temps: ScannedFile[] = [];
  const root = join(dir, ENTRIES_FOLDER);
  let shards: string[];
  try {
    shards = readdirSync(root);
  } catch {
    return { entries, temps };
  }
  for (const shard of shards) {
    let names: string[];
    try {
      names = readdirSync(join(root, shard));
    } catch {
      continue; // a probe file, or a shard removed meanwhile
    }
    for (const name of names) {
      const path = join(root, shard, name);
      try {
        const info = statSync(path);
        (name.endsWith(TEMP_SUFFIX) ? temps : entries).push({ path, size: info.size, mtimeMs: info.mtimeMs });
      } catch {
        // removed meanwhile by another process
      }
    }
  }
  return { entries, temps };
}

/** Removes the least recently used entries until at most `target` bytes remain; returns the bytes left. */
export function evict(dir: string, target: number, now = Date.now()): { bytes: number; entries: number; removed: number } {
  const { entries, temps } = scanEntries(dir);
  for (const temp of temps) if (now - temp.mtimeMs > STALE_TEMP_MS) rmSync(temp.path, { force: true });
  let bytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  let removed = 0;
  if (bytes > target) {
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const entry of entries) {
      if (bytes <= target) break;
      rmSync(entry.path, { force: true });
      bytes -= entry.size;
      removed++;
    }
  }
  return { bytes, entries: entries.length - removed, removed };
}

/** What a command did with the cache: hits, misses, and entries it (and its workers) wrote. */
export interface RunCounts {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
  readonly bytes: number;
}

/** Counts a command's use, and keeps the size bound when it wrote (see the module comment). */
export function recordRun(setup: CacheSetup, command: string, run: RunCounts, writable: boolean, now = Date.now()): void {
  if (!writable || (run.hits === 0 && run.misses === 0)) return;
  const usage = readUsage(setup.dir) ?? { bytes: 0, scannedAt: 0, since: now, hits: 0, misses: 0 };
  let bytes = usage.bytes + run.bytes;
  let scannedAt = usage.scannedAt;
  if (run.entries > 0 && (bytes > setup.maxBytes || now - usage.scannedAt > RESCAN_MS)) {
    bytes = evict(setup.dir, bytes > setup.maxBytes ? setup.maxBytes * LOW_WATER : setup.maxBytes, now).bytes;
    scannedAt = now;
  }
  writeUsage(setup.dir, {
    bytes,
    scannedAt,
    since: usage.since,
    hits: usage.hits + run.hits,
    misses: usage.misses + run.misses,
    last: { at: now, command, hits: run.hits, misses: run.misses },
  });
}

/** Removes every entry and the counts (only what the cache itself made: the folder may be shared). */
export function clearCache(dir: string): { entries: number; bytes: number } {
  const { entries } = scanEntries(dir);
  const bytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  rmSync(join(dir, ENTRIES_FOLDER), { recursive: true, force: true });
  rmSync(join(dir, USAGE_FILE), { force: true });
  return { entries: entries.length, bytes };
}
