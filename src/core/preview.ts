/**
 * Previews: calls and outcomes in a few words, one line, every piece bounded (a multi-megabyte
 * argument or result costs no more than a short one). Two readers, one implementation:
 *
 * - a finding's pattern (`findingPreview`): the repeated call's most telling arguments and what it
 *   returned. Made only when a finding is made, never per call: replay keeps references to the
 *   newest call and outcome of each recent pattern (recentPatterns.ts);
 * - each call of an explained window (`callArgsPreview`, `callOutcomePreview`, for `looplens
 *   explain`): every argument in order, since the calls of a window differ by them, and the
 *   outcome's whole text.
 *
 * Both clip with `oneLine` and decode byte strings the same way. The text is not sanitized: it is
 * untrusted, and reporters strip control characters (or escape) when they print.
 */
import { fromBytes, textOf, type ByteString, type StringForm } from "./byteText.js";
import { formOf, type ToolCallEvent, type ToolResultEvent } from "./events.js";
import { contentText } from "./hashing.js";
import { isPlainObject, own } from "./plainObject.js";

export interface FindingPreview {
  /** `commandId=build-42`: the few most telling scalar arguments, in a stable order, clipped; "" for none. */
  readonly args: string;
  /** The newest outcome of the pattern (its text, status or compact JSON), clipped; null when unknown. */
  readonly result: string | null;
  /** That outcome was an error (`result` is then its message). */
  readonly error: boolean;
}

/** What replay keeps of a call and of an outcome: references to the events, never copies. */
export type RawCall = Pick<ToolCallEvent, "args" | "form">;
export type RawOutcome = Pick<ToolResultEvent, "result" | "error" | "form">;

/** Arguments named like these say most about a call; they come first, in this order. */
const TELLING_KEYS = ["command", "commandId", "cmd", "action", "path", "file_path", "filePath", "file", "url", "query", "pattern", "name", "id", "sessionId"];
const MAX_KEYS = 3;
const KEY_WIDTH = 20;
const VALUE_WIDTH = 32;
const RESULT_WIDTH = 48;
/** Raw text read before clipping: enough for any width above even after whitespace is collapsed. */
const READ_AHEAD = 512;

/**
 * Whitespace runs (line breaks included) collapsed to one space, cut to `width` code points with
 * `…`. Only the text's first few `width`s are looked at.
 */
export function oneLine(text: string, width: number): string {
  const ahead = width * 4 + 16;
  const head = text.length > ahead ? text.slice(0, ahead) : text;
  const flat = /\s/.test(head) ? head.replace(/\s+/g, " ").trim() : head;
  // Code units never undercount code points: most texts are done here.
  if (flat.length <= width && head === text) return flat;
  let end = 0;
  let points = 0;
  for (const char of flat) {
    if (++points > width - 1) break;
    end += char.length;
  }
  return end >= flat.length && head === text ? flat : `${flat.slice(0, end).trimEnd()}…`;
}

// A string of a "bytes" value is a byte string (a cut one may end in a partial char: U+FFFD, in a preview).
const textIn = (form: StringForm, value: string) => (form === "bytes" ? fromBytes(value.slice(0, READ_AHEAD * 4) as ByteString) : value);

const isScalar = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);

/** A bare value when it reads as one word, quoted otherwise. */
function valueText(value: unknown, form: StringForm): string {
  if (typeof value !== "string") return String(value);
  const text = oneLine(textIn(form, value), VALUE_WIDTH);
  return /^[^\s,=()"']+$/.test(text) ? text : `"${text.replace(/"/g, '\\"')}"`;
}

/** `key=value, …` for the most telling scalar arguments; the names of the others when none is scalar. */
export function argsPreview(call: RawCall | undefined): string {
  const args = call?.args;
  if (args === undefined) return "";
  const form = formOf(call!);
  if (!isPlainObject(args)) return isScalar(args) ? valueText(args, form) : Array.isArray(args) ? `[${args.length} items]` : "";
  const keys = Object.keys(args);
  const scalar = keys.filter((key) => isScalar(own(args, key)));
  const telling = TELLING_KEYS.filter((key) => scalar.includes(key));
  const rest = scalar.filter((key) => !TELLING_KEYS.includes(key));
  const chosen = [...telling, ...rest].slice(0, MAX_KEYS);
  const name = (key: string) => oneLine(textIn(form, key), KEY_WIDTH);
  if (chosen.length === 0) return keys.slice(0, MAX_KEYS).map((key) => `${name(key)}=…`).join(", ") + (keys.length > MAX_KEYS ? ", …" : "");
  const more = keys.length > chosen.length ? ", …" : "";
  return chosen.map((key) => `${name(key)}=${valueText(own(args, key), form)}`).join(", ") + more;
}

/** At most `budget` characters of JSON for `value` (a result without text), without serializing all of it. */
function compactJson(value: unknown, budget: number): string {
  let out = "";
  const write = (v: unknown, depth: number): void => {
    if (out.length > budget) return;
    if (typeof v === "string") out += JSON.stringify(v.slice(0, budget));
    else if (!isPlainObject(v) && !Array.isArray(v)) out += String(v);
    else if (depth > 3) out += Array.isArray(v) ? "[…]" : "{…}";
    else if (Array.isArray(v)) {
      out += "[";
      for (let i = 0; i < v.length && out.length <= budget; i++) {
        if (i > 0) out += ",";
        write(v[i], depth + 1);
      }
      out += "]";
    } else {
      out += "{";
      let first = true;
      for (const key of Object.keys(v)) {
        if (out.length > budget) break;
        out += `${first ? "" : ","}${JSON.stringify(key.slice(0, budget))}:`;
        first = false;
        write(own(v, key), depth + 1);
      }
      out += "}";
    }
  };
  write(value, 0);
  return out;
}

/** The first text of `result.content`, if any. */
function firstContentText(result: Record<string, unknown>): string | undefined {
  const content = own(result, "content");
  if (!Array.isArray(content)) return undefined;
  for (const entry of content.slice(0, 8)) {
    if (!isPlainObject(entry)) continue;
    const text = own(entry, "text");
    if (typeof text === "string" && text.trim() !== "") return text;
  }
  return undefined;
}

function outcomeText(outcome: RawOutcome): string | undefined {
  const value = outcome.error !== undefined ? outcome.error : outcome.result;
  if (value === undefined) return undefined;
  const form = formOf(outcome);
  if (typeof value === "string") return textIn(form, value);
  if (!isPlainObject(value)) return compactJson(value, READ_AHEAD);
  const message = own(value, "message");
  if (outcome.error !== undefined && typeof message === "string") return textIn(form, message);
  const text = firstContentText(value);
  if (text !== undefined) return textIn(form, text);
  const details = own(value, "details");
  const status = isPlainObject(details) ? own(details, "status") : undefined;
  if (typeof status === "string") return textIn(form, status);
  return compactJson(value, READ_AHEAD);
}

/** A finding's preview: the call's telling arguments, the outcome's text. */
export function findingPreview(call: RawCall | undefined, outcome: RawOutcome | undefined): FindingPreview {
  const text = outcome === undefined ? undefined : outcomeText(outcome);
  return {
    args: argsPreview(call),
    result: text === undefined ? null : oneLine(text, RESULT_WIDTH),
    error: outcome !== undefined && outcome.error !== undefined,
  };
}

/** The width of an explained call's previews. */
export const CALL_PREVIEW_CHARS = 80;

/** A value as an explained call shows it: strings bare, anything else as JSON (its strings cut). */
function listedValue(value: unknown, form: StringForm): string {
  if (typeof value === "string") return textIn(form, value);
  if (value === undefined) return "";
  const json = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "string" ? textOf(form, inner.slice(0, CALL_PREVIEW_CHARS)) : inner));
  return json === undefined ? String(value) : json;
}

/** `key=value key=value` for an object, the value itself otherwise; `(no arguments)` when absent. */
export function callArgsPreview(args: unknown, form: StringForm): string {
  if (args === undefined) return "(no arguments)";
  if (!isPlainObject(args)) return oneLine(listedValue(args, form), CALL_PREVIEW_CHARS);
  let text = "";
  for (const [name, value] of Object.entries(args)) {
    text += `${text === "" ? "" : " "}${name}=${listedValue(value, form)}`;
    if (text.length > CALL_PREVIEW_CHARS) break;
  }
  return oneLine(text === "" ? "{}" : text, CALL_PREVIEW_CHARS);
}

/** An explained call's outcome: its result's text (or `error: …`), cut. */
export function callOutcomePreview(event: ToolResultEvent): string {
  const form = formOf(event);
  if (event.error !== undefined) return oneLine(`error: ${listedValue(event.error, form)}`, CALL_PREVIEW_CHARS);
  const result = event.result;
  if (result === undefined) return "(no result)";
  if (isPlainObject(result)) {
    const text = contentText(result, form);
    if (text !== "") return oneLine(textOf(form, text), CALL_PREVIEW_CHARS);
  }
  return oneLine(listedValue(result, form), CALL_PREVIEW_CHARS);
}
