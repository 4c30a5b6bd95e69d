/**
 * Lines from bytes to text, one at a time (invalid UTF-8 becomes U+FFFD, with a problem noted), so
 * that a huge file or line is never decoded whole twice; a BOM at the start of a line (files
 * concatenated with `cat` keep theirs) is passed over.
 */
import { LINE_HEAD_BYTES, TOO_LONG_LINE, type LineHandler, type LineProblem, type RawLineHandler } from "./lineSource.js";

/** True when decoding replaced bytes that were not UTF-8 (rather than a real U+FFFD in the input). */
function hasInvalidUtf8(text: string, buf: Buffer, start: number, end: number): boolean {
  if (!text.includes("\uFFFD")) return false;
  let decoded = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) decoded++;
  let literal = 0;
  for (let i = buf.indexOf("\uFFFD", start); i !== -1 && i < end; i = buf.indexOf("\uFFFD", i + 3)) literal++;
  return decoded !== literal;
}

/**
 * Decodes each raw line for a text handler: UTF-8 (invalid bytes become U+FFFD and are flagged), a
 * BOM at the start of the line removed, over-long lines handed over as TOO_LONG_LINE.
 */
export function decodingLines(handler: LineHandler): RawLineHandler {
  return (buf, start, end, lineNo, terminated, tooLong) => {
    if (tooLong !== undefined) return handler(TOO_LONG_LINE, lineNo, terminated, tooLongProblem(tooLong, buf, start, end));
    const { text, problem } = decodeLine(buf, start, end);
    return handler(text, lineNo, terminated, problem);
  };
}

/** The problem of a line over the limit: its length, and how it begins (`bytes[start, end)`: its first bytes). */
export function tooLongProblem(tooLong: number, bytes: Buffer, start: number, end: number): LineProblem {
  const from = afterBom(bytes, start, end);
  // A character cut at the end of the head decodes to U+FFFD: dropped.
  const head = bytes.toString("utf8", from, Math.min(end, from + LINE_HEAD_BYTES)).replace(/\uFFFD+$/, "");
  return { tooLong, head };
}

/** Where a line's content starts: after a UTF-8 BOM (EF BB BF) if it has one. */
export function afterBom(bytes: Buffer, start: number, end: number): number {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? start + 3 : start;
}

/** `bytes.toString("latin1", from, to)` without its argument checks, which cost as much as the copy on small lines. */
export function latin1Text(bytes: Buffer, from: number, to: number): string {
  return (bytes as unknown as { latin1Slice(from: number, to: number): string }).latin1Slice(from, to);
}

/** One line's text: UTF-8 (invalid bytes flagged), a BOM at its start removed. */
export function decodeLine(buf: Buffer, start: number, end: number): { text: string; problem?: LineProblem } {
  let text = buf.toString("utf8", start, end);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
  return hasInvalidUtf8(text, buf, start, end) ? { text, problem: { invalidUtf8: true } } : { text };
}

/**
 * Splits pushed chunks into lines on raw bytes. Chunks may be reused by the caller after `push`
 * returns: every line is handed over before that, and an unfinished line is copied.
 */
