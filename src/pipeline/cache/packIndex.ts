/**
 * The cache's index, `<dir>/index.json`: for the hash of each entry's key (cacheKey.ts), where the
 * entry is (packFile.ts) and when it was last used. Read once by a command that looks entries up
 * (one file of ~100 bytes per entry: ~2 ms for 1,600 entries), written at the end of a run that
 * wrote entries (or used some not used for an hour: the least recently used are evicted first).
 *
 * Replaced whole, atomically (temporary file + rename): a reader sees an old index or a new one,
 * never a mix. Two processes that update it at once each read it, add their own entries and rename
 * theirs over it; the one that renamed first would lose its additions, so each reads the index back
 * after its rename and merges again while its entries are missing (a few rounds at most: then they
 * are misses for the next run, never a wrong answer). The index is a guide, not a promise: an entry
 * it names is checked whole (its stamp and its hash: unitCache.ts) before it is used, so a stale,
 * damaged or foreign index costs misses only.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TEMP_SUFFIX } from "./entryFile.js";
import type { EntryPlace } from "./packFile.js";

export const INDEX_FILE = "index.json";

/** Bumped with what an index holds. */
const INDEX_FORMAT = 1;

/** An entry as the index has it. */
export interface IndexedEntry extends EntryPlace {
  /** When it was last written or used (ms). */
  readonly usedMs: number;
}

type Row = [pack: string, offset: number, length: number, usedMs: number];

const valid = (row: unknown): row is Row =>
  Array.isArray(row) && row.length === 4 && typeof row[0] === "string" && Number.isSafeInteger(row[1]) && row[1] >= 0 && Number.isSafeInteger(row[2]) && row[2] > 0 && typeof row[3] === "number";

/** The index's entries by key hash; empty when there is none or it cannot be read (rows that make no sense are left out). */
export function readIndex(dir: string): Map<string, IndexedEntry> {
  const entries = new Map<string, IndexedEntry>();
  try {
    const index = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")) as { format?: unknown; entries?: Record<string, unknown> };
    if (index.format !== INDEX_FORMAT || typeof index.entries !== "object" || index.entries === null) return entries;
    for (const [key, row] of Object.entries(index.entries)) {
      if (valid(row)) entries.set(key, { pack: row[0], offset: row[1], length: row[2], usedMs: row[3] });
    }
  } catch {
    // none yet, or unreadable: every lookup is a miss
  }
  return entries;
}

function writeIndex(dir: string, entries: ReadonlyMap<string, IndexedEntry>): void {
  const rows: Record<string, Row> = {};
  for (const [key, { pack, offset, length, usedMs }] of entries) rows[key] = [pack, offset, length, usedMs];
  const path = join(dir, INDEX_FILE);
  const temp = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}${TEMP_SUFFIX}`;
  try {
    writeFileSync(temp, JSON.stringify({ format: INDEX_FORMAT, entries: rows }));
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

const MERGE_ROUNDS = 3;

/**
 * Changes the index: reads it, lets `change` add and remove entries, writes it back, and reads it
 * again to see that `holds` (this run's additions are in it), merging again when another process's
 * rename replaced it meanwhile. Returns the entries as last written. Throws when it cannot be written.
 */
export function updateIndex(
  dir: string,
  change: (entries: Map<string, IndexedEntry>) => void,
  holds: (entries: ReadonlyMap<string, IndexedEntry>) => boolean,
  /** Tests only: what another process does right after this one's rename. */
  afterRename: () => void = () => undefined,
): Map<string, IndexedEntry> {
  let entries = readIndex(dir);
  for (let round = 0; round < MERGE_ROUNDS; round++) {
    change(entries);
    writeIndex(dir, entries);
    afterRename();
    const now = readIndex(dir);
    if (holds(now)) return now;
    entries = now;
  }
  return entries;
}

/** Whether `entries` has `key` at `place` (its usage time aside). */
export function hasPlace(entries: ReadonlyMap<string, IndexedEntry>, key: string, place: EntryPlace): boolean {
  const found = entries.get(key);
  return found !== undefined && found.pack === place.pack && found.offset === place.offset && found.length === place.length;
}
