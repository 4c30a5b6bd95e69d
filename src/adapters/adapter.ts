/**
 * The contract every input format implements: recognise itself from a few parsed lines, then turn
 * its lines into canonical events, accounting for every line (read = used + ignored + skipped).
 */
import type { LoopEvent } from "../core/events.js";
import type { Diagnostic } from "../core/findings.js";
import type { LiveEvent } from "../core/liveEvents.js";
import { isPlainObject } from "../core/plainObject.js";
import type { LineSource } from "./lineSource.js";

export type InputFormat = "events" | "openclaw-session" | "openclaw-trajectory" | "gateway-log";

export interface LineCounts {
  read: number;
  used: number;
  ignored: number;
  skipped: number;
}

/** Diagnostics kept for the report; the counts stay exact beyond the cap. */
export const MAX_KEPT_DIAGNOSTICS = 1000;

/** Per-run line accounting shared by all inputs of one analysis. */
export class LineTally {
  readonly counts: LineCounts = { read: 0, used: 0, ignored: 0, skipped: 0 };
  readonly diagnostics: Diagnostic[] = [];
  diagnosticsTotal = 0;

  used(): void {
    this.counts.read++;
    this.counts.used++;
  }

  /** A line of a known kind that replay does not need (blank lines, other entry types). */
  ignored(file?: string, line?: number, reason?: string): void {
    this.counts.read++;
    this.counts.ignored++;
    if (reason !== undefined && file !== undefined && line !== undefined) this.note({ file, line, reason });
  }

  /** A bad line: not JSON, not an object, or missing what its format requires. */
  skipped(file: string, line: number, reason: string): void {
    this.counts.read++;
    this.counts.skipped++;
    this.note({ file, line, reason });
  }

  /** A diagnostic that does not account for a line of its own. */
  note(diagnostic: Diagnostic): void {
    this.diagnosticsTotal++;
    if (this.diagnostics.length < MAX_KEPT_DIAGNOSTICS) this.diagnostics.push(diagnostic);
  }
}

/** Result of handing an event to replay: used, or ignored with the reason. */
export type EmitResult = { readonly used: true } | { readonly used: false; readonly reason: string };

export interface AdapterContext {
  readonly tally: LineTally;
  /** Hands an event to replay (or, for a live event from a Gateway log, to the live report). */
  emit(event: LoopEvent | LiveEvent): EmitResult;
  readonly options: AdapterOptions;
}

export interface AdapterOptions {
  /** Session transcripts: replay every entry in file order instead of the active branch. */
  readonly allBranches?: boolean;
}

export interface InputAdapter {
  readonly format: InputFormat;
  /** True when these first meaningful lines (parsed JSON, or the raw text if unparsable) are this format. */
  sniff(samples: readonly unknown[]): boolean;
  read(source: LineSource, context: AdapterContext): Promise<void>;
}

/** Parses a JSON line, telling a truncated last line apart from a plain bad line. */
export function parseJsonLine(
  text: string,
  terminated: boolean,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: terminated ? "not valid JSON" : "truncated last line (not valid JSON)" };
  }
}

export function isBlank(text: string): boolean {
  return text.trim() === "";
}

export type ObjectLine =
  | { readonly kind: "blank" }
  | { readonly kind: "bad"; readonly reason: string }
  | { readonly kind: "object"; readonly value: Record<string, unknown> };

/** A line of a JSON-lines format whose lines are objects: blank, bad (with the reason), or the object. */
export function parseObjectLine(text: string, terminated: boolean): ObjectLine {
  if (isBlank(text)) return { kind: "blank" };
  const parsed = parseJsonLine(text, terminated);
  if (!parsed.ok) return { kind: "bad", reason: parsed.reason };
  const value = parsed.value;
  if (!isPlainObject(value)) return { kind: "bad", reason: "not a JSON object" };
  return { kind: "object", value };
}
