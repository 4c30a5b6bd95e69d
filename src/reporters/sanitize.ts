/**
 * Terminal safety: input text (tool names, run ids, file names, messages) may carry escape sequences
 * that would recolour, move the cursor or rewrite the screen. Everything from the input passes here
 * before it reaches a table, markdown or annotation. JSON outputs keep data as data.
 */

// CSI, OSC (BEL or ST terminated), and other two-byte ESC sequences.
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]?|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls, DEL, and bidirectional overrides that can disguise text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function sanitize(text: string): string {
  if (!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCES, "")
    .replace(/[\t\n\r\v\f]/g, " ")
    .replace(CONTROLS, "");
}

/** Sanitized and cut to a display width, marking the cut. */
export function clip(text: string, width: number): string {
  const clean = sanitize(text);
  return clean.length <= width ? clean : `${clean.slice(0, Math.max(1, width - 1))}…`;
}
