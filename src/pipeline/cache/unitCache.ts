/**
 * The result cache of input units (watch.md §2): what `analyze`, `sweep` and `check --cache` keep per
 * unit (discovery.ts `expandUnits`: one session's files, or one file) so that a unit whose files did
 * not change is never read again. This module finds and writes entries whatever they hold; what an
 * analysis or a sweep puts in them is analysisCache.ts' and sweepCache.ts'.
 *
 * An entry is found by its key (cacheKey.ts: build, unit, options) and holds while its stamp does:
 * every file of the unit as stamped (fileStamps.ts) and the effective configs its replay asked for as
 * they resolve now. Anything else is a miss: the unit is read and replayed in full and its entry
 * replaced. A unit whose file only grew is a miss too, but its entry may still serve: read as it was
 * written (`lookUpAsWritten`), its result and the state kept at the file's old end let the analysis
 * read the appended lines only (resumeEntry.ts, resumeUnit.ts).
 *
 * Where entries are: appended to this thread's pack (packFile.ts), found through the index
 * (packIndex.ts), read once per command on the first lookup. A worker thread only writes: it hands
 * the places of its entries to the main thread, which puts them in the index at the end of the run.
 *
 * Safety: an entry is named by the index only once it is written whole, it is checked whole (its
 * stamp, its body's hash) before what was read from it is used, and any entry that cannot be read,
 * parsed or trusted is a miss, silently (it is rebuilt; nothing is wrong with the run). A folder that
 * cannot be written is one notice, and the run's output is the same. Processes share the index
 * only, replaced atomically and merged again when two update it at once (packIndex.ts); no pack is
 * written by two.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sanitize } from "../../reporters/sanitize.js";
import { loadByteHasher, type ByteHasher } from "./byteHash.js";
import type { CacheSetup } from "./cacheSetup.js";
import { keyHash } from "./cacheKey.js";
import { makeFolder, openEntry, type OpenEntry } from "./entryFile.js";
import { stampUnit, unitStampedAs, unitStillStamped, unitUnchangedSince, RACY_NS, type PathStamp, type UnitStamps } from "./fileStamps.js";
import { recordRun } from "./cacheUsage.js";
import { PackReaders, PackWriter, PACKS_FOLDER } from "./packFile.js";
import { readIndex, type IndexedEntry } from "./packIndex.js";

/** What an entry's first line says: what it is the result of, and what must still hold. */
export interface EntryStamp<Asked> {
  readonly key: string;
  readonly paths: readonly string[];
  readonly stamps: readonly PathStamp[];
  /** The agents (and profiles) the unit's replay asked the config of: their configs are checked. */
  readonly asked: Asked;
  readonly configs: string;
}

/** Entries a thread wrote, by key hash: a worker tells the main thread at its end (for the index). */
export interface CacheWritten {
  readonly added: ReadonlyArray<readonly [string, IndexedEntry]>;
}

/** An entry used this long ago is marked used again in the index (which is then written: not on every warm run). */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

/** An entry may take up this share of the cache at most (a larger one is not kept). */
const LARGEST_ENTRY_SHARE = 0.5;

/** A pack is closed and another begun past this share of the cache's bound (packs are evicted whole: cacheUsage.ts). */
const PACK_SHARE = 1 / 8;

export class UnitCache {
  readonly hasher: ByteHasher;
  /** Said on stderr by the command (at most one: the folder cannot be written). */
  readonly notices: string[] = [];
  hits = 0;
  misses = 0;
  /** Units whose part of the command's output was the kept output's bytes (outputSplice.ts). */
  spliced = 0;
  /** Entries written by this thread (and its workers, on the main thread), for the index. */
  private readonly added = new Map<string, IndexedEntry>();
  /** Entries read whose last use the index dates an hour or more ago. */
  private readonly used = new Map<string, number>();
  private writable: boolean;
  private readonly racyNs: bigint;
  private index: Map<string, IndexedEntry> | undefined;
  private readonly readers: PackReaders;
  private readonly writer: PackWriter;

  private constructor(
    readonly setup: CacheSetup,
    hasher: ByteHasher,
  ) {
    this.hasher = hasher;
    this.writable = setup.write;
    this.racyNs = setup.racyNs !== undefined ? BigInt(setup.racyNs) : RACY_NS;
    this.readers = new PackReaders(setup.dir);
    this.writer = new PackWriter(setup.dir, Math.max(1 << 20, setup.maxBytes * PACK_SHARE));
  }

  static async open(setup: CacheSetup): Promise<UnitCache> {
    return new UnitCache(setup, await loadByteHasher());
  }

  /** Entries can be written here: false once a write failed (said once), or when the setup says so. */
  get canWrite(): boolean {
    return this.writable;
  }

  /**
   * What the entry of `key` holds, read by `read`, when it holds now: the key text is the one asked
   * for (not a hash collision, not another build's), the unit's files are as stamped, and
   * `configs(asked)` gives the digest it was written with. Otherwise, or when `read` throws (a corrupt
   * body: `read` undoes what it did), undefined: a miss. Hits and misses are counted as units unless
   * `counted` is false (an entry that is not one unit's). `stampedNow`: the unit's stamps taken
   * earlier in this command, compared instead of a stat of each file.
   */
  lookUp<Asked, R>(key: string, configs: (asked: Asked) => string, read: (entry: OpenEntry) => R, counted = true, stampedNow?: UnitStamps): R | undefined {
    const found = this.find(key, configs, stampedNow ?? true);
    if (found === undefined) return counted ? this.missed() : undefined;
    try {
      const result = read(found.entry);
      if (counted) this.hits++;
      return result;
    } catch {
      return counted ? this.missed() : undefined;
    } finally {
      found.entry.close();
    }
  }

  /**
   * The entry of `key` read by `read` with its stamp, though the unit's files may have changed since
   * it was written (a grown file resumes from it: resumeEntry.ts checks how they changed). Undefined
   * when there is none, it is another key's, `before` (asked first: cheaper than the configs) is
   * false, its configs changed, or `read` throws. Counts nothing.
   */
  lookUpAsWritten<Asked, R>(
    key: string,
    configs: (asked: Asked) => string,
    read: (entry: OpenEntry, stamp: EntryStamp<Asked>) => R,
    before: (stamp: EntryStamp<Asked>) => boolean,
  ): R | undefined {
    const found = this.find(key, configs, false, before);
    if (found === undefined) return undefined;
    try {
      return read(found.entry, found.stamp);
    } catch {
      return undefined;
    } finally {
      found.entry.close();
    }
  }

  /** Units answered by an entry of more than one unit (reportCache.ts: a command's whole output), counted as hits. */
  countHits(units: number): void {
    this.hits += units;
  }

  /** The entry of `key` and its stamp, when its configs hold and (`filesHold`: now, or as stamped then) its files are as stamped. */
  private find<Asked>(
    key: string,
    configs: (asked: Asked) => string,
    filesHold: boolean | UnitStamps,
    before: (stamp: EntryStamp<Asked>) => boolean = () => true,
  ): { entry: OpenEntry; stamp: EntryStamp<Asked> } | undefined {
    const hash = keyHash(key, this.hasher);
    const place = (this.index ??= readIndex(this.setup.dir)).get(hash);
    const fd = place && this.readers.fd(place.pack);
    if (place === undefined || fd === undefined) return undefined;
    const entry = openEntry(fd, place.offset, place.length, this.hasher, place.usedMs);
    if (entry === undefined) return undefined;
    let stamp: EntryStamp<Asked>;
    try {
      stamp = JSON.parse(entry.stamp) as EntryStamp<Asked>;
      const holds =
        stamp.key === key &&
        Array.isArray(stamp.paths) &&
        Array.isArray(stamp.stamps) &&
        stamp.paths.length === stamp.stamps.length &&
        this.filesHold({ paths: stamp.paths, stamps: stamp.stamps }, filesHold) &&
        before(stamp) &&
        configs(stamp.asked) === stamp.configs;
      if (!holds) throw new Error("stale");
    } catch {
      entry.close();
      return undefined;
    }
    const now = Date.now();
    if (now - place.usedMs > TOUCH_AFTER_MS) this.used.set(hash, now);
    return { entry, stamp };
  }

  private filesHold(stored: UnitStamps, asked: boolean | UnitStamps): boolean {
    if (asked === false) return true;
    return asked === true ? unitStillStamped(stored, this.hasher) : unitStampedAs(stored, asked, this.hasher);
  }

  private missed(): undefined {
    this.misses++;
    return undefined;
  }

  /** The unit's stamps before it is read; undefined when it is not cached (standard input, unreadable). */
  stamp(unit: readonly string[]): UnitStamps | undefined {
    return stampUnit(unit, this.hasher, this.racyNs);
  }

  /**
   * Writes the entry of `key`, unless a file of the unit changed while it was read (its result may
   * mix two versions) or the cache cannot be written. Never throws: a failure is one notice.
   */
  write<Asked>(key: string, stamps: UnitStamps, asked: Asked, configs: string, body: () => Iterable<string | Uint8Array>): void {
    if (!this.writable || !unitUnchangedSince(stamps)) return;
    const stamp: EntryStamp<Asked> = { key, paths: stamps.paths, stamps: stamps.stamps, asked, configs };
    try {
      const place = this.writer.append(JSON.stringify(stamp), body(), this.hasher, this.setup.maxBytes * LARGEST_ENTRY_SHARE);
      if (place !== undefined) this.added.set(keyHash(key, this.hasher), { ...place, usedMs: Date.now() });
    } catch (error) {
      this.failedToWrite(error);
    }
  }

  /**
   * Checks that the folder can be written before units are handed out (a worker's failure would not
   * be said): one probe file made and removed. False, with the notice, when it cannot.
   */
  probeWritable(): boolean {
    if (!this.writable) return false;
    try {
      const folder = join(this.setup.dir, PACKS_FOLDER);
      makeFolder(folder);
      const probe = join(folder, `.probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
      writeFileSync(probe, "");
      rmSync(probe, { force: true });
      return true;
    } catch (error) {
      this.failedToWrite(error);
      return false;
    }
  }

  private failedToWrite(error: unknown): void {
    if (this.writable) {
      const code = (error as NodeJS.ErrnoException)?.code;
      this.notices.push(`cache: cannot write to ${sanitize(this.setup.dir)}${code ? ` (${code})` : ""}: results are not kept for the next run (--no-cache turns the cache off)`);
    }
    this.writable = false;
  }

  /** The setup for worker threads, once the folder was found writable (or not: then they only compute). */
  jobSetup(): CacheSetup {
    this.probeWritable();
    return { ...this.setup, write: this.writable };
  }

  /** What this thread wrote, its pack written out and closed (a worker's reply at its end). */
  finishWriting(): CacheWritten {
    this.closeWriter();
    return { added: [...this.added] };
  }

  /** Adds what a worker wrote. */
  countWritten(written: CacheWritten | undefined): void {
    for (const [key, entry] of written?.added ?? []) this.added.set(key, entry);
  }

  private closeWriter(): void {
    try {
      this.writer.close();
    } catch (error) {
      // Its entries may not all be whole in the pack: none goes into the index.
      this.added.clear();
      this.failedToWrite(error);
    }
  }

  /** At the end of a command: this run's entries into the index, usage counts and the size bound (cacheUsage.ts). */
  finish(command: string): void {
    this.closeWriter();
    this.readers.closeAll();
    recordRun(this.setup, command, { hits: this.hits, misses: this.misses, spliced: this.spliced, added: this.added, used: this.used }, this.writable);
  }
}
