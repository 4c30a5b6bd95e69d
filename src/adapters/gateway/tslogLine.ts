/**
 * One line of an OpenClaw Gateway log (spec: inputs.md §4): a tslog object whose `"0"` is the JSON
 * string `{"subsystem":"<name>"}` (or a bare string for a captured console line), whose `"1"` is the
 * message (or a meta object, and then the message is `"2"`), with `_meta.logLevelName`, a UTC
 * `_meta.date`, and `time`.
 *
 * A captured console line holds the whole console text, `[tools] read failed: …`: its `[subsystem]`
 * prefix is read out (colour codes removed) so that it is classified like any subsystem's line.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { splitConsolePrefix, stripAnsi } from "./consoleLine.js";

export interface TslogEntry {
  /** The subsystem binding's name, or a captured console line's `[subsystem]`; `null` for console text without one. */
  readonly subsystem: string | null;
  readonly message: string;
  /** `_meta.date` (UTC), else `time`, when present. */
  readonly ts: string | undefined;
  readonly level: string | undefined;
}

export type TslogParse = { readonly ok: true; readonly entry: TslogEntry } | { readonly ok: false; readonly reason: string };

/** True when a parsed value has the shape of a tslog line (for sniffing). */
export function looksLikeTslog(value: unknown): boolean {
  if (!isPlainObject(value) || typeof own(value, "0") !== "string") return false;
  const meta = own(value, "_meta");
  return isPlainObject(meta) && (typeof own(meta, "logLevelName") === "string" || typeof own(meta, "date") === "string");
}

const MAX_CACHED_BINDINGS = 512;

/**
 * Parses tslog lines. Subsystem bindings repeat on every line and parsing each again would cost as
 * much as the line itself, so they are cached (bounded: ever-new bindings cannot grow it).
 */
export class TslogParser {
  private readonly bindings = new Map<string, string | null | undefined>();

  parse(value: unknown): TslogParse {
    if (!isPlainObject(value)) return { ok: false, reason: "not a JSON object" };
    const meta = own(value, "_meta");
    if (!isPlainObject(meta)) return { ok: false, reason: 'not a Gateway log line (no "_meta" object)' };
    const first = own(value, "0");
    if (typeof first !== "string") return { ok: false, reason: 'Gateway log line without a "0" string' };
    const date = own(meta, "date");
    const time = own(value, "time");
    const level = own(meta, "logLevelName");
    const ts = typeof date === "string" ? date : typeof time === "string" ? time : undefined;
    const common = { ts, level: typeof level === "string" ? level : undefined };

    const subsystem = this.subsystemOf(first);
    if (subsystem === undefined) return { ok: false, reason: '"0" is a binding without a subsystem name' };
    if (subsystem === null) {
      const console = splitConsolePrefix(first);
      if (console) return { ok: true, entry: { ...console, ...common } };
      return { ok: true, entry: { subsystem: null, message: stripAnsi(first), ...common } };
    }
    const one = own(value, "1");
    const message = typeof one === "string" ? one : isPlainObject(one) ? own(value, "2") : undefined;
    if (typeof message !== "string") return { ok: false, reason: `subsystem ${quote(subsystem)} line without a message` };
    return { ok: true, entry: { subsystem, message, ...common } };
  }

  /** A binding's subsystem name; `null` when `"0"` is no binding (a console line); `undefined` when broken. */
  private subsystemOf(binding: string): string | null | undefined {
    if (this.bindings.has(binding)) return this.bindings.get(binding);
    let subsystem: string | null | undefined = null;
    if (binding.startsWith("{")) {
      try {
        const parsed: unknown = JSON.parse(binding);
        const name = isPlainObject(parsed) ? own(parsed, "subsystem") : undefined;
        subsystem = typeof name === "string" && name !== "" ? name : undefined;
      } catch {
        subsystem = null; // a console line that happens to start with "{"
      }
    }
    if (this.bindings.size >= MAX_CACHED_BINDINGS) this.bindings.clear();
    this.bindings.set(binding, subsystem);
    return subsystem;
  }
}
