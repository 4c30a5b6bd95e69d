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
 * The source of a pattern matching the UTF-8 of one non-ASCII white space char, in a byte string:
 * U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF. With ASCII tab
 * to CR and space, that is exactly what `\s` matches in a text and what `trim()` removes (both are
 * WhiteSpace and LineTerminator): a text pattern with `\s` reads the same chars in bytes with
 * `(?:[\t-\r ]|NON_ASCII_SPACE_BYTES)`. Never under the `i` flag: it folds \xc2 (Â) with \xe2 (â).
 */
export const NON_ASCII_SPACE_BYTES = String.raw`\xc2\xa0|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80|\xef\xbb\xbf`;
const NON_ASCII_SPACE_AT = new RegExp(NON_ASCII_SPACE_BYTES, "y");

/** Bytes of the non-ASCII white space char that starts at `start`, 0 if none. */
function nonAsciiSpaceFrom(s: string, start: number): number {
  if (start < 0) return 0;
  NON_ASCII_SPACE_AT.lastIndex = start;
  return NON_ASCII_SPACE_AT.test(s) ? NON_ASCII_SPACE_AT.lastIndex - start : 0;
}

/**
 * Bytes of the white space char that starts (forward) or ends (backward) at `i`, 0 if none: the
 * UTF-8 of exactly what `String.prototype.trim` removes. An ASCII char is answered without a pattern
 * (most edges are one).
 */
function spaceAt(s: string, i: number, forward: boolean): number {
  const c = s.charCodeAt(i);
  if (isAsciiSpace(c)) return 1;
  if (c < 0x80) return 0;
  if (forward) return nonAsciiSpaceFrom(s, i);
  // A char of n bytes ending at i starts at i - n + 1 (UTF-8 is prefix-free: one length fits).
  for (let length = 2; length <= 3; length++) if (nonAsciiSpaceFrom(s, i - length + 1) === length) return length;
  return 0;
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
