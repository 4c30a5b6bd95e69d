/**
 * JSON text for machine outputs (json, ndjson, `looplens events`), safe in two ways:
 * - depth: `JSON.stringify` recurses and throws a RangeError on deeply nested input (50 000-deep
 *   arguments exist); such values are written again by an explicit-stack walk.
 * - terminals: `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls (U+009B is a CSI
 *   to some terminals) and bidi controls raw. They are escaped as `\uXXXX`, which is the same data
 *   to any JSON reader: json/ndjson keep data as data, yet a terminal sees only printable text.
 */

const TERMINAL_ACTIVE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeForTerminal(json: string): string {
  TERMINAL_ACTIVE.lastIndex = 0;
  if (!TERMINAL_ACTIVE.test(json)) return json;
  return json.replace(TERMINAL_ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const MAX_INDENT_DEPTH = 100;

/** Values `JSON.stringify` leaves out of objects (and writes as null in arrays). */
const omitted = (value: unknown) => value === undefined || typeof value === "function" || typeof value === "symbol";

/** `JSON.stringify(value, null, indent)` for parsed-JSON values, without recursion (exported for tests). */
export function iterativeStringify(root: unknown, indent: string): string {
  const out: string[] = [];
  // A frame writes its entries one at a time: [key or null for arrays, value].
  type Frame = { entries: Array<[string | null, unknown]>; next: number; close: string; depth: number; wrote: boolean };
  const stack: Frame[] = [];
  // Indentation is quadratic in depth; past MAX_INDENT_DEPTH the text goes on compact (still valid JSON).
  const newline = (depth: number) => (indent && depth <= MAX_INDENT_DEPTH ? `\n${indent.repeat(depth)}` : "");
  const open = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== "object") {
      out.push(omitted(value) ? "null" : JSON.stringify(value));
      return;
    }
    const isArray = Array.isArray(value);
    const entries: Frame["entries"] = isArray
      ? (value as unknown[]).map((v): [null, unknown] => [null, v])
      : Object.entries(value).filter(([, v]) => !omitted(v));
    out.push(isArray ? "[" : "{");
    stack.push({ entries, next: 0, close: isArray ? "]" : "}", depth, wrote: false });
  };
  open(root, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.entries.length) {
      out.push(frame.wrote ? newline(frame.depth) + frame.close : frame.close);
      stack.pop();
      continue;
    }
    const [key, value] = frame.entries[frame.next++]!;
    const separator = indent && frame.depth < MAX_INDENT_DEPTH ? ": " : ":";
    out.push((frame.wrote ? "," : "") + newline(frame.depth + 1) + (key === null ? "" : JSON.stringify(key) + separator));
    frame.wrote = true;
    open(value, frame.depth + 1);
  }
  return out.join("");
}

/** `JSON.stringify(value, null, indent)` that neither overflows the stack nor emits terminal controls. */
export function jsonText(value: unknown, indent = ""): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    text = iterativeStringify(value, indent);
  }
  return escapeForTerminal(text ?? "null");
}
