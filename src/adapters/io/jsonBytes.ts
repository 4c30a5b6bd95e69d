/**
 * Parses a JSON line from its bytes, as latin1 where that is exact: decoding UTF-8 first and parsing
 * the resulting two-byte string cost about three times as much as parsing a latin1 (one-byte) string
 * (bench: 450 vs 130 ms on 67 MB of transcript with non-ASCII text).
 *
 * - An ASCII line parsed as latin1 is exactly the line parsed as UTF-8: its strings are text, and
 *   byte strings too when no escape makes a char above U+007F.
 * - A valid UTF-8 line with no `\u` escape above U+007F parsed as latin1 has every char ≥ U+0080 of
 *   its strings from a raw byte: they are byte strings (core/byteText.ts), `form: "bytes"`. Adapters
 *   turn the strings they read (ids, names) into text with `textOf`, and hand the arguments and
 *   results they pass on to hashing as they are. The strings of the parsed object are `unknown`
 *   members no type can brand (`ByteString`, byteText.ts): the line's `form` travels with it instead.
 * - Anything else (invalid UTF-8, escapes of non-ASCII chars or surrogates) is decoded as UTF-8 and
 *   parsed as text, as before; invalid bytes become U+FFFD with a notice.
 * Whether a line is valid JSON does not depend on the decoding: JSON's structure is ASCII.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { fromBytes, type ByteString, type StringForm } from "../../core/byteText.js";
import { isPlainObject } from "../../core/plainObject.js";
import { parseJsonLine, parseObjectLine, type LineTally, type ObjectLine } from "../adapter.js";
import { TOO_LONG_LINE } from "./lineSource.js";
import { afterBom, decodeLine, latin1Text, tooLongProblem } from "./decoding.js";

/** A line of a JSON-lines format whose lines are objects (as `parseObjectLine`), with the form of its strings. */
export type ObjectBytesLine = Exclude<ObjectLine, { kind: "object" }> | (Extract<ObjectLine, { kind: "object" }> & { readonly form: StringForm });

const BACKSLASH = 0x5c;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * True when the JSON text has an escape `\uXXXX` above U+007F (or a malformed one): a line read as
 * latin1, or a JSON text held in a string of a parsed line. Searches for the two chars `\u` (most
 * lines have none; `\n` and `\"` are common), then counts the backslashes before: after an even
 * number the `\` starts an escape, after an odd one it is itself escaped (`\\u` is a backslash and
 * a `u`). Searching the latin1 string, which the parse needs anyway, is quicker than the bytes.
 * (A regular expression for the `\u`s that could be such an escape was twice as slow on real
 * Codex lines, 26 against 13 ms for 25,000 lines, though faster on lines full of backslashes.)
 * Exported for tests.
 */
export function hasNonAsciiEscape(json: string): boolean {
  const end = json.length;
  for (let i = json.indexOf("\\u"); i !== -1; i = json.indexOf("\\u", i + 2)) {
    let before = 0;
    while (i - 1 - before >= 0 && json.charCodeAt(i - 1 - before) === BACKSLASH) before++;
    if (before % 2 === 1) continue;
    let code = 0;
    for (let k = i + 2; k < i + 6; k++) {
      const digit = k < end ? hexValue(json.charCodeAt(k)) : -1;
      if (digit < 0) return true;
      code = code * 16 + digit;
    }
    if (code >= 0x80) return true;
  }
  return false;
}

/**
 * Blank, bad (with the reason) or an object, like `parseObjectLine` of the decoded line. A line that
 * does not parse is decoded and handed to `parseObjectLine`, so that blank lines (any Unicode
 * whitespace) and the reasons for bad ones are exactly as for text.
 */
export function parseObjectBytes(bytes: Buffer, start: number, end: number, terminated: boolean, tooLong?: number): ObjectBytesLine {
  const from = afterBom(bytes, start, end);
  const latin1 = tooLong === undefined ? latin1Line(bytes, from, end) : undefined;
  if (latin1 !== undefined) {
    const parsed = parseJsonLine(latin1.text, terminated);
    if (parsed.ok && isPlainObject(parsed.value)) return { kind: "object", value: parsed.value, form: latin1.form };
  }
  const { text, problem } = tooLong !== undefined ? { text: TOO_LONG_LINE, problem: tooLongProblem(tooLong, bytes, start, end) } : decodeLine(bytes, start, end);
  const object = parseObjectLine(text, terminated, problem);
  return object.kind === "object" ? { ...object, form: "text" } : object;
}

/**
 * The line as latin1 and the form a parse of it gives its strings, or undefined when it must be
 * decoded as UTF-8. An ASCII line without escapes above U+007F has only ASCII strings, the same in
 * both forms: "bytes" spares hashing its checks for non-ASCII text and lone surrogates.
 */
function latin1Line(bytes: Buffer, start: number, end: number): { readonly text: string; readonly form: StringForm } | undefined {
  const line = bytes.subarray(start, end);
  const ascii = isAscii(line);
  if (!ascii && !isUtf8(line)) return undefined;
  const text = latin1Text(bytes, start, end);
  if (!hasNonAsciiEscape(text)) return { text, form: "bytes" };
  return ascii ? { text, form: "text" } : undefined;
}

/** Chars a JSON text can start with after its white space: `{ [ "`, a digit, `-`, and `t f n` (true, false, null). */
const JSON_START = /^[ \t\n\r]*[{["\-0-9tfn]/;

/**
 * False for a string `JSON.parse` would reject at its first char: freeform tool input (Codex's
 * apply_patch `*** Begin Patch…`) is then neither searched for escapes nor parsed into an exception.
 */
function mayBeJson(json: string): boolean {
  return JSON_START.test(json);
}

/**
 * `JSON.parse` of a JSON text that is itself a string of a parsed line (Codex's JSON-string
 * `arguments` and outputs), in `form`, with the form of the parsed value's strings; undefined when
 * it is not JSON. A byte string parses to byte strings, as a line does, unless an escape in it makes
 * a char above U+007F (`\u00e9`, surrogates): such a char would be text among raw bytes, so the
 * string is decoded and parsed as text. Whether it is JSON does not depend on the form (JSON's
 * structure is ASCII).
 */
export function parseJsonIn(form: StringForm, json: string): { readonly value: unknown; readonly form: StringForm } | undefined {
  if (!mayBeJson(json)) return undefined;
  const exact: StringForm = form === "bytes" && hasNonAsciiEscape(json) ? "text" : form;
  try {
    return { value: JSON.parse(exact === form ? json : fromBytes(json as ByteString)), form: exact };
  } catch {
    return undefined;
  }
}

/**
 * A parsed value with its strings as text: itself in "text" form; else parsed again from its JSON
 * decoded. Exact for its strings: `JSON.stringify` of a value of byte strings is the byte string of
 * the text value's JSON (it escapes no char above U+007F but lone surrogates, which byte strings
 * have none of). For values read once a file (a Codex session_meta): it serializes the whole value.
 */
export function valueAsText<T>(form: StringForm, value: T): T {
  return form === "bytes" ? (JSON.parse(fromBytes(JSON.stringify(value) as ByteString)) as T) : value;
}

/**
 * The object of a parsed line (from its text, or from its bytes), or undefined once a blank line is
 * tallied as ignored and a bad one as skipped; a notice about its bytes is recorded either way.
 */
export function usableObject(parsed: ObjectLine | ObjectBytesLine, tally: LineTally, file: string, line: number): Extract<ObjectLine | ObjectBytesLine, { kind: "object" }> | undefined {
  if (parsed.kind === "blank") return void tally.ignored();
  if (parsed.kind === "bad") return void tally.skipped(file, line, parsed.reason);
  if (parsed.notice !== undefined) tally.note({ file, line, reason: parsed.notice });
  return parsed;
}

/** The form of a parsed object line's strings: text unless it was parsed from its bytes as such. */
export const lineForm = (parsed: ObjectLine | ObjectBytesLine): StringForm => ("form" in parsed ? parsed.form : "text");
