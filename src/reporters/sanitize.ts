/**
 * Terminal safety: input text (tool names, run ids, file names, messages) may carry escape sequences
 * that would recolour, move the cursor, rewrite the screen, plant hyperlinks (OSC 8) or write the
 * clipboard (OSC 52). Everything from the input passes here before it reaches a table, markdown or
 * annotation. JSON outputs keep data as data (see jsonText.ts).
 */

const ESCAPE_SEQUENCES = new RegExp(
  [
    // CSI, 7-bit (ESC [) and 8-bit (U+009B): parameters, intermediates, final byte.
    "(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]",
    // OSC, DCS, SOS, PM, APC, 7- or 8-bit: everything up to BEL or ST (or the next ESC if unterminated).
    "(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?",
    // Any other escape: intermediates and a final byte (ESC ( B, ESC c, ESC 7 …), or a lone ESC.
    "\\u001b[ -/]*[0-~]?",
  ].join("|"),
  "g",
);
// Line breaks and tabs become spaces (a `\r` must not return to the start of the line and overwrite it).
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// C0 and C1 controls, DEL, and bidirectional controls that can disguise text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NEEDS_WORK = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function sanitize(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCES, "").replace(BREAKS, " ").replace(CONTROLS, "");
}

/** Ids (runs, sessions, agents) are cut to this width: a multi-megabyte run id would fill the screen. */
export const ID_WIDTH = 120;

/**
 * Sanitized and cut to a display width, marking the cut. The raw text is cut first (generously) so
 * that a multi-megabyte tool name costs no more than a short one; a sequence cut in half loses its
 * ESC either way.
 */
export function clip(text: string, width: number): string {
  const clean = sanitize(text.length > width * 8 + 256 ? text.slice(0, width * 8 + 256) : text);
  return clean.length <= width ? clean : `${clean.slice(0, Math.max(1, width - 1))}…`;
}
