/**
 * OpenHands writes its events in three layouts, and one reader serves all of them:
 * - one JSON object per line (V1 `.jsonl` streams, compact `events/<id>.json` files);
 * - a pretty-printed JSON document: a V0 trajectory (`save_trajectory_path`, a JSON array written
 *   with `indent=2`) or a single event object spread over many lines;
 * - the same array written on one line.
 *
 * The records handed on are the objects of the file (or of its top-level array), each with the line
 * it starts on. Line accounting (read = used + ignored + skipped) stays per line: the record that
 * starts a line tallies that line (`tallies`); the lines a record continues over, the array's
 * brackets and blank lines are tallied here as ignored. When several records start on one line (an
 * array on one line), only the first tallies it; the others only add diagnostics.
 */
import { parseObjectLine, type LineTally } from "../adapter.js";
import { isPlainObject } from "../../core/plainObject.js";
import type { LineSource } from "../io/lineSource.js";

export type DocumentRecord =
  | { readonly kind: "object"; readonly value: Record<string, unknown>; readonly line: number; readonly tallies: boolean }
  | { readonly kind: "bad"; readonly reason: string; readonly line: number; readonly tallies: boolean };

export type RecordHandler = (record: DocumentRecord) => void;

/** Reads every record of the source in file order; lines no record starts on are tallied here. */
export async function forEachRecord(source: LineSource, tally: LineTally, handler: RecordHandler): Promise<void> {
  const layout = await layoutOf(source);
  if (layout === "lines") return readLines(source, tally, handler);
  const scanner = new DocumentScanner(tally, handler);
  await source.forEachLine((text, line) => scanner.line(text, line));
  scanner.end();
}

/**
 * One object per line when the first meaningful line is a whole JSON object; otherwise a document
 * that spans lines (or an array, which is read element by element even on one line).
 */
async function layoutOf(source: LineSource): Promise<"lines" | "document"> {
  let layout: "lines" | "document" = "lines";
  await source.forEachLine((text, _line, terminated, problem) => {
    const parsed = parseObjectLine(text, terminated, problem);
    if (parsed.kind === "blank") return true;
    const first = text.trimStart()[0];
    layout = parsed.kind === "object" || (first !== "[" && first !== "{") ? "lines" : "document";
    return false;
  });
  return layout;
}

async function readLines(source: LineSource, tally: LineTally, handler: RecordHandler): Promise<void> {
  await source.forEachLine((text, line, terminated, problem) => {
    const parsed = parseObjectLine(text, terminated, problem);
    if (parsed.kind === "blank") return void tally.ignored();
    if (parsed.kind === "bad") return handler({ kind: "bad", reason: parsed.reason, line, tallies: true });
    if (parsed.notice !== undefined) tally.note({ file: source.file, line, reason: parsed.notice });
    handler({ kind: "object", value: parsed.value, line, tallies: true });
  });
}

/**
 * A character scanner that finds the extent of each top-level value (or each element of a
 * top-level array) without parsing the whole document at once, so that one bad element is skipped
 * and the others are still read, and every element keeps its own line.
 */
class DocumentScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Depth at which records sit: 0 for concatenated objects, 1 inside a top-level array. */
  private recordDepth = 0;
  private parts: string[] = [];
  private start: number | undefined;
  private primitive = false;
  private lastHomeLine = 0;
  private lastLine = 0;

  constructor(
    private readonly tally: LineTally,
    private readonly handler: RecordHandler,
  ) {}

  line(text: string, line: number): void {
    this.lastLine = line;
    let startedHere = false;
    let from = this.start !== undefined ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.inString) {
        this.stringChar(c);
        continue;
      }
      if (this.start === undefined) {
        if (c === " " || c === "\t" || c === "\r" || c === "," || c === "\uFEFF") continue;
        if (this.bracket(c)) continue;
        this.start = line;
        this.primitive = c !== "{" && c !== "[";
        startedHere = true;
        from = i;
      }
      if (this.primitive && this.depth === this.recordDepth && (c === "," || c === "]")) {
        // A bare value in the array (never an event): it ends before the separator.
        this.parts.push(text.slice(from, i));
        this.finish();
        from = -1;
        if (c === "]") this.bracket(c);
        continue;
      }
      if (this.structural(c)) {
        this.parts.push(text.slice(from, i + 1));
        this.finish();
        from = -1;
      }
    }
    if (this.start !== undefined && from >= 0) this.parts.push(text.slice(from) + "\n");
    if (!startedHere) this.tally.ignored();
  }

  /** The top-level array's own brackets: its elements are the records. */
  private bracket(c: string): boolean {
    if (c === "[" && this.depth === 0 && this.recordDepth === 0) {
      this.depth = this.recordDepth = 1;
      return true;
    }
    if (c === "]" && this.depth === 1 && this.recordDepth === 1) {
      this.depth = this.recordDepth = 0;
      return true;
    }
    return false;
  }

  private stringChar(c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === "\\") this.escaped = true;
    else if (c === '"') this.inString = false;
  }

  /** Tracks nesting; true when the record in progress ends with this character. */
  private structural(c: string): boolean {
    if (c === '"') this.inString = true;
    else if (c === "{" || c === "[") this.depth++;
    else if (c === "}" || c === "]") {
      this.depth--;
      return !this.primitive && this.depth <= this.recordDepth;
    }
    return false;
  }

  private finish(): void {
    const start = this.start!;
    const text = this.parts.join("");
    this.parts = [];
    this.start = undefined;
    if (this.depth < this.recordDepth) this.depth = this.recordDepth = 0; // a stray closer
    const tallies = start !== this.lastHomeLine;
    this.lastHomeLine = start;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.handler({ kind: "bad", reason: "not valid JSON", line: start, tallies });
    }
    if (!isPlainObject(value)) return this.handler({ kind: "bad", reason: "not a JSON object", line: start, tallies });
    this.handler({ kind: "object", value, line: start, tallies });
  }

  /** A record still open at the end of the file was cut off. */
  end(): void {
    if (this.start === undefined) return;
    const start = this.start;
    const tallies = start !== this.lastHomeLine;
    this.start = undefined;
    this.handler({ kind: "bad", reason: `truncated record (the file ends at line ${this.lastLine} before it closes)`, line: start, tallies });
  }
}
