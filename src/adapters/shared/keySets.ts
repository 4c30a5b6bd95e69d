/**
 * Sets of keys a session keeps for as long as it is read (copy keys, entry keys, call ids), held in
 * one flat table instead of a `Set`: a transcript of 157 000 runs (a 1 GB real-shaped file) kept
 * ~31 MB of copy keys and ~24 MB of call ids in Sets, most of it the Sets' own tables, the numbers
 * above 2^31 boxed one by one, and the id strings (bench/, heap snapshot). Here a key is 8 bytes in
 * a Float64Array at most half full: 16–32 bytes a key, whatever it is.
 *
 * Keys are 53-bit hashes (textHash.ts): only equality matters, and two different ids or messages
 * share a key with odds of ~n²/2^54 (10^-4 at 10^6 keys of one session); at worst a call is then
 * taken for one already seen.
 */
import { hash53 } from "./textHash.js";

/** Marks a free slot: keys are never negative. */
const FREE = -1;
const FIRST_CAPACITY = 64;

/** A set of integers in [0, 2^53), open addressing with linear probing. */
export class KeySet {
  private table = new Float64Array(FIRST_CAPACITY).fill(FREE);
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(key: number): boolean {
    const table = this.table;
    const mask = table.length - 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const held = table[i]!;
      if (held === key) return true;
      if (held === FREE) return false;
    }
  }

  add(key: number): void {
    if ((this.count + 1) * 2 > this.table.length) this.grow();
    const table = this.table;
    const mask = table.length - 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const held = table[i]!;
      if (held === key) return;
      if (held === FREE) {
        table[i] = key;
        this.count++;
        return;
      }
    }
  }

  forEach(visit: (key: number) => void): void {
    for (const key of this.table) if (key !== FREE) visit(key);
  }

  clear(): void {
    this.table = new Float64Array(FIRST_CAPACITY).fill(FREE);
    this.count = 0;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2).fill(FREE);
    this.count = 0;
    for (const key of old) if (key !== FREE) this.add(key);
  }
}

/** The slot a key starts probing at: its low 32 bits, mixed (keys are hashes already, but cheap to spread). */
function slotOf(key: number, mask: number): number {
  return (Math.imul(key >>> 0, 0x9e3779b1) ^ ((key / 0x100000000) >>> 0)) & mask;
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
