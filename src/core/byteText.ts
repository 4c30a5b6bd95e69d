/**
 * Byte strings: UTF-8 bytes held one per char (every char ≤ U+00FF), as `JSON.parse` gives them for
 * a line decoded as latin1. Parsing a line that way is about three times faster than decoding it as
 * UTF-8 first (bench: 130 vs 450 ms for 67 MB of transcript), so adapters leave the arguments and
 * results they hand to hashing in this form, and hashing works on byte strings throughout: the
 * serialization it digests is a byte string whichever form the values came in.
 *
 * Only lines that are valid UTF-8 and have no `\u` escape above U+007F are parsed so (see
 * adapters/jsonBytes.ts): then every char ≥ U+0080 of a parsed string is a raw byte, and the byte
 * string of a text is exactly its UTF-8.
 */

/** Which form the strings of a value are in: JavaScript text, or byte strings. */
export type StringForm = "text" | "bytes";

const NON_ASCII = /[^\x00-\x7f]/;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** The byte string of a (well-formed) text. */
export function toBytes(text: string): string {
  return isAscii(text) ? text : Buffer.from(text, "utf8").toString("latin1");
}

/** The text a byte string holds. */
export function fromBytes(bytes: string): string {
  return isAscii(bytes) ? bytes : Buffer.from(bytes, "latin1").toString("utf8");
}

/** A string in `form` as text (ids and names an adapter reads from a parsed line). */
export function textOf(form: StringForm, value: string): string {
  return form === "bytes" ? fromBytes(value) : value;
}

const isAsciiSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/**
 * Bytes of the whitespace char that starts (forward) or ends (backward) at `i`, 0 if none: the
 * UTF-8 of exactly what `String.prototype.trim` removes — ASCII tab to CR and space, U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF.
 */
function spaceAt(s: string, i: number, forward: boolean): number {
  const c = s.charCodeAt(i);
  if (isAsciiSpace(c)) return 1;
  const start2 = forward ? i : i - 1;
  if (s.charCodeAt(start2) === 0xc2 && s.charCodeAt(start2 + 1) === 0xa0) return 2;
  const start3 = forward ? i : i - 2;
  if (start3 < 0 || start3 + 2 >= s.length) return 0;
  const [b0, b1, b2] = [s.charCodeAt(start3), s.charCodeAt(start3 + 1), s.charCodeAt(start3 + 2)];
  const isSpace =
    (b0 === 0xe1 && b1 === 0x9a && b2 === 0x80) ||
    (b0 === 0xe2 && b1 === 0x80 && ((b2 >= 0x80 && b2 <= 0x8a) || b2 === 0xa8 || b2 === 0xa9 || b2 === 0xaf)) ||
    (b0 === 0xe2 && b1 === 0x81 && b2 === 0x9f) ||
    (b0 === 0xe3 && b1 === 0x80 && b2 === 0x80) ||
    (b0 === 0xef && b1 === 0xbb && b2 === 0xbf);
  return isSpace ? 3 : 0;
}

/** `trim()` for byte strings: `trimBytes(toBytes(t)) === toBytes(t.trim())`. */
export function trimBytes(s: string): string {
  let start = 0;
  let end = s.length;
  for (let n; start < end && (n = spaceAt(s, start, true)) > 0; ) start += n;
  for (let n; end > start && (n = spaceAt(s, end - 1, false)) > 0; ) end -= n;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** `trim()` in either form. */
export function trimIn(form: StringForm, s: string): string {
  return form === "bytes" ? trimBytes(s) : s.trim();
}
