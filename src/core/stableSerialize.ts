/**
 * Deterministic serialization of JSON values for hashing: object keys sorted, `undefined` kept
 * distinct from `null`, lone UTF-16 surrogates dropped from strings and keys. Only equality of the
 * output matters, never its exact shape.
 *
 * The output is a byte string (see byteText.ts) whichever form the value's strings are in (`form`):
 * text strings are written as their UTF-8, so a value parsed from a latin1-decoded line and the same
 * value parsed as text serialize identically. Keys are sorted by their bytes (code point order).
 *
 * Hashing passes `longText`: a string longer than LONG_TEXT bytes is then written as `#` and its own
 * digest instead of JSON-quoted. Escaping and re-concatenating multi-kilobyte tool outputs was the
 * largest cost of analyze (bench: hashing 160 → 60 ms per 30 MB of events); equal strings still
 * serialize equally and a digest can never be mistaken for a quoted string.
 *
 * The fast path recurses; input nested deeper than MAX_RECURSION (50 000-deep arguments exist in the
 * wild) is redone by an explicit-stack walk so that no input can overflow the call stack.
 */
import { isAscii, toBytes, type ByteString, type InForm, type StringForm } from "./byteText.js";

const MAX_RECURSION = 800;
const UNDEFINED_TOKEN = "~";
export const LONG_TEXT = 256;

/** Digest of a long string (well-formed text, or a `ByteString` under "bytes"), for `stableSerialize`'s `longText`. */
export type LongText = <F extends StringForm>(text: InForm<F>, form: F) => string;

class TooDeep extends Error {}

/** Drops lone surrogates (the runtime never sees them in what it hashes). */
export function wellFormed(text: string): string {
  if (text.isWellFormed()) return text;
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

/**
 * How a serialization treats strings beyond the default (the newest OpenClaw generation's stable
 * stringify, generations.md §3): a normaliser applied to every string value and key before it is
 * encoded, and lone surrogates kept (JSON-escaped) instead of dropped. Absent: the default rules.
 */
export interface StringPolicy {
  readonly keepLoneSurrogates: boolean;
  /**
   * Required, if only as `undefined`: every policy then has the same two keys in the same order, so
   * one hidden class. A policy without it had another, and the optimised serializer, compiled for the
   * first one it met, was thrown away on the other ("wrong map" deoptimisation) and compiled again.
   */
  readonly normalise: ((text: string) => string) | undefined;
}

/** A string as serialized under a policy: normalised first; a lone surrogate kept as its JSON escape. */
function policyToken(raw: string, form: StringForm, longText: LongText | undefined, policy: StringPolicy): string {
  const value = policy.normalise ? policy.normalise(raw) : raw;
  if (form === "bytes" || !policy.keepLoneSurrogates || value.isWellFormed()) return stringToken(value, form, longText);
  // JSON.stringify escapes lone surrogates (\udxxx) and nothing else non-ASCII: the escaped text is
  // well-formed. `!` marks the digest of such a string so it never equals a `#` digest of its escape.
  const escaped = toBytes(JSON.stringify(value));
  return longText !== undefined && escaped.length > LONG_TEXT ? `!${JSON.stringify(longText(escaped, "bytes"))}` : escaped;
}

/** A string as serialized: quoted bytes, or `#` and the digest of a long one. */
function stringToken(value: string, form: StringForm, longText: LongText | undefined): string {
  // A text is never shorter in UTF-8 bytes than in chars: one that long needs no encoding to tell.
  if (form === "bytes" || isAscii(value)) {
    // A string of a "bytes" value, or an ASCII text (its own byte string).
    return longText !== undefined && value.length > LONG_TEXT ? `#${JSON.stringify(longText(value as ByteString, "bytes"))}` : JSON.stringify(value);
  }
  const clean = wellFormed(value);
  if (longText !== undefined && clean.length > LONG_TEXT) return `#${JSON.stringify(longText(clean, "text"))}`;
  const bytes = toBytes(clean);
  return longText !== undefined && bytes.length > LONG_TEXT ? `#${JSON.stringify(longText(clean, "text"))}` : JSON.stringify(bytes);
}

function scalar(value: unknown, form: StringForm, longText: LongText | undefined, policy?: StringPolicy): string {
  if (value === undefined) return UNDEFINED_TOKEN;
  if (typeof value === "string") return policy ? policyToken(value, form, longText, policy) : stringToken(value, form, longText);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (typeof value === "bigint") return `${value}n`;
  // boolean, null, and anything exotic (functions never occur in parsed input)
  return String(value);
}

/** Decides, per object, which keys are left out of the serialization (volatile ids in send results). */
export type KeyFilter = (obj: Record<string, unknown>, key: string) => boolean;

/** An object's keys in serialization order, and each as serialized (a byte string). */
interface SortedKeys {
  readonly keys: readonly string[];
  /** The same array as `keys` when every key serializes as itself (almost always). */
  readonly serialized: readonly string[];
  /** Under a string policy `serialized` holds whole key tokens (already quoted). */
  readonly quoted?: true;
}

function sortedKeys(obj: Record<string, unknown>, omit: KeyFilter | undefined, form: StringForm, policy?: StringPolicy): SortedKeys {
  let names = Object.keys(obj);
  if (omit) names = names.filter((k) => !omit(obj, k));
  if (policy) return policyKeys(obj, names, form, policy);
  // Keys are almost always ASCII (or already bytes); then the default sort is the byte order.
  if (form === "bytes" || names.every(isAscii)) {
    sortInPlace(names);
    return { keys: names, serialized: names };
  }
  const pairs = names.map((k): [string, string] => [toBytes(wellFormed(k)), k]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { keys: pairs.map((pair) => pair[1]), serialized: pairs.map((pair) => pair[0]) };
}

/**
 * `names.sort()` (code-unit order), skipped when the keys are in order already: most objects have one
 * key or were written sorted, and a sort allocates its work array even then (~65 MB of garbage on a
 * 165 MB folder).
 */
function sortInPlace(names: string[]): void {
  for (let i = 1; i < names.length; i++) {
    if (names[i - 1]! > names[i]!) {
      names.sort();
      return;
    }
  }
}

/** An ASCII key without `<` (so without a nonce marker): a policy leaves it as it is. One loop, no regex: it runs for every key. */
function isPlainKey(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x80 || c === 0x3c) return false;
  }
  return true;
}

/**
 * Keys under a policy: ordered by their normalised form and written as it (the newest generation
 * passes keys through the normaliser too). `serialized` holds each key's whole token, quotes included.
 */
function policyKeys(obj: Record<string, unknown>, names: string[], form: StringForm, policy: StringPolicy): SortedKeys {
  // Almost every key is plain ASCII without a marker: the policy leaves it as it is, and the default
  // order (bytes) is the order of the tokens, so the default path serves (bench: newest profile).
  if (names.every(isPlainKey)) {
    sortInPlace(names);
    return { keys: names, serialized: names };
  }
  const pairs = names.map((k): [string, string] => [policyToken(k, form, undefined, policy), k]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { keys: pairs.map((pair) => pair[1]), serialized: pairs.map((pair) => pair[0]), quoted: true };
}

/** A key as written: its serialized form, already quoted under a policy. */
const keyToken = (sorted: SortedKeys, i: number) => (sorted.quoted ? sorted.serialized[i]! : JSON.stringify(sorted.serialized[i]));

function recursive(value: unknown, depth: number, omit: KeyFilter | undefined, form: StringForm, longText: LongText | undefined, policy?: StringPolicy): string {
  if (value === null || typeof value !== "object") return scalar(value, form, longText, policy);
  if (depth > MAX_RECURSION) throw new TooDeep();
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + recursive(value[i], depth + 1, omit, form, longText, policy);
    return out + "]";
  }
  const obj = value as Record<string, unknown>;
  const sorted = sortedKeys(obj, omit, form, policy);
  const keys = sorted.keys;
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    out += (i ? "," : "") + keyToken(sorted, i) + ":" + recursive(obj[keys[i]!], depth + 1, omit, form, longText, policy);
  }
  return out + "}";
}

/**
 * Explicit-stack version of `recursive`, producing the identical string. The stack is three parallel
 * arrays (open containers, their sorted keys, the next entry) so that a node costs no allocation
 * beyond its key list: 50 000-deep values are common enough to be worth it.
 */
function iterative(root: unknown, omit: KeyFilter | undefined, form: StringForm, longText: LongText | undefined, policy?: StringPolicy): string {
  const parts: string[] = [];
  const containers: object[] = [];
  const keyLists: Array<SortedKeys | undefined> = []; // undefined for arrays
  const nexts: number[] = [];
  const open = (value: unknown): void => {
    if (value === null || typeof value !== "object") {
      parts.push(scalar(value, form, longText, policy));
      return;
    }
    const isArray = Array.isArray(value);
    parts.push(isArray ? "[" : "{");
    containers.push(value);
    keyLists.push(isArray ? undefined : sortedKeys(value as Record<string, unknown>, omit, form, policy));
    nexts.push(0);
  };
  open(root);
  while (containers.length > 0) {
    const top = containers.length - 1;
    const container = containers[top]!;
    const keys = keyLists[top];
    const i = nexts[top]!++;
    const size = keys === undefined ? (container as unknown[]).length : keys.keys.length;
    if (i >= size) {
      parts.push(keys === undefined ? "]" : "}");
      containers.pop();
      keyLists.pop();
      nexts.pop();
    } else if (keys === undefined) {
      if (i > 0) parts.push(",");
      open((container as unknown[])[i]);
    } else {
      parts.push((i > 0 ? "," : "") + keyToken(keys, i) + ":");
      open((container as Record<string, unknown>)[keys.keys[i]!]);
    }
  }
  return parts.join("");
}

/**
 * The serialization of `value`, whose strings are in `form`. A byte string: every token is ASCII
 * (JSON punctuation, numbers, digests) or a string already turned into bytes.
 */
export function stableSerialize(value: unknown, omit: KeyFilter | undefined, longText: LongText | undefined, form: StringForm, policy?: StringPolicy): ByteString {
  if (value === null || typeof value !== "object") return scalar(value, form, longText, policy) as ByteString;
  try {
    return recursive(value, 0, omit, form, longText, policy) as ByteString;
  } catch (error) {
    if (error instanceof TooDeep || error instanceof RangeError) return iterative(value, omit, form, longText, policy) as ByteString;
    throw error;
  }
}
