/**
 * The units a watch follows right now, in input order, with what finds them from a changed file: a
 * file's unit, and a store's sessions (a store changes as a whole: its database or write-ahead log).
 * Replaced whole each time the units are found again (watchSession.ts "regroup"): a unit whose files
 * are the same keeps its follower (and so what it read), a unit that is new gets one.
 */
import { resolve } from "node:path";
import type { InputUnit } from "../../adapters/discovery.js";
import { stampOf, type FileStamp } from "./fileLineage.js";
import { isStoreSession, type UnitFollower } from "./unitFollower.js";

export interface Entry {
  readonly follower: UnitFollower;
  /** Made by the first regroup: its first analysis reads existing content (silent unless --from-start). */
  readonly initial: boolean;
}

export const unitKey = (unit: InputUnit) => unit.join("\u0000");

/** What replacing the units changed. */
export interface UnitsReplaced {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** The files of new units as they are now, and the files no unit holds any more (undefined): for the lineages. */
  readonly stamps: Map<string, FileStamp | undefined>;
}

interface Store {
  readonly keys: string[];
  /** The database's and its write-ahead log's stamps when its sessions were last touched. */
  stamp: string;
}

export class WatchedUnits {
  private entries = new Map<string, Entry>();
  /** Unit keys in input order (live parts are joined in it). */
  order: readonly string[] = [];
  /** Resolved file path → unit key. */
  private byFile = new Map<string, string>();
  /** Resolved store path → its sessions' unit keys. */
  private stores = new Map<string, Store>();

  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  values(): IterableIterator<Entry> {
    return this.entries.values();
  }

  entriesByKey(): IterableIterator<[string, Entry]> {
    return this.entries.entries();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The unit that holds this file (any form of its path), if any. */
  keyOfFile(path: string): string | undefined {
    return this.byFile.get(resolve(path));
  }

  /** The units of a store, told that it changed now (a rescan then finds no change of its own). */
  storeChanged(db: string): readonly string[] {
    const store = this.stores.get(resolve(db));
    if (!store) return [];
    store.stamp = storeStamp(resolve(db));
    return store.keys;
  }

  /** The units of the stores whose files changed since they were last touched (a rescan). */
  changedStores(): string[] {
    const keys: string[] = [];
    for (const [db, store] of this.stores) {
      const stamp = storeStamp(db);
      if (stamp === store.stamp) continue;
      store.stamp = stamp;
      keys.push(...store.keys);
    }
    return keys;
  }

  /** Takes the units found now; `make` gives a new unit its entry. */
  replace(units: readonly InputUnit[], make: (unit: InputUnit) => Entry): UnitsReplaced {
    const previous = this.entries;
    const next = new Map<string, Entry>();
    const added: string[] = [];
    for (const unit of units) {
      const key = unitKey(unit);
      const kept = previous.get(key);
      if (!kept) added.push(key);
      next.set(key, kept ?? make(unit));
    }
    const removed = [...previous.keys()].filter((key) => !next.has(key));
    const stamps = new Map<string, FileStamp | undefined>();
    const held = new Set(units.flat());
    for (const key of added) for (const file of next.get(key)!.follower.unit) if (!isStoreSession(file)) stamps.set(file, stampOf(file));
    for (const key of removed) for (const file of previous.get(key)!.follower.unit) if (!held.has(file) && !isStoreSession(file)) stamps.set(file, undefined);
    this.entries = next;
    this.order = units.map(unitKey);
    this.index(units);
    return { added, removed, stamps };
  }

  private index(units: readonly InputUnit[]): void {
    this.byFile = new Map();
    const stores = new Map<string, Store>();
    for (const unit of units) {
      const key = unitKey(unit);
      for (const file of unit) {
        if (!isStoreSession(file)) {
          this.byFile.set(resolve(file), key);
          continue;
        }
        const db = resolve(file.slice(0, file.lastIndexOf("#")));
        const store = stores.get(db) ?? { keys: [], stamp: this.stores.get(db)?.stamp ?? storeStamp(db) };
        store.keys.push(key);
        stores.set(db, store);
      }
    }
    this.stores = stores;
  }
}

/** A store's database and write-ahead log stamps, as one string to compare. */
function storeStamp(db: string): string {
  const stamp = (stamp: FileStamp | undefined) => (stamp === undefined ? "-" : `${stamp.ino}:${stamp.size}:${stamp.mtimeMs}`);
  return `${stamp(stampOf(db))}/${stamp(stampOf(`${db}-wal`))}`;
}
