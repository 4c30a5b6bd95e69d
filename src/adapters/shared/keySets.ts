/**
 * Sets of keys a session keeps for as long as it is read (copy keys, entry keys, call ids), held in
 * one flat table instead of a `Set`: a transcript of 157 000 runs (a 1 GB real-shaped file) kept
 * ~31 MB of copy keys and ~24 MB of call ids in Sets, most of it the Sets' own tables, the numbers
 * above 2^31 boxed one by one, and the id strings (bench/, heap snapshot). Here a key is 8 bytes in
 * a Float64Array at most 80% full (see KeySet).
 *
 * Keys are 53-bit hashes (textHash.ts): only equality matters, and two different ids or messages
 * share a key with odds of ~n²/2^54 (10^-4 at 10^6 keys of one session); at worst a call is then
 * taken for one already seen.
 */
import { hash53 } from "./textHash.js";

/** Marks a free slot: keys are never negative. */
const FREE = -1;
/** Segments of a set, chosen by a key's top bits: each grows on its own. */
const SEGMENT_BITS = 8;
const SEGMENTS = 1 << SEGMENT_BITS;
const FIRST_CAPACITY = 8;
/**
 * Growth of a full segment: smaller steps than doubling keep the tables fuller (10–15 bytes a key);
 * smaller still (1.25) left more garbage tables behind for no gain in peak (bench: 3.4 M keys).
 */
const GROWTH = 1.5;

/**
 * A set of integers in [0, 2^53), open addressing with linear probing, in SEGMENTS tables that
 * grow one at a time. A single table doubled at half full held 16–32 bytes a key and, while it
 * grew, its old and new tables at once: a 1 GB transcript of tiny entries (3.4 M message keys,
 * 1.7 M call ids) peaked at 128 MB of them. Segments grow at 80% full, and only one is copied at a
 * time, by half: 10–15 bytes a key, and no peak beyond that (3.4 M keys: 181 → 119 MB peak RSS,
 * for ~0.2 µs more a key).
 */
export class KeySet {
  private segments: Array<Float64Array | undefined> = new Array<Float64Array | undefined>(SEGMENTS).fill(undefined);
  private readonly counts = new Uint32Array(SEGMENTS);
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(key: number): boolean {
    const table = this.segments[segmentOf(key)];
    if (table === undefined) return false;
    const end = table.length;
    for (let i = slotOf(key, end); ; i = i + 1 === end ? 0 : i + 1) {
      const held = table[i]!;
      if (held === key) return true;
      if (held === FREE) return false;
    }
  }

  add(key: number): void {
    const segment = segmentOf(key);
    let table = this.segments[segment];
    if (table === undefined || (this.counts[segment]! + 1) * 5 > table.length * 4) table = this.grow(segment);
    const end = table.length;
    for (let i = slotOf(key, end); ; i = i + 1 === end ? 0 : i + 1) {
      const held = table[i]!;
      if (held === key) return;
      if (held === FREE) {
        table[i] = key;
        this.counts[segment]!++;
        this.count++;
        return;
      }
    }
  }

  forEach(visit: (key: number) => void): void {
    for (const table of this.segments) if (table !== undefined) for (const key of table) if (key !== FREE) visit(key);
  }

  clear(): void {
    this.segments = new Array<Float64Array | undefined>(SEGMENTS).fill(undefined);
    this.counts.fill(0);
    this.count = 0;
  }

  /** The segment's table GROWTH times larger (or its first one), its keys moved over. */
  private grow(segment: number): Float64Array {
    const old = this.segments[segment];
    const table = new Float64Array(old === undefined ? FIRST_CAPACITY : Math.ceil(old.length * GROWTH)).fill(FREE);
    const end = table.length;
    if (old !== undefined) {
      for (const key of old) {
        if (key === FREE) continue;
        let i = slotOf(key, end);
        while (table[i] !== FREE) i = i + 1 === end ? 0 : i + 1;
        table[i] = key;
      }
    }
    this.segments[segment] = table;
    return table;
  }
}

/** A key's segment: the top bits of its 53 (keys are hashes, so their top bits are spread). */
function segmentOf(key: number): number {
  return (key / 0x100000000) >>> (53 - 32 - SEGMENT_BITS);
}

/**
 * The slot a key starts probing at in a table of `size` slots: its low 32 bits, mixed (keys are
 * hashes already, but cheap to spread), scaled to the size (any size: tables grow by half).
 */
function slotOf(key: number, size: number): number {
  const mixed = (Math.imul(key >>> 0, 0x9e3779b1) ^ ((key / 0x100000000) >>> 0)) >>> 0;
  return Math.floor((mixed / 0x100000000) * size);
}

/** A set of ids (call ids), kept as their 53-bit keys (`hash53`). */
export class IdSet {
  private readonly keys = new KeySet();

  has(id: string): boolean {
    return this.keys.has(hash53(id));
  }

  add(id: string): void {
    this.keys.add(hash53(id));
  }
}
