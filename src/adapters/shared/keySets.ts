/**
 * Sets of keys a session keeps for as long as it is read (copy keys, entry keys, call ids), held in
 * one flat table instead of a `Set`: a transcript of 157 000 runs (a 1 GB real-shaped file) kept
 * ~31 MB of copy keys and ~24 MB of call ids in Sets, most of it the Sets' own tables, the numbers
 * above 2^31 boxed one by one, and the id strings (bench/, heap snapshot). Here a key is 8 bytes in
 * a Float64Array at most half full: 16–32 bytes a key, whatever it is.
 *
 * Keys are 53-bit hashes (`KeyHash`): only equality matters, and two different ids or messages
 * share a key with odds of ~n²/2^54 (10^-4 at 10^6 keys of one session); at worst a call is then
 * taken for one already seen.
 */

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

/** A set of ids (call ids), kept as their 53-bit keys. */
export class IdSet {
  private readonly keys = new KeySet();

  has(id: string): boolean {
    return this.keys.has(idKey(id));
  }

  add(id: string): void {
    this.keys.add(idKey(id));
  }
}

function idKey(id: string): number {
  const key = new KeyHash();
  key.text(id);
  return key.value();
}

/** A number's bits, to hash a timestamp without formatting it. */
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);

/**
 * A 53-bit hash of a key's parts (two 32-bit FNV-style lanes), each part closed by a separator no
 * text holds. Keys never leave the process: only equality matters. Numbers are hashed by their bits,
 * not their text (formatting a number cost more than the rest of a key: bench, tiny entries).
 */
export class KeyHash {
  private a = 0x811c9dc5 | 0;
  private b = 0x9747b28c | 0;

  text(text: string): void {
    for (let i = 0; i < text.length; i++) this.mix(text.charCodeAt(i));
    this.mix(0x10000);
  }

  /** A part that is absent (distinct from any text). */
  absent(): void {
    this.mix(0x10001);
  }

  /** A finite number, tagged (never equal to a text); -0 and 0 hash alike. */
  number(value: number): void {
    BITS[0] = value + 0;
    this.mix(0x10002);
    this.mix(WORDS[0]!);
    this.mix(WORDS[1]!);
  }

  /** A tag that keeps apart parts of different kinds (e.g. a string timestamp from a number). */
  tag(kind: number): void {
    this.mix(0x10010 + kind);
  }

  value(): number {
    return (this.a >>> 0) * 0x200000 + (this.b >>> 11);
  }

  private mix(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 13;
  }
}
