/**
 * The records of a Gemini CLI recording, line by line, whichever form the file has: JSON lines
 * (records.ts), or a legacy JSON document over many lines (document.ts), which is recognised by a
 * first meaningful line that is a lone `{` and handed over whole once it closes. Lines after a
 * document are read as JSON lines again (a legacy file that a resume went on appending to).
 * Both passes of the adapter read the file through this, so they see the same records at the same lines.
 */
import { isPlainObject } from "../../core/plainObject.js";
import { parseObjectLine } from "../adapter.js";
import type { LineSource } from "../io/lineSource.js";
import { DocumentCollector, type DocumentLines, type DocumentState } from "./document.js";
import { classifyRecord, type GeminiRecord } from "./records.js";

/** One message of a legacy document, at the line where its object starts. */
export interface DocumentMessage {
  readonly value: unknown;
  readonly line: number;
  /** The line of each of its tool calls, by index (empty when the scan could not tell). */
  readonly callLines: readonly number[];
}

export type RecordLine =
  | { readonly kind: "blank"; readonly line: number }
  | { readonly kind: "bad"; readonly line: number; readonly reason: string }
  | { readonly kind: "record"; readonly line: number; readonly record: GeminiRecord; readonly notice?: string }
  | { readonly kind: "document"; readonly lines: DocumentLines; readonly metadata: Record<string, unknown>; readonly messages: readonly DocumentMessage[] }
  | { readonly kind: "badDocument"; readonly lines: DocumentLines; readonly reason: string };

/** The messages of a parsed document, each at its own line (the document's first when the scan disagrees). */
function documentItem(state: Exclude<DocumentState, { kind: "open" }>): RecordLine {
  if (state.kind === "bad") return { kind: "badDocument", lines: state.lines, reason: state.reason };
  const record = isPlainObject(state.value) ? classifyRecord(state.value) : undefined;
  if (record?.kind !== "document") return { kind: "badDocument", lines: state.lines, reason: "JSON document that is not a Gemini CLI recording (no sessionId and messages)" };
  const found = state.lines.messages;
  const located = found.length === record.messages.length;
  const messages = record.messages.map((value, i) => ({ value, line: located ? found[i]!.line : state.lines.first, callLines: located ? found[i]!.calls : [] }));
  return { kind: "document", lines: state.lines, metadata: record.value, messages };
}

export async function forEachRecord(source: LineSource, visit: (item: RecordLine) => void): Promise<void> {
  let document: DocumentCollector | undefined;
  let sawContent = false;
  await source.forEachLine((text, line, terminated, problem) => {
    if (document !== undefined) {
      const state = document.add(text, line);
      if (state.kind === "open") return;
      document = undefined;
      return visit(documentItem(state));
    }
    const parsed = parseObjectLine(text, terminated, problem);
    if (parsed.kind === "blank") return visit({ kind: "blank", line });
    if (!sawContent && parsed.kind === "bad" && text.trim() === "{") {
      sawContent = true;
      document = new DocumentCollector(line);
      document.add(text, line);
      return;
    }
    sawContent = true;
    if (parsed.kind === "bad") return visit({ kind: "bad", line, reason: parsed.reason });
    const record = classifyRecord(parsed.value);
    // A whole legacy recording on one line: a document whose messages are all at that line.
    if (record.kind === "document") return visit(documentItem({ kind: "done", value: parsed.value, lines: { first: line, last: line, messages: [] } }));
    visit(parsed.notice === undefined ? { kind: "record", line, record } : { kind: "record", line, record, notice: parsed.notice });
  });
  if (document !== undefined) visit(documentItem(document.end()));
}
