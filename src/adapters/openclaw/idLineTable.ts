/**
 * id → line, for millions of entry ids in little memory: an open-addressing table of typed arrays
 * keyed by a 64-bit hash of the id (12 bytes a slot, at most 80% full). A JavaScript Map of string
 * ids costs about 63 bytes an entry, which for a 1 GB transcript of small entries is several hundred
 * MB. Two distinct ids share a 64-bit hash with odds around n²/2^65 (1e-6 for five million ids).
 */

const EMPTY = 0; // lines are 1-based, so 0 marks a free slot
const MAX_LOAD = 0.8;

function hashA(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return finalMix(h);
}

function hashB(text: string): number {
  let h = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 13;
  }
  return finalMix(h ^ 0x27d4eb2f);
}

/** murmur3's fmix32: spreads every input bit over the whole word. */
function finalMix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

export class IdLineTable {
  private keysA: Int32Array;
  private keysB: Int32Array;
  private lines: Int32Array;
  private count = 0;

  constructor(capacity = 1 << 12) {
    this.keysA = new Int32Array(capacity);
    this.keysB = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Maps `id` to `line` (a later entry with the same id replaces the earlier one). */
  set(id: string, line: number): void {
    if ((this.count + 1) / this.lines.length > MAX_LOAD) this.grow();
    this.put(hashA(id), hashB(id), line);
  }

  get(id: string): number | undefined {
    const a = hashA(id);
    const b = hashB(id);
    const mask = this.lines.length - 1;
    for (let slot = a & mask; this.lines[slot] !== EMPTY; slot = (slot + 1) & mask) {
      if (this.keysA[slot] === a && this.keysB[slot] === b) return this.lines[slot];
    }
    return undefined;
  }

  private put(a: number, b: number, line: number): void {
    const mask = this.lines.length - 1;
    let slot = a & mask;
    for (; this.lines[slot] !== EMPTY; slot = (slot + 1) & mask) {
      if (this.keysA[slot] === a && this.keysB[slot] === b) {
        this.lines[slot] = line;
        return;
      }
    }
    this.keysA[slot] = a;
    this.keysB[slot] = b;
    this.lines[slot] = line;
    this.count++;
  }

  private grow(): void {
    const { keysA, keysB, lines } = this;
    const capacity = lines.length * 2;
    this.keysA = new Int32Array(capacity);
    this.keysB = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.count = 0;
    for (let slot = 0; slot < lines.length; slot++) {
      if (lines[slot] !== EMPTY) this.put(keysA[slot]!, keysB[slot]!, lines[slot]!);
    }
  }
}
