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
 *
 * What the compiler checks, and what it cannot:
 * - A byte string held on its own is a `ByteString`, a branded string (a type only: at run time it is
 *   the plain string). The functions that make byte strings return one (`toBytes`, `trimBytes`,
 *   `stableSerialize`, whose output is bytes whatever the form of its input, and `errorBytes`), and
 *   what needs one takes it: `fromBytes`, `trimBytes`, and a digest or `LongText` called with the
 *   literal form "bytes". Passing a plain text there is a compile error (test/core/byteForm.test.ts
 *   holds `@ts-expect-error` cases that the typecheck fails on if the brand stops biting).
 * - The strings inside a parsed value (`args`, `result`, `error`) are `unknown` members of objects
 *   that `JSON.parse` made: no type can say which form they are in. The value travels with its
 *   `StringForm` instead (an event's `form`, read once by `formOf` in events.ts; an adapter line's
 *   `form`, set by io/jsonBytes.ts), and every function that reads its strings takes that form as a
 *   required argument: no default can silently call bytes text. Where a string read from such a value
 *   meets a `ByteString` parameter, the code asserts it (`as ByteString`) right after testing the
 *   form ("bytes") or that the string is ASCII (an ASCII text is its own byte string); those
 *   assertions are the unchecked step (`grep -rn "as ByteString" src`).
 * - A digest called with a form that is a variable (`StringForm`) accepts any string: the pairing of
 *   string and form is then checked by the code that decided the form, not by the compiler.
 */

/** Which form the strings of a value are in: JavaScript text, or byte strings. */
export type StringForm = "text" | "bytes";

declare const byteStringBrand: unique symbol;
/** A byte string (see above); zero-cost: the brand exists only for the compiler. */
export type ByteString = string & { readonly [byteStringBrand]: true };

/** The type of a string in `form`: a `ByteString` for "bytes", any string for text (or an undecided form). */
export type InForm<F extends StringForm> = F extends "bytes" ? ByteString : string;

const NON_ASCII = /[^\x00-\x7f]/;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** The byte string of a (well-formed) text. */
export function toBytes(text: string): ByteString {
  return (isAscii(text) ? text : Buffer.from(text, "utf8").toString("latin1")) as ByteString;
}

/** The text a byte string holds. */
export function fromBytes(bytes: ByteString): string {
  return isAscii(bytes) ? bytes : Buffer.from(bytes, "latin1").toString("utf8");
}

/** A string in `form` as text (ids and names an adapter reads from a parsed line). */
export function textOf(form: StringForm, value: string): string {
  return form === "bytes" ? fromBytes(value as ByteString) : value;
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
export function trimBytes(s: ByteString): ByteString {
  let start = 0;
  let end = s.length;
  for (let n; start < end && (n = spaceAt(s, start, true)) > 0; ) start += n;
  for (let n; end > start && (n = spaceAt(s, end - 1, false)) > 0; ) end -= n;
  return start === 0 && end === s.length ? s : (s.slice(start, end) as ByteString);
}

/** `trim()` in either form. */
export function trimIn(form: StringForm, s: string): string {
  return form === "bytes" ? trimBytes(s as ByteString) : s.trim();
}
