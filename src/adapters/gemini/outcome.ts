/**
 * What a Gemini CLI tool call returned, from its `ToolCallRecord` (agents.md A3): the record holds
 * the call and its outcome together — `status` (validating | scheduled | executing |
 * awaiting_approval | success | error | cancelled) and `result`, the parts sent back to the model
 * (`[{functionResponse:{id, name, response:{output} | {error}}}]`, sometimes with text parts).
 *
 * Mapped as agents.md rules 1 and 3 ask:
 * - `success` → a result `{content:[{type:"text", text}], details}`: `text` is the response's
 *   `output` (and text parts) joined by newlines; `details` is whatever else the response object
 *   holds (usually nothing, so `{}`), volatile fields dropped (VOLATILE_KEYS).
 * - `error`, and `cancelled` (whose response is an `{error: "[Operation Cancelled] …"}` too), → an
 *   error whose text is the response's `error` (else its output, else the `resultDisplay` string).
 *   Gemini's own "Tool "X" not found in registry" message names the unknown tool (UNKNOWN_TOOL_MESSAGES).
 * - any other status (the session ended while the call was still queued or running) → no outcome:
 *   the call is replayed and stays pending.
 */
import { isPlainObject, own } from "../../core/plainObject.js";

export type GeminiOutcome =
  | { readonly kind: "pending" }
  | { readonly kind: "result"; readonly text: string; readonly details: Record<string, unknown> }
  | { readonly kind: "error"; readonly text: string; readonly unknownTool?: string };

const FINAL_STATUSES = new Set(["success", "error", "cancelled"]);
const ERROR_STATUSES = new Set(["error", "cancelled"]);

/**
 * Gemini CLI's own "no such tool" errors (the scheduler's message for a name the tool registry does
 * not hold, followed by a "Did you mean …?" suggestion when it has one). OpenClaw's patterns
 * (core/hashing.ts) already read the first for names in [a-z0-9_.-]; this also covers other names.
 */
export const UNKNOWN_TOOL_MESSAGES: readonly RegExp[] = [/^Tool "([^"]+)" not found in registry/, /^Tool "([^"]+)" not found\b/];

/**
 * Fields of a response object that change on every call without saying anything about progress
 * (durations, clocks, process ids); dropped at any depth of `details`.
 */
export const VOLATILE_KEYS: ReadonlySet<string> = new Set([
  "duration",
  "durationMs",
  "duration_ms",
  "elapsedMs",
  "executionTime",
  "startTime",
  "endTime",
  "timestamp",
  "pid",
  "pgid",
  "processId",
  "processGroupId",
]);

/**
 * Lines of a result text that only name processes: the shell tool (`run_shell_command`) folds its
 * structured result into the text it returns ("Output: …\nProcess Group PGID: 12345"), so the
 * process ids would make every repeat of one command look like progress. Dropped from the text.
 */
export const VOLATILE_TEXT_LINES = /^(Process Group PGID|Background PIDs): .*(\r?\n|$)/gm;

interface ResponseParts {
  readonly outputs: string[];
  readonly errors: string[];
  readonly details: Record<string, unknown>;
}

/** The outcome of a tool call record (`record` is the parsed ToolCallRecord). */
export function toolOutcome(record: Record<string, unknown>): GeminiOutcome {
  const status = own(record, "status");
  const result = own(record, "result");
  const hasResult = result !== undefined && result !== null;
  const parts = responseParts(result);
  const final = typeof status === "string" && FINAL_STATUSES.has(status);
  if (typeof status === "string" && OPEN_STATUSES.has(status)) return { kind: "pending" };
  // No status (older writers) or one not known: the result, when there is one, decides.
  if (!final && !hasResult) return { kind: "pending" };
  const failed = final ? ERROR_STATUSES.has(status as string) : parts.errors.length > 0;
  if (failed) return errorOutcome(parts, own(record, "resultDisplay"));
  return { kind: "result", text: parts.outputs.join("\n").replace(VOLATILE_TEXT_LINES, ""), details: parts.details };
}

/** The statuses a call has before it finished (scheduler/types.ts); others are unknown to us. */
const OPEN_STATUSES = new Set(["validating", "scheduled", "executing", "awaiting_approval"]);

function errorOutcome(parts: ResponseParts, display: unknown): GeminiOutcome {
  const text = parts.errors.join("\n") || parts.outputs.join("\n") || (typeof display === "string" ? display : "");
  const unknownTool = unknownToolOf(text);
  return unknownTool === undefined ? { kind: "error", text } : { kind: "error", text, unknownTool };
}

/** The tool Gemini's own "no such tool" message names, if the text is one. */
export function unknownToolOf(text: string): string | undefined {
  for (const pattern of UNKNOWN_TOOL_MESSAGES) {
    const name = pattern.exec(text)?.[1];
    if (name !== undefined && name.trim() !== "") return name;
  }
  return undefined;
}

/** `result` is a PartListUnion: a string, one part, or a list of parts. */
function responseParts(result: unknown): ResponseParts {
  const parts: ResponseParts = { outputs: [], errors: [], details: {} };
  const list = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  for (const part of list) {
    if (typeof part === "string") parts.outputs.push(part);
    else if (isPlainObject(part)) addPart(parts, part);
  }
  return parts;
}

function addPart(parts: ResponseParts, part: Record<string, unknown>): void {
  const text = own(part, "text");
  if (typeof text === "string") parts.outputs.push(text);
  const call = own(part, "functionResponse");
  if (!isPlainObject(call)) return;
  const response = own(call, "response");
  if (typeof response === "string") return void parts.outputs.push(response);
  if (!isPlainObject(response)) return;
  for (const [key, value] of Object.entries(response)) {
    if (key === "output" && typeof value === "string") parts.outputs.push(value);
    else if (key === "error" && typeof value === "string") parts.errors.push(value);
    else if (key === "error" && isPlainObject(value) && typeof own(value, "message") === "string") parts.errors.push(value.message as string);
    else if (!VOLATILE_KEYS.has(key)) parts.details[key] = withoutVolatile(value);
  }
}

/** A copy of a JSON value without VOLATILE_KEYS at any depth. */
export function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (!isPlainObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!VOLATILE_KEYS.has(key)) kept[key] = withoutVolatile(inner);
  return kept;
}
