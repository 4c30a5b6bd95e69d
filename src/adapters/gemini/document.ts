/**
 * The legacy Gemini CLI recording: one JSON document (`JSON.stringify(conversation, null, 2)`) over
 * many lines, `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`. Line sources hand
 * over lines, so the lines are collected until the document's outermost object closes, and parsed
 * then. A light structural scan of the same text (strings, brackets, the keys of the root object and
 * of each message) tells on which line each message and each of its tool calls starts, so that
 * events and findings point at the record that produced them rather than at the document's first line.
 */

/** Where the parts of a document start: one entry per message, with its tool calls' lines. */
export interface DocumentLines {
  readonly first: number;
  readonly last: number;
  readonly messages: ReadonlyArray<{ readonly line: number; readonly calls: readonly number[] }>;
}

export type DocumentState =
  | { readonly kind: "open" }
  | { readonly kind: "done"; readonly value: unknown; readonly lines: DocumentLines }
  | { readonly kind: "bad"; readonly reason: string; readonly lines: DocumentLines };

/** Depths inside the document: the root object, the messages array, a message, its toolCalls, a call. */
const ROOT = 1;
const MESSAGES = 2;
const MESSAGE = 3;
const TOOL_CALLS = 4;

export class DocumentCollector {
  private readonly texts: string[] = [];
  private readonly messages: Array<{ line: number; calls: number[] }> = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The string being read, when it may be a key (at the root or in a message). */
  private text: string | undefined;
  private lastString = "";
  private rootKey = "";
  private messageKey = "";
  private last: number;

  constructor(private readonly first: number) {
    this.last = first;
  }

  /** Adds the next line; the document is done once its outermost object closed. */
  add(text: string, line: number): DocumentState {
    this.texts.push(text);
    this.last = line;
    this.scan(text, line);
    return this.depth === 0 ? this.finish() : { kind: "open" };
  }

  /** The document at the end of the input while it is still open: cut off. */
  end(): Exclude<DocumentState, { kind: "open" }> {
    return { kind: "bad", reason: "legacy JSON document cut off before its end (not valid JSON)", lines: this.lines() };
  }

  private finish(): Exclude<DocumentState, { kind: "open" }> {
    try {
      return { kind: "done", value: JSON.parse(this.texts.join("\n")), lines: this.lines() };
    } catch {
      return { kind: "bad", reason: "legacy JSON document that is not valid JSON", lines: this.lines() };
    }
  }

  private lines(): DocumentLines {
    return { first: this.first, last: this.last, messages: this.messages };
  }

  private scan(text: string, line: number): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.inString) this.stringChar(c);
      else if (c === '"') this.openString();
      else if (c === "{" || c === "[") this.open(c, line);
      else if (c === "}" || c === "]") this.close();
      else if (c === ":") this.key();
    }
  }

  private stringChar(c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === "\\") this.escaped = true;
    else if (c === '"') {
      this.inString = false;
      if (this.text !== undefined) this.lastString = this.text;
      this.text = undefined;
      return;
    }
    if (this.text !== undefined) this.text += c;
  }

  private openString(): void {
    this.inString = true;
    this.text = this.depth === ROOT || this.depth === MESSAGE ? "" : undefined;
  }

  private open(c: string, line: number): void {
    if (c === "{" && this.depth === MESSAGES && this.rootKey === "messages") this.messages.push({ line, calls: [] });
    if (c === "{" && this.depth === TOOL_CALLS && this.rootKey === "messages" && this.messageKey === "toolCalls") this.messages.at(-1)?.calls.push(line);
    this.depth++;
  }

  private close(): void {
    this.depth--;
    if (this.depth < MESSAGE) this.messageKey = "";
  }

  private key(): void {
    if (this.depth === ROOT) this.rootKey = this.lastString;
    else if (this.depth === MESSAGE) this.messageKey = this.lastString;
  }
}
