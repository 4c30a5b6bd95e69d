/**
 * The records of a Gemini CLI chat recording (chatRecordingTypes.ts / chatRecordingService.ts,
 * agents.md A3), one JSON object per line of a `.jsonl` file:
 * - a metadata line `{sessionId, projectHash, startTime, lastUpdated, kind?, …}` (first);
 * - message records `{id, timestamp, type: "user"|"gemini"|"info"|"error"|"warning", content,
 *   toolCalls?, thoughts?, tokens?, model?}`; a `gemini` message is written again, whole, every
 *   time its tool calls update, so one `id` can be on several lines (the last copy is the one);
 * - `{"$set": {…}}` metadata updates (`lastUpdated`, and a whole new `messages` list when history
 *   is compressed or tool outputs masked);
 * - `{"$rewindTo": "<message id>"}`: the user rewound the conversation to before that message.
 * The legacy `.json` file is one object holding the metadata and a `messages` array: a `document`.
 * Both are parsed from decoded text: every string read from them is in form "text".
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { idText as sharedIdText } from "../shared/ids.js";

/** Gemini CLI ids are kept as written, as OpenClaw's are (shared/ids.ts). */
const idText = (value: unknown, form: "text") => sharedIdText(value, form, "keep");

export type GeminiRecord =
  | { readonly kind: "metadata"; readonly value: Record<string, unknown> }
  | { readonly kind: "document"; readonly value: Record<string, unknown>; readonly messages: readonly unknown[] }
  | { readonly kind: "message"; readonly id: string | undefined; readonly type: string; readonly value: Record<string, unknown> }
  | { readonly kind: "set"; readonly fields: Record<string, unknown> }
  | { readonly kind: "rewind"; readonly target: string | undefined }
  | { readonly kind: "unknown"; readonly reason: string };

/** Message types that are not tool activity or user turns (shown to the user, never to the model as calls). */
export const QUIET_MESSAGE_TYPES: ReadonlySet<string> = new Set(["info", "error", "warning"]);

export const USER_TYPE = "user";
export const MODEL_TYPE = "gemini";

const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** A metadata line: a session id and none of the other records' keys. */
export function isMetadata(value: Record<string, unknown>): boolean {
  return typeof own(value, "sessionId") === "string" && !hasOwn(value, "type") && !hasOwn(value, "$set") && !hasOwn(value, "$rewindTo");
}

/** What one parsed JSON object of the file is. */
export function classifyRecord(value: Record<string, unknown>): GeminiRecord {
  if (hasOwn(value, "$rewindTo")) return { kind: "rewind", target: idText(own(value, "$rewindTo"), "text") };
  if (hasOwn(value, "$set")) {
    const fields = own(value, "$set");
    return isPlainObject(fields) ? { kind: "set", fields } : { kind: "unknown", reason: '"$set" is not an object' };
  }
  if (isMetadata(value)) {
    const messages = own(value, "messages");
    return Array.isArray(messages) ? { kind: "document", value, messages } : { kind: "metadata", value };
  }
  const type = own(value, "type");
  if (typeof type === "string" && type !== "") return { kind: "message", id: idText(own(value, "id"), "text"), type, value };
  return { kind: "unknown", reason: hasOwn(value, "type") ? 'message record whose "type" is not a string' : "not a Gemini CLI record (no type, $set, $rewindTo or sessionId)" };
}

/** One call of a `gemini` message, with its record (for the outcome). */
export interface GeminiCall {
  readonly index: number;
  readonly id: string | undefined;
  readonly tool: string;
  /** `undefined` when the record had no `args` (which hashes differently from `{}`). */
  readonly args: unknown;
  readonly record: Record<string, unknown>;
}

/** The named tool calls of a message, and how many had no usable name. */
export function toolCallsOf(message: Record<string, unknown>): { calls: GeminiCall[]; unnamed: number } {
  const list = own(message, "toolCalls");
  const calls: GeminiCall[] = [];
  let unnamed = 0;
  if (!Array.isArray(list)) return { calls, unnamed };
  list.forEach((record, index) => {
    const name = isPlainObject(record) ? own(record, "name") : undefined;
    if (!isPlainObject(record) || typeof name !== "string" || name.trim() === "") return void unnamed++;
    calls.push({ index, id: idText(own(record, "id"), "text"), tool: name, args: own(record, "args"), record });
  });
  return { calls, unnamed };
}
