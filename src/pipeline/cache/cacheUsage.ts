/**
 * The cache's size bound and its counts. `usage.json` beside the index holds the bytes of the packs
 * as of the last run that wrote, and hit counts for `looplens cache info`. It is only ever replaced
 * whole (temporary file + rename), and nothing depends on it being exact: two processes that update
 * it at once lose one's counts.
 *
 * A run that wrote entries updates the index (packIndex.ts) and, in the same step, scans the packs
 * (one stat per pack: a few files) and keeps the bound: when the packs pass it, whole packs are
 * evicted in least-recently-used order (a pack is as recent as its most recently used entry; a hit
 * marks its entry used, unitCache.ts) until the cache is down to LOW_WATER of the bound, so that the
 * next evictions are many runs away. Runs that only read never scan. Packs that no index names (their
 * writer died, or all their entries were written again elsewhere) are removed once their writer has
 * ended (a running writer names its packs at its end), or an hour old; temporary files once an hour old. A folder of the layout before
 * packs (`entries/`) is removed by the first run that writes.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CacheSetup } from "./cacheSetup.js";
import { OLD_ENTRIES_FOLDER, TEMP_SUFFIX } from "./entryFile.js";
import { hasPlace, readIndex, updateIndex, INDEX_FILE, type IndexedEntry } from "./packIndex.js";
import { PACK_SUFFIX, PACKS_FOLDER } from "./packFile.js";

const USAGE_FILE = "usage.json";
const LOW_WATER = 0.8;
/** A pack no index names, or a temporary file, this old is a dead writer's. */
const STALE_MS = 60 * 60 * 1000;

export interface CacheUsage {
  /** Bytes of the packs, as of the last run that wrote. */
  readonly bytes: number;
  readonly scannedAt: number;
  /** Counts since the cache was made or cleared. */
  readonly since: number;
  readonly hits: number;
  readonly misses: number;
  /** `spliced`: units whose part of the output was the kept output's bytes (outputSplice.ts), when any. */
  readonly last?: { readonly at: number; readonly command: string; readonly hits: number; readonly misses: number; readonly spliced?: number };
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

/** A pack (or temporary file) as a scan finds it. */
export interface ScannedFile {
  readonly name: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

function scanFolder(folder: string, into: (file: ScannedFile) => void): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return; // none yet, or removed meanwhile (`cache clear`)
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      const info = statSync(path);
      if (info.isFile()) into({ name, path, size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      // removed meanwhile by another process
    }
  }
}

/** Every pack, and the temporary files left beside the packs and the index. */
export function scanPacks(dir: string): { packs: ScannedFile[]; temps: ScannedFile[] } {
  const packs: ScannedFile[] = [];
  const temps: ScannedFile[] = [];
  const sort = (file: ScannedFile) => {
    if (file.name.endsWith(PACK_SUFFIX)) packs.push(file);
    else if (file.name.endsWith(TEMP_SUFFIX)) temps.push(file);
  };
  scanFolder(join(dir, PACKS_FOLDER), sort);
  scanFolder(dir, (file) => file.name.endsWith(TEMP_SUFFIX) && temps.push(file));
  return { packs, temps };
}

/**
 * Whether the process that wrote a pack (its name begins with its pid: packFile.ts) has ended, so that
 * a pack no index names is dead now rather than in an hour: a burst of runs that each write a new
 * kept output leaves packs whose entries were all written again since, and those must go before
 * live packs are evicted for the bound. A pid in use again by another process only keeps a dead pack
 * until the hour is over.
 */
function writerGone(pack: string): boolean {
  const pid = Number(pack.slice(0, pack.indexOf("-")));
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Keeps the bound on `entries` (the index being written) and the folder: see the module comment.
 * Returns the bytes of the packs left and the packs removed.
 */
export function evict(dir: string, entries: Map<string, IndexedEntry>, maxBytes: number, now = Date.now()): { bytes: number; evicted: Set<string> } {
  const { packs, temps } = scanPacks(dir);
  for (const temp of temps) if (now - temp.mtimeMs > STALE_MS) rmSync(temp.path, { force: true });
  rmSync(join(dir, OLD_ENTRIES_FOLDER), { recursive: true, force: true });
  const onDisk = new Map(packs.map((pack) => [pack.name, pack]));
  const lastUsed = new Map<string, number>();
  for (const [key, entry] of entries) {
    if (!onDisk.has(entry.pack)) entries.delete(key);
    else lastUsed.set(entry.pack, Math.max(lastUsed.get(entry.pack) ?? 0, entry.usedMs));
  }
  const evicted = new Set<string>();
  let bytes = packs.reduce((sum, pack) => sum + pack.size, 0);
  const remove = (pack: ScannedFile) => {
    rmSync(pack.path, { force: true });
    evicted.add(pack.name);
    bytes -= pack.size;
  };
  for (const pack of packs) if (!lastUsed.has(pack.name) && (now - pack.mtimeMs > STALE_MS || writerGone(pack.name))) remove(pack);
  if (bytes > maxBytes) {
    const byAge = packs.filter((pack) => lastUsed.has(pack.name)).sort((a, b) => lastUsed.get(a.name)! - lastUsed.get(b.name)!);
    for (const pack of byAge) {
      if (bytes <= maxBytes * LOW_WATER) break;
      remove(pack);
    }
    for (const [key, entry] of entries) if (evicted.has(entry.pack)) entries.delete(key);
  }
  return { bytes, evicted };
}

/** What a command did with the cache: hits, misses, the entries it (and its workers) wrote, and those it used that the index says were not used lately. */
export interface RunCounts {
  readonly hits: number;
  readonly misses: number;
  /** Units whose part of the output was taken from the kept output (outputSplice.ts). */
  readonly spliced?: number;
  readonly added: ReadonlyMap<string, IndexedEntry>;
  readonly used: ReadonlyMap<string, number>;
}

/** Counts a command's use; when it wrote, its entries go into the index and the bound is kept (see the module comment). */
export function recordRun(setup: CacheSetup, command: string, run: RunCounts, writable: boolean, now = Date.now()): void {
  if (!writable || (run.hits === 0 && run.misses === 0 && run.added.size === 0)) return;
  const usage = readUsage(setup.dir) ?? { bytes: 0, scannedAt: 0, since: now, hits: 0, misses: 0 };
  let bytes = usage.bytes;
  let scannedAt = usage.scannedAt;
  if (run.added.size > 0 || run.used.size > 0) {
    let evicted = new Set<string>();
    const change = (entries: Map<string, IndexedEntry>) => {
      for (const [key, entry] of run.added) entries.set(key, entry);
      for (const [key, usedMs] of run.used) {
        const entry = entries.get(key);
        if (entry !== undefined && entry.usedMs < usedMs) entries.set(key, { ...entry, usedMs });
      }
      ({ bytes, evicted } = evict(setup.dir, entries, setup.maxBytes, now));
      scannedAt = now;
    };
    try {
      updateIndex(setup.dir, change, (entries) => [...run.added].every(([key, place]) => evicted.has(place.pack) || hasPlace(entries, key, place)));
    } catch {
      // cannot be written (the folder was checked at the start): the entries are misses next time
    }
  }
  writeUsage(setup.dir, {
    bytes,
    scannedAt,
    since: usage.since,
    hits: usage.hits + run.hits,
    misses: usage.misses + run.misses,
    last: { at: now, command, hits: run.hits, misses: run.misses, ...(run.spliced !== undefined && run.spliced > 0 && { spliced: run.spliced }) },
  });
}

/** What the cache holds now: its entries (from the index) and the bytes of its packs. */
export function cacheContents(dir: string): { entries: number; bytes: number; usedMs: number[] } {
  const entries = readIndex(dir);
  const bytes = scanPacks(dir).packs.reduce((sum, pack) => sum + pack.size, 0);
  return { entries: entries.size, bytes, usedMs: [...entries.values()].map((entry) => entry.usedMs) };
}

/** Removes every entry and the counts (only what the cache itself made: the folder may be shared). */
export function clearCache(dir: string): { entries: number; bytes: number } {
  const { entries, bytes } = cacheContents(dir);
  for (const temp of scanPacks(dir).temps) rmSync(temp.path, { force: true });
  rmSync(join(dir, PACKS_FOLDER), { recursive: true, force: true });
  rmSync(join(dir, OLD_ENTRIES_FOLDER), { recursive: true, force: true });
  rmSync(join(dir, INDEX_FILE), { force: true });
  rmSync(join(dir, USAGE_FILE), { force: true });
  return { entries, bytes };
}
