/**
 * Deterministic serialization of JSON values for hashing: object keys sorted (UTF-16 order, like the
 * runtime's `Object.keys().toSorted()`), `undefined` kept distinct from `null`, lone UTF-16 surrogates
 * dropped from strings and keys. Only equality of the output matters, never its exact shape.
 *
 * The fast path recurses; input nested deeper than MAX_RECURSION (50 000-deep arguments exist in the
 * wild) is redone by an explicit-stack walk so that no input can overflow the call stack.
 */
const MAX_RECURSION = 800;
const UNDEFINED_TOKEN = "~";

class TooDeep extends Error {}

/** Drops lone surrogates (the runtime never sees them in what it hashes). */
export function wellFormed(text: string): string {
  if (text.isWellFormed()) return text;
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

function scalar(value: unknown): string {
  if (value === undefined) return UNDEFINED_TOKEN;
  if (typeof value === "string") return JSON.stringify(wellFormed(value));
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (typeof value === "bigint") return `${value}n`;
  // boolean, null, and anything exotic (functions never occur in parsed input)
  return String(value);
}

/** Decides, per object, which keys are left out of the serialization (volatile ids in send results). */
export type KeyFilter = (obj: Record<string, unknown>, key: string) => boolean;

function sortedKeys(obj: Record<string, unknown>, omit: KeyFilter | undefined): Array<[string, string]> {
  // [cleaned key, original key]
  let names = Object.keys(obj);
  if (omit) names = names.filter((k) => !omit(obj, k));
  const keys = names.map((k): [string, string] => [wellFormed(k), k]);
  keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keys;
}

function recursive(value: unknown, depth: number, omit: KeyFilter | undefined): string {
  if (value === null || typeof value !== "object") return scalar(value);
  if (depth > MAX_RECURSION) throw new TooDeep();
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + recursive(value[i], depth + 1, omit);
    return out + "]";
  }
  const obj = value as Record<string, unknown>;
  let out = "{";
  let first = true;
  for (const [clean, key] of sortedKeys(obj, omit)) {
    out += (first ? "" : ",") + JSON.stringify(clean) + ":" + recursive(obj[key], depth + 1, omit);
    first = false;
  }
  return out + "}";
}

/** Explicit-stack version of `recursive`, producing the identical string. */
function iterative(root: unknown, omit: KeyFilter | undefined): string {
  const parts: string[] = [];
  // One frame per open array or object: the entries still to write (keys for objects).
  type Frame = { readonly array: readonly unknown[] | undefined; readonly obj: Record<string, unknown>; readonly keys: Array<[string, string]>; next: number };
  const stack: Frame[] = [];
  const open = (value: unknown): void => {
    if (value === null || typeof value !== "object") {
      parts.push(scalar(value));
    } else if (Array.isArray(value)) {
      parts.push("[");
      stack.push({ array: value, obj: {}, keys: [], next: 0 });
    } else {
      const obj = value as Record<string, unknown>;
      parts.push("{");
      stack.push({ array: undefined, obj, keys: sortedKeys(obj, omit), next: 0 });
    }
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const i = frame.next++;
    if (frame.array !== undefined) {
      if (i >= frame.array.length) {
        parts.push("]");
        stack.pop();
        continue;
      }
      if (i > 0) parts.push(",");
      open(frame.array[i]);
    } else {
      if (i >= frame.keys.length) {
        parts.push("}");
        stack.pop();
        continue;
      }
      const [clean, key] = frame.keys[i]!;
      parts.push((i > 0 ? "," : "") + JSON.stringify(clean) + ":");
      open(frame.obj[key]);
    }
  }
  return parts.join("");
}

export function stableSerialize(value: unknown, omit?: KeyFilter): string {
  if (value === null || typeof value !== "object") return scalar(value);
  try {
    return recursive(value, 0, omit);
  } catch (error) {
    if (error instanceof TooDeep || error instanceof RangeError) return iterative(value, omit);
    throw error;
  }
}
