/**
 * Fitting text to the terminal: display widths, clipping, and word wrapping that never splits a
 * word. Tables are laid out by tableParts.ts on top of these; every human report ends with
 * `fitToWidth`.
 *
 * Widths are `string-width`'s (grapheme clusters: an emoji, a skin-toned or ZWJ sequence is one
 * cluster of two columns, East Asian wide characters two, marks and format characters none), not a
 * hand-kept table of ranges. Clipping walks grapheme clusters, so a cut never splits a sequence.
 * `wrap-ansi` and `cli-truncate` were weighed and left out: wrapping here indents continuation
 * lines differently from the first, clips an over-long word (or keeps it whole on its own line)
 * instead of breaking it, and a clipped cell drops its colours; both libraries do otherwise, and
 * the reports' bytes would change.
 */
import stringWidth from "string-width";

/** Used when the width is unknown (a pipe, a file): the classic terminal. */
export const DEFAULT_WIDTH = 80;

/** The only escape sequences a report holds are chalk's colours: input text is sanitized first. */
const SGR = /\u001b\[[0-9;]*m/g;
/**
 * Text every code point of which is one column and a grapheme cluster of its own: printable ASCII,
 * Latin-1 (less the soft hyphen, which takes none) and the dashes, quotes, bullets and ellipsis of
 * U+2010–U+2027 that the reports write ("11–20", "—", "·", "…"). test/reporters/textFit.test.ts
 * checks each of them against string-width.
 */
const NARROW = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u00ff\u2010-\u2027]*$/;

export const stripColor = (text: string): string => text.replace(SGR, "");

/**
 * The width of text without colour codes when it is narrow text (one column a char, what
 * string-width gives too), else undefined. Nearly every line and cell of a report is: string-width
 * segments any non-ASCII text into grapheme clusters, which on the lines of a big table report
 * (an en dash in every call range) cost 25 times the hand-kept table it replaced; this test costs
 * a tenth of that table.
 */
export function narrowWidth(plain: string): number | undefined {
  return NARROW.test(plain) ? plain.length : undefined;
}

/** Columns the text takes on a terminal. */
export function displayWidth(text: string): number {
  const plain = text.includes("\u001b") ? stripColor(text) : text;
  return narrowWidth(plain) ?? stringWidth(plain);
}

// Made on first use: a segmenter's first creation loads ICU's break data (~25 ms of a start-up that may print a kept output and render nothing).
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter()).segment(text);

/** The text (colours dropped if it must be cut) in at most `width` columns, a cut marked with `…`. */
export function clipToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const plain = stripColor(text);
  if (narrowWidth(plain) !== undefined) return `${plain.slice(0, Math.max(0, width - 1))}…`;
  let out = "";
  let used = 0;
  for (const { segment } of graphemes(plain)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns. */
export const padToWidth = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - displayWidth(text)));

/**
 * Words of `text` in lines of at most `width` columns: the first line after `first`, the others after
 * `rest` (both already counted in the width). A word longer than a whole line is clipped, never
 * split; with `keepLong` (prose naming paths: cut, a path names nothing) it gets a line of its own,
 * whole. Colour codes travel with their words (a terminal keeps the colour across the line break).
 */
export function wrapWords(text: string, width: number, first = "", rest = first, keepLong = false): string[] {
  const words = text.split(" ").filter((word) => word !== "");
  const lines: string[] = [];
  let line = first;
  let lineWidth = displayWidth(first);
  let empty = true;
  for (const word of words) {
    const room = width - displayWidth(lines.length === 0 && empty ? first : rest);
    const fitted = !keepLong && displayWidth(word) > room ? clipToWidth(word, Math.max(1, room)) : word;
    const w = displayWidth(fitted);
    if (!empty && lineWidth + 1 + w > width) {
      lines.push(line);
      line = rest;
      lineWidth = displayWidth(rest);
      empty = true;
    }
    line += (empty ? "" : " ") + fitted;
    lineWidth += (empty ? 0 : 1) + w;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * Every line of `text` in at most `width` columns: longer lines are wrapped at spaces, continuing
 * two columns further in than the line's own indent. Lines that fit are left as they are.
 */
export function fitToWidth(text: string, width: number): string {
  return text
    .split("\n")
    .flatMap((line) => {
      if (displayWidth(line) <= width) return [line];
      // Colour codes before the indent stay with the text.
      const [, codes, indent, body] = /^((?:\u001b\[[0-9;]*m)*)( *)(.*)$/s.exec(line)!;
      return wrapWords(codes! + body!, width, indent, `${indent}  `, true);
    })
    .join("\n");
}

/**
 * The text in at most `width` columns with its middle left out (`…`): what a long path keeps is its
 * start and, longer, its end (the file's name). For narrow text; wide characters count as two.
 */
export function elideMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return "…";
  const room = width - 1;
  const tailRoom = Math.ceil((room * 2) / 3);
  // Narrow text is one column and one cluster a char: the loops below, as slices (a table report
  // elides a path in every run's header; segmenting each and measuring its clusters one by one was
  // ~0.1 s of a 1,600-session report in a loaded profile).
  if (narrowWidth(text) !== undefined) return `${text.slice(0, room - tailRoom)}…${text.slice(text.length - tailRoom)}`;
  const chars = [...graphemes(text)].map(({ segment }) => segment);
  let tail = "";
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = stringWidth(chars[i]!);
    if (used + w > tailRoom) break;
    tail = chars[i]! + tail;
    used += w;
  }
  let head = "";
  for (const char of chars) {
    const w = stringWidth(char);
    if (used + w > room) break;
    head += char;
    used += w;
  }
  return `${head}…${tail}`;
}
