/**
 * Quick hashes of strings and keys, for telling copies of an entry apart from new entries (copy and
 * entry keys of session transcripts, Claude Code's copy keys, Codex fork items, call ids) and for
 * the session scan's checksum: not a content hash for the detectors (core/hashing.ts). Only
 * equality matters, within one process: no value is printed or stored.
 */

/** A 53-bit hash of a string (`KeyHash` of one part). */
export function hash53(value: string): number {
  const key = new KeyHash();
  key.text(value);
  return key.value();
}

/** A number's bits, to hash a timestamp without formatting it. */
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);

/**
 * A hash of a key's parts (two 32-bit FNV-style lanes), each part closed by a separator no text
 * holds: `value()` gives 53 bits of it, `equals` compares all 64 (a checksum). Numbers are hashed by
 * their bits, not their text (formatting a number cost more than the rest of a key: bench, tiny
 * entries).
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

  /** A hash that goes on from this one's state. */
  copy(): KeyHash {
    const copy = new KeyHash();
    copy.a = this.a;
    copy.b = this.b;
    return copy;
  }

  equals(other: KeyHash): boolean {
    return this.a === other.a && this.b === other.b;
  }

  private mix(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 13;
  }
}
