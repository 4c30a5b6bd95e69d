/**
 * The pieces of pi agent messages that replay needs, shared by the session transcript adapter and
 * the trajectory adapter (whose transcript events carry the same messages):
 * - an assistant message's `toolCall` blocks `{type, id, name, arguments}` (legacy: `input`; like
 *   OpenClaw's own trajectory exporter, `toolUse`/`functionCall` blocks and `parameters` count too);
 * - a `toolResult` message `{toolCallId, toolName, content[], details?, isError}` and what it means
 *   to the detectors: a thrown error (isError with no or empty details: the runtime wraps a thrown
 *   error as `{content:[{text: message}], details: {}}`) or a result `{content, details}` — which
 *   includes the runtime's own loop vetoes (`details.status == "blocked"`), kept as such.
 */
import { idText as sharedIdText } from "../shared/ids.js";
import { textOf, type StringForm } from "../../core/byteText.js";
import { callArguments } from "../shared/callArguments.js";
import type { Outcome } from "../shared/runFacts.js";
import { isPlainObject, own } from "../../core/plainObject.js";

/** Ids and names are text; `args` / `outcome` keep the form of the line they came from (jsonBytes.ts). */
export interface ToolCallBlock {
  readonly id: string | undefined;
  readonly tool: string;
  /** `undefined` when the block had neither `arguments` nor `input`. */
  readonly args: unknown;
  readonly form: StringForm;
}

export interface ToolResultMessage {
  readonly id: string | undefined;
  readonly tool: string | undefined;
  readonly outcome: Outcome;
  readonly form: StringForm;
}

/** An OpenClaw id, kept as written (shared/ids.ts), from a value in `form`. */
export function idText(value: unknown, form: StringForm): string | undefined {
  return sharedIdText(value, form, "keep");
}

/** A non-blank string (a tool name, an id), as text. */
function nameText(value: unknown, form: StringForm): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = textOf(form, value);
  return text.trim() === "" ? undefined : text;
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** The tool call blocks of an assistant message's content (strings in `form`), and how many were unusable. */
export function toolCallBlocks(message: Record<string, unknown>, form: StringForm): { calls: ToolCallBlock[]; unnamed: number } {
  const content = own(message, "content");
  const calls: ToolCallBlock[] = [];
  let unnamed = 0;
  if (!Array.isArray(content)) return { calls, unnamed };
  for (const block of content) {
    if (!isPlainObject(block) || !isToolCallType(own(block, "type"), form)) continue;
    const name = nameText(own(block, "name"), form);
    if (name === undefined) {
      unnamed++;
      continue;
    }
    calls.push({ id: idText(own(block, "id"), form), tool: name, args: callArguments(block), form });
  }
  return { calls, unnamed };
}

const TOOL_CALL_TYPES = new Set(["toolcall", "tooluse", "functioncall"]);

function isToolCallType(type: unknown, form: StringForm): boolean {
  if (typeof type !== "string") return false;
  // The types pi writes, without making two strings of each block's type (text and thinking blocks
  // are most of them); other spellings take the long way.
  if (type === "toolCall") return true;
  if (type === "text" || type === "thinking") return false;
  return TOOL_CALL_TYPES.has(textOf(form, type).trim().toLowerCase());
}

function hasNoDetails(details: unknown): boolean {
  return details === undefined || details === null || (isPlainObject(details) && Object.keys(details).length === 0);
}

/** The text of every `{type:"text", text}` content block, joined by newlines. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  let text: string | undefined;
  for (const block of content) {
    if (!isPlainObject(block) || own(block, "type") !== "text") continue;
    const part = own(block, "text");
    if (typeof part === "string") text = text === undefined ? part : `${text}\n${part}`;
  }
  return text ?? "";
}

/**
 * What a tool returned, given its `content`, `details` and whether it failed: a failure without
 * details is the thrown error (its text); anything else is the result `{content, details}` as given.
 */
export function outcomeOf(holder: Record<string, unknown>, failed: boolean): Outcome {
  const content = own(holder, "content");
  const details = own(holder, "details");
  if (failed && hasNoDetails(details)) return { error: contentText(content) };
  // Built key by key (no spreads: this runs for every result); `content` before `details`, as before.
  const result: Record<string, unknown> = {};
  if (hasOwn(holder, "content")) result.content = content;
  if (hasOwn(holder, "details")) result.details = details;
  return { result };
}

/** A `toolResult` message (strings in `form`), or why it cannot be replayed. */
export function toolResultMessage(
  message: Record<string, unknown>,
  form: StringForm,
): { ok: true; value: ToolResultMessage } | { ok: false; reason: string } {
  const id = idText(own(message, "toolCallId"), form);
  const tool = nameText(own(message, "toolName"), form);
  if (id === undefined && tool === undefined) return { ok: false, reason: "toolResult without toolCallId or toolName" };
  return { ok: true, value: { id, tool, outcome: outcomeOf(message, own(message, "isError") === true), form } };
}
