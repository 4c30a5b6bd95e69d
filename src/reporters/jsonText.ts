/**
 * JSON text for machine outputs (json, ndjson, `looplens events`), safe in two ways:
 * - depth: `JSON.stringify` recurses and throws a RangeError on deeply nested input (50 000-deep
 *   arguments exist); such values are written again by an explicit-stack walk.
 * - terminals: `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls (U+009B is a CSI
 *   to some terminals) and bidi controls raw. They are escaped as `\uXXXX`, which is the same data
 *   to any JSON reader: json/ndjson keep data as data, yet a terminal sees only printable text.
 */

const TERMINAL_ACTIVE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// The same class without /g: test() with /g is several times slower on multi-megabyte text.
const HAS_TERMINAL_ACTIVE = new RegExp(TERMINAL_ACTIVE.source);

function escapeForTerminal(json: string): string {
  if (!HAS_TERMINAL_ACTIVE.test(json)) return json;
  return json.replace(TERMINAL_ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const MAX_INDENT_DEPTH = 100;

/** Values `JSON.stringify` leaves out of objects (and writes as null in arrays). */
const omitted = (value: unknown) => value === undefined || typeof value === "function" || typeof value === "symbol";

/**
 * `JSON.stringify(value, null, indent)` for parsed-JSON values, without recursion (exported for
 * tests). The stack is parallel arrays (containers, their keys, the next entry, their depth) so that
 * a node costs no allocation beyond its key list.
 */
export function iterativeStringify(root: unknown, indent: string): string {
  const out: string[] = [];
  const containers: object[] = [];
  const keyLists: Array<string[] | undefined> = []; // undefined for arrays
  const nexts: number[] = [];
  // Indentation is quadratic in depth; past MAX_INDENT_DEPTH the text goes on compact (still valid JSON).
  const newline = (depth: number) => (indent && depth <= MAX_INDENT_DEPTH ? `\n${indent.repeat(depth)}` : "");
  const open = (value: unknown): void => {
    if (value === null || typeof value !== "object") {
      out.push(omitted(value) ? "null" : JSON.stringify(value));
      return;
    }
    const isArray = Array.isArray(value);
    out.push(isArray ? "[" : "{");
    containers.push(value);
    keyLists.push(isArray ? undefined : Object.keys(value).filter((k) => !omitted((value as Record<string, unknown>)[k])));
    nexts.push(0);
  };
  open(root);
  while (containers.length > 0) {
    const depth = containers.length - 1;
    const container = containers[depth]!;
    const keys = keyLists[depth];
    const i = nexts[depth]!++;
    if (i >= (keys === undefined ? (container as unknown[]).length : keys.length)) {
      out.push((i > 0 ? newline(depth) : "") + (keys === undefined ? "]" : "}"));
      containers.pop();
      keyLists.pop();
      nexts.pop();
      continue;
    }
    const separator = (i > 0 ? "," : "") + newline(depth + 1);
    if (keys === undefined) {
      out.push(separator);
      open((container as unknown[])[i]);
    } else {
      const key = keys[i]!;
      out.push(separator + JSON.stringify(key) + (indent && depth < MAX_INDENT_DEPTH ? ": " : ":"));
      open((container as Record<string, unknown>)[key]);
    }
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
