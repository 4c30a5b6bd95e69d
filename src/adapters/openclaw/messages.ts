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
import { unknownToolName } from "../../core/hashing.js";
import { toolNotFoundName } from "../../core/toolNotFound.js";
import { isPlainObject, own } from "../../core/plainObject.js";

/** Ids and names are text; `args` / `outcome` keep the form of the line they came from (jsonBytes.ts). */
export interface ToolCallBlock {
  readonly id: string | undefined;
  readonly tool: string;
  /** `undefined` when the block had neither `arguments` nor `input`. */
  readonly args: unknown;
  readonly form: StringForm;
}

export type Outcome = { readonly error: unknown } | { readonly result: unknown };

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

/** `arguments`, else the legacy `input` or `parameters`, else `undefined` (which hashes differently from `{}`). */
export function callArguments(holder: Record<string, unknown>): unknown {
  if (hasOwn(holder, "arguments")) return holder.arguments;
  if (hasOwn(holder, "input")) return holder.input;
  if (hasOwn(holder, "parameters")) return holder.parameters;
  return undefined;
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

/**
 * Whether a result is the runtime's refusal of a call of a tool it does not have: a thrown error whose
 * text names an unknown tool (the unknown-tool patterns), or is its own `Tool <name> not found` for a
 * name those patterns do not take (`google:search`). Such a result with no call is the runtime's
 * attempt of that call (inputs.md §2).
 */
export function refusesUnavailableTool(message: ToolResultMessage): boolean {
  const { outcome, form } = message;
  if (!("error" in outcome) || typeof outcome.error !== "string") return false;
  const text = textOf(form, outcome.error);
  return unknownToolName(text) !== undefined || toolNotFoundName(text) !== undefined;
}
