/**
 * What a finding's pattern looked like, in a few words: the repeated call's most telling arguments
 * and what it returned. Previews are made only when a finding is made, never per call: replay keeps
 * references to the newest call and outcome of each recent pattern (`RecentPatterns`), and this module
 * reads them. Every piece is bounded (a multi-megabyte argument or result costs no more than a short
 * one). The text is one line but not sanitized: reporters strip control characters when they print.
 */
import { fromBytes, type ByteString, type StringForm } from "./byteText.js";
import { formOf, type ToolCallEvent, type ToolResultEvent } from "./events.js";
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

export function findingPreview(call: RawCall | undefined, outcome: RawOutcome | undefined): FindingPreview {
  const text = outcome === undefined ? undefined : outcomeText(outcome);
  return {
    args: argsPreview(call),
    result: text === undefined ? null : oneLine(text, RESULT_WIDTH),
    error: outcome !== undefined && outcome.error !== undefined,
  };
}

/** The newest call and outcome of one pattern (tool and args hash). */
export interface PatternRefs {
  call?: RawCall;
  outcome?: RawOutcome;
  /** The outcome's result hash: while it stays the same, so does the preview. */
  outcomeHash?: string;
  /** The preview last made for the pattern, and the outcome hash it was made with. */
  preview?: { readonly outcomeHash: string | undefined; readonly value: FindingPreview };
}

/**
 * The preview of a pattern's finding, made once per outcome: the many findings of one loop (a
 * verdict on every call past the threshold) share it. Same args hash, same arguments in all but
 * what hashing ignores (an `update_plan`'s wording).
 */
export function patternPreview(refs: PatternRefs, call: RawCall | undefined): FindingPreview {
  const cached = refs.preview;
  if (cached !== undefined && cached.outcomeHash === refs.outcomeHash) return cached.value;
  const value = findingPreview(call ?? refs.call, refs.outcome);
  refs.preview = { outcomeHash: refs.outcomeHash, value };
  return value;
}

/**
 * The newest call and outcome of each recent pattern of a run, as references. Bounded by two
 * generations of `limit` patterns: when the current one fills up it becomes the previous one and the
 * older is dropped, so each event costs one map look-up and the memory held stays small.
 */
export class RecentPatterns {
  /**
   * The current generation: its first pattern held in two fields, the others in a Map made for the
   * second. Every open run has a RecentPatterns, most runs repeat few patterns, and a Map is ~330
   * bytes with its table (a file of 300,000 runs that never end holds them all to its end).
   */
  private firstKey: string | undefined;
  private firstRefs: PatternRefs | undefined;
  private others: Map<string, PatternRefs> | undefined;
  /** The generation before the current one, and the unknown tools' outcomes, made when first needed. */
  private previous: Map<string, PatternRefs> | undefined;

  constructor(private readonly limit = 32) {}

  /** The pattern's refs, made (or carried over from the previous generation) if needed. */
  refs(argsHash: string): PatternRefs {
    let refs = this.current(argsHash);
    if (refs !== undefined) return refs;
    refs = this.previous?.get(argsHash) ?? {};
    if (this.currentSize() >= this.limit) this.startGeneration();
    if (this.firstKey === undefined) {
      this.firstKey = argsHash;
      this.firstRefs = refs;
    } else {
      (this.others ??= new Map()).set(argsHash, refs);
    }
    return refs;
  }

  /** The pattern's refs, if they are still held (without making them). */
  peek(argsHash: string): PatternRefs | undefined {
    return this.current(argsHash) ?? this.previous?.get(argsHash);
  }

  private current(argsHash: string): PatternRefs | undefined {
    return argsHash === this.firstKey ? this.firstRefs : this.others?.get(argsHash);
  }

  private currentSize(): number {
    return this.firstKey === undefined ? 0 : 1 + (this.others?.size ?? 0);
  }

  /** The current generation becomes the previous one (the older is dropped). */
  private startGeneration(): void {
    const previous = this.others ?? new Map<string, PatternRefs>();
    if (this.firstKey !== undefined) previous.set(this.firstKey, this.firstRefs!);
    this.previous = previous;
    this.firstKey = undefined;
    this.firstRefs = undefined;
    this.others = undefined;
  }

  /**
   * The newest "no such tool" outcome of each tool: an unknown-tool streak spans calls whose
   * arguments differ, so the pattern's own outcome may be missing. Only such outcomes are kept.
   */
  private unknownTools: Map<string, RawOutcome> | undefined;

  noteUnknownTool(tool: string, outcome: RawOutcome): void {
    const known = (this.unknownTools ??= new Map());
    if (known.size >= this.limit && !known.has(tool)) known.clear();
    known.set(tool, outcome);
  }

  unknownToolOutcome(tool: string): RawOutcome | undefined {
    return this.unknownTools?.get(tool);
  }
}
