/**
 * OpenHands V0 events (`openhands/events/serialization`): an action
 * `{id, source, action, args, tool_call_metadata:{function_name, tool_call_id, model_response,
 * total_calls_in_response}}` is a tool call when it carries `tool_call_metadata` (the model asked
 * for it); an observation `{id, cause, observation, content, extras, success?}` is the result of the
 * action whose id is its `cause`.
 *
 * Arguments: the model's own arguments for that tool call (`model_response.choices[].message.
 * tool_calls[]`, matched by `tool_call_id`, a JSON string parsed), which is what the model sent and
 * what a repeat repeats. Without them, the action's `args` without `thought` (the model's prose,
 * which differs between otherwise identical calls).
 *
 * Errors (agents.md A4): `observation: "error"`, `success: false`, or `extras.metadata.exit_code`
 * non-zero (-1 is a command still running when its timeout hit, which OpenHands also marks
 * `success: false`).
 */
import { promptOf } from "../shared/messageFacts.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { contentText, outcomeOf } from "./outcome.js";
import { eventIdOf, parsedArguments, stringField, type OpenHandsRecord } from "./recordTypes.js";

/** Actions and observations that carry nothing the detectors use. */
const QUIET_ACTIONS = new Set(["message", "system", "change_agent_state", "recall", "null", "condensation_request", "think"]);
const COMPACTION_ACTIONS = new Set(["condensation"]);
const COMPACTION_OBSERVATIONS = new Set(["condense"]);

export function classifyV0(value: Record<string, unknown>): OpenHandsRecord {
  const eventId = eventIdOf(own(value, "id"));
  const action = own(value, "action");
  const observation = own(value, "observation");
  if (typeof action === "string") return actionRecord(value, action, eventId);
  if (typeof observation === "string") return observationRecord(value, observation, eventId);
  return { kind: "bad", reason: 'neither an OpenHands V0 event ("action" / "observation") nor a V1 event ("kind")' };
}

function actionRecord(value: Record<string, unknown>, action: string, eventId: string | undefined): OpenHandsRecord {
  const metadata = own(value, "tool_call_metadata");
  if (isPlainObject(metadata)) {
    const tool = stringField(metadata, "function_name");
    if (tool === undefined) return { kind: "bad", reason: 'tool_call_metadata without a "function_name"' };
    const callId = stringField(metadata, "tool_call_id");
    const response = own(metadata, "model_response");
    const group = isPlainObject(response) ? stringField(response, "id") : undefined;
    const args = modelArguments(response, callId) ?? actionArguments(own(value, "args"));
    const delegate = action === "delegate" ? (stringField(own(value, "args"), "agent") ?? "delegate") : undefined;
    const model = isPlainObject(response) ? stringField(response, "model") : undefined;
    return { kind: "call", eventId, callId, tool, args, group: group ?? callId, ...(delegate !== undefined ? { delegate } : {}), ...(model !== undefined && { model }) };
  }
  if (action === "message" && own(value, "source") === "user") {
    const args = own(value, "args");
    return { kind: "user", eventId, prompt: promptOf((isPlainObject(args) ? own(args, "content") : undefined) ?? own(value, "message")) };
  }
  if (COMPACTION_ACTIONS.has(action)) return { kind: "compaction", eventId };
  if (QUIET_ACTIONS.has(action)) return { kind: "quiet", eventId };
  return { kind: "unknown", eventId, what: `action ${JSON.stringify(action)} without tool_call_metadata` };
}

/** The arguments the model gave this tool call in its response, parsed; undefined when not recorded. */
function modelArguments(response: unknown, callId: string | undefined): unknown {
  if (callId === undefined || !isPlainObject(response)) return undefined;
  const choices = own(response, "choices");
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) {
    const calls = isPlainObject(choice) && isPlainObject(own(choice, "message")) ? own(own(choice, "message") as Record<string, unknown>, "tool_calls") : undefined;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      if (!isPlainObject(call) || own(call, "id") !== callId) continue;
      const fn = own(call, "function");
      if (isPlainObject(fn) && own(fn, "arguments") !== undefined) return parsedArguments(own(fn, "arguments"));
    }
  }
  return undefined;
}

function actionArguments(args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  const { thought: _thought, ...rest } = args;
  return rest;
}

function observationRecord(value: Record<string, unknown>, observation: string, eventId: string | undefined): OpenHandsRecord {
  if (COMPACTION_OBSERVATIONS.has(observation)) return { kind: "compaction", eventId };
  const cause = eventIdOf(own(value, "cause"));
  const text = contentText(own(value, "content"));
  if (cause === undefined) {
    if (observation === "error") return { kind: "orphanError", eventId, text };
    return { kind: "quiet", eventId };
  }
  const metadata = own(value, "tool_call_metadata");
  const extras = own(value, "extras");
  const outcome = outcomeOf(text, extras, failed(value, observation, extras));
  return { kind: "result", eventId, cause, callId: stringField(metadata, "tool_call_id"), tool: stringField(metadata, "function_name"), outcome };
}

function failed(value: Record<string, unknown>, observation: string, extras: unknown): boolean {
  if (observation === "error" || own(value, "success") === false) return true;
  const metadata = isPlainObject(extras) ? own(extras, "metadata") : undefined;
  const exitCode = isPlainObject(metadata) ? own(metadata, "exit_code") : undefined;
  return typeof exitCode === "number" && exitCode !== 0;
}
