/**
 * The cache's entries as the tests see and damage them: found through the index (packIndex.ts), read
 * from their packs, and replaced by other bytes (appended to the pack, the index pointed at them), as
 * a disk error, a crash or another build could leave them.
 */
import { appendFileSync, closeSync, openSync, readSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import type { OpenEntry } from "../../../src/pipeline/cache/entryFile.js";
import { PACKS_FOLDER } from "../../../src/pipeline/cache/packFile.js";
import { readIndex, updateIndex } from "../../../src/pipeline/cache/packIndex.js";

export interface StoredEntry {
  /** The hash of its key (the index's key). */
  readonly key: string;
  readonly pack: string;
  readonly offset: number;
  readonly length: number;
  /** Its bytes, as the pack holds them now. */
  bytes(): Buffer;
}

export function storedEntries(cacheDir: string): StoredEntry[] {
  return [...readIndex(cacheDir)].map(([key, { pack, offset, length }]) => ({
    key,
    pack: join(cacheDir, PACKS_FOLDER, pack),
    offset,
    length,
    bytes() {
      const bytes = Buffer.alloc(length);
      const fd = openSync(this.pack, "r");
      try {
        return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
      } finally {
        closeSync(fd);
      }
    },
  }));
}

/** Whether an entry is a kept output (its key is a report's) rather than a unit's. */
export const isReport = (entry: StoredEntry) => entry.bytes().toString("utf8").startsWith('{"key":"[\\"report\\"');

/** Makes `bytes` the entry's: appended to its pack, the index pointed at them. */
export function replaceEntry(cacheDir: string, entry: StoredEntry, bytes: Uint8Array): void {
  const offset = statSync(entry.pack).size;
  appendFileSync(entry.pack, bytes);
  updateIndex(
    cacheDir,
    (entries) => void entries.set(entry.key, { pack: entry.pack.split("/").pop()!, offset, length: bytes.length, usedMs: Date.now() }),
    () => true,
  );
}

/** Takes the entry out of the index (its bytes stay in the pack). */
export function dropEntry(cacheDir: string, entry: StoredEntry): void {
  updateIndex(cacheDir, (entries) => void entries.delete(entry.key), () => true);
}

/** Cuts the entry's pack inside the entry (a crash or a full disk while it was written). */
export function cutPack(entry: StoredEntry, fraction: number): void {
  truncateSync(entry.pack, entry.offset + Math.floor(entry.length * fraction));
}

/** An open entry's stamp, the body's first line and the rest, as a reader takes them; throws CorruptEntry. */
export function readEntry(entry: OpenEntry): { stamp: string; first: string; rest: string } {
  const rest: Buffer[] = [];
  let first = "";
  entry.readBody((line) => {
    first = line;
    return (bytes) => void rest.push(Buffer.from(bytes));
  });
  return { stamp: entry.stamp, first, rest: Buffer.concat(rest).toString("utf8") };
}
