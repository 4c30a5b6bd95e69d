/**
 * Numbers (file offsets) by string id, without holding the ids: parked sessions and their runs
 * (pipeline/parkedSessions.ts) are found by a 64-bit hash of the id, in typed arrays (open
 * addressing, linear probing). A `Map<string, number>` held every parked id's string and ~48 bytes
 * an entry, and doubled its table at once (+34 MB near 262,144 runs that never end); here an entry
 * is 16 bytes and the table grows by half. Two ids may hash alike: a hit is only a candidate, which
 * the caller confirms against the id stored with what the number points at (`find`'s `confirm`).
 */

/** A 32-bit hash of `id` for `seed` (two seeds make the 64-bit key; tests force collisions with a constant). */
export type IdHash = (id: string, seed: number) => number;

/** FNV-1a over the id's UTF-16 units from a seeded basis, then mixed (murmur3's finaliser). */
export const fnvHash: IdHash = (id, seed) => {
  let h = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

const EMPTY = -1;
const NONE = new Uint32Array(0);
const NO_VALUES = new Float64Array(0);
/** Entries per slot at most before the table grows (by half: not a doubling at once). */
const LOAD = 0.7;

export class IdIndex {
  private high: Uint32Array;
  private low: Uint32Array;
  /** The number of each slot's entry, or EMPTY. */
  private values: Float64Array;
  private size = 0;

  /** `capacity`: the first table's slots, made at the first entry (a unit's replay makes a store, and most park nothing). */
  constructor(
    private readonly hash: IdHash = fnvHash,
    private readonly capacity = 1024,
  ) {
    this.high = this.low = NONE;
    this.values = NO_VALUES;
  }

  get count(): number {
    return this.size;
  }

  /** The number of the entry for `id` that `confirm` accepts (entries of ids hashing alike are tried in turn). */
  find(id: string, kind: number, confirm: (value: number) => boolean): number | undefined {
    if (this.size === 0) return undefined;
    const high = this.hash(id, kind * 2);
    const low = this.hash(id, kind * 2 + 1);
    const capacity = this.values.length;
    for (let slot = this.home(low); this.values[slot] !== EMPTY; slot = (slot + 1) % capacity) {
      if (this.high[slot] === high && this.low[slot] === low && confirm(this.values[slot]!)) return this.values[slot];
    }
    return undefined;
  }

  /** Adds an entry (`value` ≥ 0; an id may have several: the caller tells them apart by `find`'s confirm). */
  add(id: string, kind: number, value: number): void {
    if (this.size + 1 > this.values.length * LOAD) this.grow();
    this.place(this.hash(id, kind * 2), this.hash(id, kind * 2 + 1), value);
    this.size++;
  }

  /** Removes the entry for `id` with the number `value` (false: none). */
  remove(id: string, kind: number, value: number): boolean {
    if (this.size === 0) return false;
    const high = this.hash(id, kind * 2);
    const low = this.hash(id, kind * 2 + 1);
    const capacity = this.values.length;
    let slot = this.home(low);
    while (this.values[slot] !== value || this.high[slot] !== high || this.low[slot] !== low) {
      if (this.values[slot] === EMPTY) return false;
      slot = (slot + 1) % capacity;
    }
    this.size--;
    // Backward shift: the entries after the hole that would not be found past it move into it.
    for (let next = (slot + 1) % capacity; this.values[next] !== EMPTY; next = (next + 1) % capacity) {
      const home = this.home(this.low[next]!);
      const between = slot <= next ? home > slot && home <= next : home > slot || home <= next;
      if (between) continue;
      this.high[slot] = this.high[next]!;
      this.low[slot] = this.low[next]!;
      this.values[slot] = this.values[next]!;
      slot = next;
    }
    this.values[slot] = EMPTY;
    return true;
  }

  /** Empties the index (its tables go). */
  clear(): void {
    this.high = this.low = NONE;
    this.values = NO_VALUES;
    this.size = 0;
  }

  /** A slot from the low half of the hash, for any table size (multiply-shift, not a modulo of a power of two). */
  private home(low: number): number {
    return Math.floor((low / 0x1_0000_0000) * this.values.length);
  }

  private place(high: number, low: number, value: number): void {
    let slot = this.home(low);
    while (this.values[slot] !== EMPTY) slot = (slot + 1) % this.values.length;
    this.high[slot] = high;
    this.low[slot] = low;
    this.values[slot] = value;
  }

  private grow(): void {
    const { high, low, values } = this;
    const capacity = values.length === 0 ? this.capacity : Math.ceil(values.length * 1.5);
    this.high = new Uint32Array(capacity);
    this.low = new Uint32Array(capacity);
    this.values = new Float64Array(capacity).fill(EMPTY);
    for (let slot = 0; slot < values.length; slot++) if (values[slot] !== EMPTY) this.place(high[slot]!, low[slot]!, values[slot]!);
  }
}
