/**
 * Sets of keys a session keeps for as long as it is read (copy keys, entry keys, call ids), held in
 * one flat table instead of a `Set`: a transcript of 157 000 runs (a 1 GB real-shaped file) kept
 * ~31 MB of copy keys and ~24 MB of call ids in Sets, most of it the Sets' own tables, the numbers
 * above 2^31 boxed one by one, and the id strings (bench/, heap snapshot). Here a key is 8 bytes in
 * a Float64Array at most 90% full (see KeySet).
 *
 * Keys are 53-bit hashes (textHash.ts): only equality matters, and two different ids or messages
 * share a key with odds of ~n²/2^54 (10^-4 at 10^6 keys of one session); at worst a call is then
 * taken for one already seen.
 */
import { hash53 } from "./textHash.js";

/** Marks a free slot: keys are never negative. */
const FREE = -1;
/** Segments of a large set, chosen by a key's top bits: each grows on its own. */
const SEGMENT_BITS = 8;
const SEGMENTS = 1 << SEGMENT_BITS;
const FIRST_CAPACITY = 64;
/** A set whose one table would grow past this many slots splits into SEGMENTS tables. */
const SPLIT_SLOTS = 1 << 14;
/** Largest share of a table's slots in use before it grows. */
const MAX_LOAD = 0.9;
/**
 * Growth of a full table: smaller steps than doubling keep the tables fuller. A set's one table
 * grows by half, and so do the segments of a large set (they grow one at a time, so no step costs
 * a peak of its own). Segments grew by a fifth (keys at 9–11 bytes each instead of 10–15: 178 →
 * 170 MB peak RSS on the 1 GB file of tiny entries when that was the peak), but each key was then
 * copied ~5 times over the growths, 4% of the time on tiny entries (`grow` alone 37 ms of 0.93 s);
 * by half, the same file now peaks at 104–105 MB either way, 2–4% faster (4 alternating runs on the
 * 32 MB one, 2 on the 1 GB one).
 */
const GROWTH = 1.5;

/**
 * A set of integers in [0, 2^53), open addressing with linear probing. A single table doubled at
 * half full held 16–32 bytes a key and, while it grew, its old and new tables at once: a 1 GB
 * transcript of tiny entries (3.4 M message keys, 1.7 M call ids) peaked at 128 MB of them. Here a
 * table grows by half at 90% full, and a large set (past SPLIT_SLOTS) is split into SEGMENTS tables
 * by the keys' top bits, which grow one at a time (by a fifth): 9–11 bytes a key, and no peak
 * beyond that (3.4 M keys: 181 → 119 MB peak RSS when this came, at 10–15 bytes). Small sets (most sessions) stay one small table: 256 small
 * typed arrays, each growing on its own, cost more than they save (bench: real-shaped folder).
 */
export class KeySet {
  private segments: Float64Array[] = [newTable(FIRST_CAPACITY)];
  private counts: number[] = [0];
  /** Shift of a key's high 21 bits that gives its segment: 21 (one table), then 21 - SEGMENT_BITS. */
  private shift = 21;
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(key: number): boolean {
    const table = this.segments[this.segmentOf(key)]!;
    const end = table.length;
    for (let i = slotOf(key, end); ; i = i + 1 === end ? 0 : i + 1) {
      const held = table[i]!;
      if (held === key) return true;
      if (held === FREE) return false;
    }
  }

  add(key: number): void {
    let segment = this.segmentOf(key);
    if (this.counts[segment]! + 1 > this.segments[segment]!.length * MAX_LOAD) segment = this.grow(segment, key);
    if (insert(this.segments[segment]!, key)) {
      this.counts[segment]!++;
      this.count++;
    }
  }

  forEach(visit: (key: number) => void): void {
    for (const table of this.segments) for (const key of table) if (key !== FREE) visit(key);
  }

  clear(): void {
    this.segments = [newTable(FIRST_CAPACITY)];
    this.counts = [0];
    this.shift = 21;
    this.count = 0;
  }

  /** A key's segment: the top bits of its 53 (keys are hashes, so their top bits are spread). */
  private segmentOf(key: number): number {
    return (key / 0x100000000) >>> this.shift;
  }

  /** Makes room in `key`'s segment (splitting a single table that has grown large); returns the segment. */
  private grow(segment: number, key: number): number {
    const old = this.segments[segment]!;
    const single = this.segments.length === 1;
    const size = Math.ceil(old.length * GROWTH);
    if (single && size > SPLIT_SLOTS) {
      this.split();
      return this.segmentOf(key);
    }
    const table = newTable(size);
    for (const held of old) if (held !== FREE) insert(table, held);
    this.segments[segment] = table;
    return segment;
  }

  /** One table into SEGMENTS, each sized for its share of the keys with room to grow. */
  private split(): void {
    const old = this.segments[0]!;
    this.shift = 21 - SEGMENT_BITS;
    const counts = new Array<number>(SEGMENTS).fill(0);
    for (const key of old) if (key !== FREE) counts[this.segmentOf(key)]!++;
    this.segments = counts.map((n) => newTable(Math.max(FIRST_CAPACITY, Math.ceil((n * GROWTH) / MAX_LOAD))));
    for (const key of old) if (key !== FREE) insert(this.segments[this.segmentOf(key)]!, key);
    this.counts = counts;
  }
}

function newTable(size: number): Float64Array {
  return new Float64Array(size).fill(FREE);
}

/** Puts `key` in `table` (which has a free slot); false when it was there already. */
function insert(table: Float64Array, key: number): boolean {
  const end = table.length;
  for (let i = slotOf(key, end); ; i = i + 1 === end ? 0 : i + 1) {
    const held = table[i]!;
    if (held === key) return false;
    if (held === FREE) {
      table[i] = key;
      return true;
    }
  }
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

  get size(): number {
    return this.keys.size;
  }

  has(id: string): boolean {
    return this.keys.has(hash53(id));
  }

  add(id: string): void {
    this.keys.add(hash53(id));
  }
}
