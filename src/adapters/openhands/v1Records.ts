/**
 * OpenHands V1 SDK events (`openhands.sdk.event`), told apart by `kind`:
 * - `ActionEvent{tool_name, tool_call_id, tool_call{id, name, arguments}, action, llm_response_id}`:
 *   a call; arguments are `tool_call.arguments` (a JSON string, parsed: agents.md rule 2), else the
 *   `action` object without its `kind`. An ActionEvent with `action: null` is a call the SDK could
 *   not turn into an action (unknown tool, bad arguments): the model still made it, and an
 *   AgentErrorEvent answers it.
 * - `ObservationEvent{tool_call_id, tool_name, observation{kind, content[], is_error, …}}`: its
 *   result, an error when `observation.is_error` (agents.md A4; `exit_code` stays in the details).
 * - `AgentErrorEvent{tool_call_id, tool_name, error}`: an error result.
 * - `UserRejectObservation{tool_call_id, rejection_reason}`: the user refused the call in
 *   confirmation mode; an error result whose text is the reason (not confirmed in a real file).
 * - `Condensation` / `CondensationSummaryEvent`: a compaction.
 * - a `MessageEvent` from the user: a user turn.
 */
import { promptOf } from "../shared/messageFacts.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { contentText, outcomeOf } from "./outcome.js";
import { eventIdOf, parsedArguments, stringField, type OpenHandsRecord } from "./recordTypes.js";

/** Kinds that carry nothing the detectors use. */
const QUIET_KINDS = new Set([
  "SystemPromptEvent",
  "ConversationStateUpdateEvent",
  "CondensationRequest",
  "PauseEvent",
  "TokenEvent",
  "LLMCompletionLogEvent",
  "ConversationErrorEvent",
  "HookExecutionEvent",
  "StreamingDeltaEvent",
]);
const COMPACTION_KINDS = new Set(["Condensation", "CondensationSummaryEvent"]);

export function classifyV1(value: Record<string, unknown>): OpenHandsRecord {
  const eventId = eventIdOf(own(value, "id"));
  const kind = own(value, "kind") as string;
  switch (kind) {
    case "ActionEvent":
      return actionEvent(value, eventId);
    case "ObservationEvent":
      return observationEvent(value, eventId);
    case "AgentErrorEvent":
      return errorResult(value, eventId, stringField(value, "error") ?? "", "AgentErrorEvent");
    case "UserRejectObservation":
      return errorResult(value, eventId, stringField(value, "rejection_reason") ?? "rejected by the user", "UserRejectObservation");
    case "MessageEvent":
      return own(value, "source") === "user" ? { kind: "user", eventId, prompt: userPrompt(value) } : { kind: "quiet", eventId };
  }
  if (COMPACTION_KINDS.has(kind)) return { kind: "compaction", eventId };
  if (QUIET_KINDS.has(kind)) return { kind: "quiet", eventId };
  return { kind: "unknown", eventId, what: `event kind ${JSON.stringify(kind)}` };
}

function actionEvent(value: Record<string, unknown>, eventId: string | undefined): OpenHandsRecord {
  const toolCall = own(value, "tool_call");
  const tool = stringField(value, "tool_name") ?? stringField(toolCall, "name");
  if (tool === undefined) return { kind: "bad", reason: 'ActionEvent without "tool_name" or "tool_call.name"' };
  const callId = stringField(value, "tool_call_id") ?? stringField(toolCall, "id");
  const args = isPlainObject(toolCall) && own(toolCall, "arguments") !== undefined ? parsedArguments(own(toolCall, "arguments")) : actionArguments(own(value, "action"));
  return { kind: "call", eventId, callId, tool, args, group: stringField(value, "llm_response_id") ?? callId };
}

function actionArguments(action: unknown): unknown {
  if (!isPlainObject(action)) return undefined;
  const { kind: _kind, ...rest } = action;
  return rest;
}

function observationEvent(value: Record<string, unknown>, eventId: string | undefined): OpenHandsRecord {
  const callId = stringField(value, "tool_call_id");
  if (callId === undefined) return { kind: "bad", reason: 'ObservationEvent without "tool_call_id"' };
  const observation = own(value, "observation");
  if (!isPlainObject(observation)) return { kind: "bad", reason: 'ObservationEvent without an "observation" object' };
  const { content, ...details } = observation;
  const outcome = outcomeOf(contentText(content), details, own(observation, "is_error") === true);
  return { kind: "result", eventId, callId, cause: undefined, tool: stringField(value, "tool_name"), outcome };
}

function errorResult(value: Record<string, unknown>, eventId: string | undefined, text: string, what: string): OpenHandsRecord {
  const callId = stringField(value, "tool_call_id");
  if (callId === undefined) return { kind: "unknown", eventId, what: `${what} without "tool_call_id" (answers no call)` };
  return { kind: "result", eventId, callId, cause: undefined, tool: stringField(value, "tool_name"), outcome: outcomeOf(text, {}, true) };
}

/** A user MessageEvent's text (`llm_message.content`: text blocks). */
function userPrompt(value: Record<string, unknown>): string | undefined {
  const message = own(value, "llm_message");
  return isPlainObject(message) ? promptOf(own(message, "content")) : undefined;
}
