/**
 * One line of a Codex CLI rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`):
 * `{timestamp, ordinal?, type, payload}` where `type` is a `RolloutItem` kind (openai/codex
 * codex-rs/history) — classified into what replay needs. Classification only reads the line; what
 * follows from it (runs, copies, held-back results) is the reader's business (rolloutAdapter.ts).
 *
 * A line may come parsed from its bytes (`form: "bytes"`, io/jsonBytes.ts): ids, names and turn ids
 * are turned into text here, and a session_meta payload as a whole (one a file, read for names);
 * arguments and outputs keep their form for hashing, a JSON-string one parsed in that form
 * (`parseJsonIn`), which may make it text. Type tags are ASCII, the same in both forms.
 */
import type { RunOutcome } from "../../core/runIdentity.js";
import { promptOf } from "../shared/messageFacts.js";
import { parsedArguments, parsedArgumentsIn } from "../shared/agentValues.js";
import { textOf, trimIn, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { valueAsText } from "../io/jsonBytes.js";

/** Every `RolloutItem` kind known to the newest build (codex-rs/history/src/lib.rs). */
export const ROLLOUT_ITEM_TYPES: ReadonlySet<string> = new Set([
  "session_meta",
  "response_item",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
  "compacted",
  "turn_context",
  "token_usage_record",
  "world_state",
  "security_risk_score",
  "retained_context",
  "event_msg",
  "realtime_item",
]);

/** Response items that are executed tool calls, and the tool name replay gives those without one. */
const CALL_ITEMS: ReadonlyMap<string, string | undefined> = new Map([
  ["function_call", undefined],
  ["custom_tool_call", undefined],
  ["local_shell_call", "local_shell"],
  ["tool_search_call", "tool_search"],
]);

const OUTPUT_ITEMS: ReadonlySet<string> = new Set(["function_call_output", "custom_tool_call_output", "tool_search_output"]);

export type RolloutRecord =
  | { readonly kind: "sessionMeta"; readonly meta: Record<string, unknown> }
  | { readonly kind: "call"; readonly id: string | undefined; readonly tool: string; readonly args: unknown; /** Of the strings of `args`. */ readonly form: StringForm }
  | { readonly kind: "output"; readonly id: string; readonly output: unknown; /** Of the strings of `output`. */ readonly form: StringForm }
  | { readonly kind: "userMessage"; /** What the user typed (issue 34 §4). */ readonly prompt: string | undefined }
  | { readonly kind: "turnStart"; readonly turnId: string; readonly model: string | undefined }
  /** A `turn_context` without a turn id (older builds): the model of the turn. */
  | { readonly kind: "turnModel"; readonly model: string | undefined }
  | { readonly kind: "turnEnd"; /** How the turn ended: completed, aborted (`turn_aborted`), or with an error. */ readonly outcome: RunOutcome }
  | { readonly kind: "compacted" }
  | { readonly kind: "contextCompacted" }
  | { readonly kind: "execEnd"; readonly id: string; readonly exitCode: number | undefined }
  /** A known kind replay does not need (messages, reasoning, token counts, hosted tools, …). */
  | { readonly kind: "other" }
  | { readonly kind: "bad"; readonly reason: string };

const OTHER: RolloutRecord = { kind: "other" };

/** A string value in `form`, trimmed, as text; undefined when it is not a string or blank. */
function nonBlank(value: unknown, form: StringForm): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = trimIn(form, value);
  return trimmed === "" ? undefined : textOf(form, trimmed);
}

export { parsedArguments };

function callRecord(type: string, payload: Record<string, unknown>, form: StringForm): RolloutRecord {
  const tool = nonBlank(own(payload, "name"), form) ?? CALL_ITEMS.get(type);
  if (tool === undefined) return { kind: "bad", reason: `${type} without a "name"; not replayed` };
  const id = nonBlank(own(payload, "call_id"), form);
  const args = type === "local_shell_call" ? { value: own(payload, "action"), form } : parsedArgumentsIn(form, own(payload, type === "custom_tool_call" ? "input" : "arguments"));
  return { kind: "call", id, tool, args: args.value, form: args.form };
}

function outputRecord(type: string, payload: Record<string, unknown>, form: StringForm): RolloutRecord {
  const id = nonBlank(own(payload, "call_id"), form);
  if (id === undefined) return { kind: "bad", reason: `${type} without a "call_id"; it answers no call` };
  // A tool search answers with the tools it found: they are its structured result.
  const output = type === "tool_search_output" ? toolSearchOutput(payload) : own(payload, "output");
  return { kind: "output", id, output, form };
}

/**
 * A tool search's result: no text, its status and found tools as the details (a JSON envelope).
 * Its strings keep the line's form: `JSON.stringify` escapes no char above U+007F but lone
 * surrogates, which a byte string has none of.
 */
function toolSearchOutput(payload: Record<string, unknown>): string {
  return JSON.stringify({ output: "", metadata: { status: own(payload, "status"), tools: own(payload, "tools") } });
}

function responseItem(payload: Record<string, unknown>, form: StringForm): RolloutRecord {
  const type = own(payload, "type");
  if (typeof type !== "string") return { kind: "bad", reason: 'response_item without a "type"' };
  if (CALL_ITEMS.has(type)) return callRecord(type, payload, form);
  if (OUTPUT_ITEMS.has(type)) return outputRecord(type, payload, form);
  // Messages, reasoning, ghost snapshots; web search and image generation run on OpenAI's side
  // (no call_id, no output item): not calls the CLI executed.
  return OTHER;
}

function eventMessage(payload: Record<string, unknown>, form: StringForm): RolloutRecord {
  switch (own(payload, "type")) {
    case "user_message":
      return { kind: "userMessage", prompt: promptOf(own(payload, "message"), form) };
    case "task_started": {
      const turnId = nonBlank(own(payload, "turn_id"), form);
      return turnId === undefined ? OTHER : { kind: "turnStart", turnId, model: undefined };
    }
    case "task_complete": {
      const error = own(payload, "error");
      const message = isPlainObject(error) ? nonBlank(own(error, "message"), form) : undefined;
      return { kind: "turnEnd", outcome: message !== undefined ? { kind: "error", message } : { kind: "stopped", reason: "complete" } };
    }
    case "turn_aborted":
      return { kind: "turnEnd", outcome: { kind: "aborted" } };
    case "context_compacted":
      return { kind: "contextCompacted" };
    case "exec_command_end": {
      const id = nonBlank(own(payload, "call_id"), form);
      const code = own(payload, "exit_code");
      return id === undefined ? OTHER : { kind: "execEnd", id, exitCode: typeof code === "number" ? code : undefined };
    }
    default:
      return OTHER;
  }
}

/** Classifies a parsed line (a JSON object, its strings in `form`) of a rollout. */
export function classifyRolloutLine(value: Record<string, unknown>, form: StringForm): RolloutRecord {
  const type = own(value, "type");
  if (typeof type !== "string") return { kind: "bad", reason: type === undefined ? 'missing "type"' : '"type" is not a string' };
  if (!ROLLOUT_ITEM_TYPES.has(type)) return { kind: "bad", reason: `unknown rollout item type ${quote(textOf(form, type))}` };
  const payload = own(value, "payload");
  if (!isPlainObject(payload)) return { kind: "bad", reason: `${type} without a "payload" object` };
  switch (type) {
    case "session_meta":
      return { kind: "sessionMeta", meta: valueAsText(form, payload) };
    case "response_item":
      return responseItem(payload, form);
    case "event_msg":
      return eventMessage(payload, form);
    case "turn_context": {
      const turnId = nonBlank(own(payload, "turn_id"), form);
      const model = nonBlank(own(payload, "model"), form);
      return turnId === undefined ? { kind: "turnModel", model } : { kind: "turnStart", turnId, model };
    }
    case "compacted":
      return { kind: "compacted" };
    default:
      return OTHER;
  }
}

/** A line that looks like a rollout line: a known item kind with a payload object. */
export function looksLikeRollout(sample: unknown): boolean {
  return isPlainObject(sample) && ROLLOUT_ITEM_TYPES.has(own(sample, "type") as string) && isPlainObject(own(sample, "payload"));
}
