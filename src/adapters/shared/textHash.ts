/**
 * A quick hash of a string, for telling copies of an entry apart from new entries (Claude Code's
 * copy keys, Codex fork items): not a content hash for the detectors (core/hashing.ts).
 */

/** A 53-bit FNV-style hash of a string (two 32-bit lanes). */
export function hash53(value: string): number {
  let a = 0x811c9dc5 | 0;
  let b = 0x01000193 | 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
