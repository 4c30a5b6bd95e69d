/**
 * Fitting text to the terminal: display widths (colour codes take no room, East Asian wide characters
 * two columns), clipping, and word wrapping that never splits a word. Tables are laid out by
 * tableParts.ts on top of these; every human report ends with `fitToWidth`.
 */

/** Used when the width is unknown (a pipe, a file): the classic terminal. */
export const DEFAULT_WIDTH = 80;

/** The only escape sequences a report holds are chalk's colours: input text is sanitized first. */
const SGR = /\u001b\[[0-9;]*m/g;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

export const stripColor = (text: string): string => text.replace(SGR, "");

function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/** Columns the text takes on a terminal. */
export function displayWidth(text: string): number {
  const plain = text.includes("\u001b") ? stripColor(text) : text;
  // Printable ASCII is one column a char: the common case needs no per-char look.
  if (/^[\x20-\x7e]*$/.test(plain)) return plain.length;
  let width = 0;
  for (const char of plain) width += charWidth(char);
  return width;
}

/** The text (colours dropped if it must be cut) in at most `width` columns, a cut marked with `…`. */
export function clipToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const char of stripColor(text)) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
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
