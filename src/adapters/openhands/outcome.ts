/**
 * What an OpenHands tool returned, in the canonical shape the generic hash reads (agents.md rule 1):
 * a result `{content:[{type:"text", text}], details}` or an error `{error: text}` (rule 3), plus the
 * tool an error names as unavailable in OpenHands' own words.
 */
import { contentText } from "../shared/agentValues.js";
import { unknownToolName } from "../../core/hashing.js";
import { isPlainObject } from "../../core/plainObject.js";

export type Outcome = { readonly error: string } | { readonly result: { readonly content: ReadonlyArray<{ type: "text"; text: string }>; readonly details: unknown } };

/**
 * Fields of an observation's structured result that change from one run of the same command to the
 * next without saying anything about progress: the shell's pid and the sandbox's host name (V0
 * `extras.metadata`, V1 `observation.metadata`), and times. Dropped at any depth before hashing.
 */
export const VOLATILE_FIELDS: ReadonlySet<string> = new Set([
  "pid",
  "hostname",
  "timestamp",
  "duration",
  "duration_ms",
  "duration_s",
  "elapsed",
  "elapsed_time",
  "start_time",
  "end_time",
  "created_at",
  "updated_at",
]);

/**
 * OpenHands' own "no such tool" messages (the tool name is group 1):
 * - V1 SDK (openhands-sdk/openhands/sdk/agent/agent.py, when the model names a tool the agent
 *   lacks; written as an AgentErrorEvent with the call's tool_call_id): `Tool 'X' not found. Available: [...]`
 * - V0 CodeAct (openhands/agenthub/codeact_agent/function_calling.py, FunctionCallNotExistsError;
 *   the agent controller writes its text as an ErrorObservation, with no action before it):
 *   `Tool X is not registered. (arguments: {...}). Please check the tool name and retry with an existing tool.`
 * Read from the source; the real samples (3 V0 trajectories, 1 V1 stream) hold neither.
 */
export const UNKNOWN_TOOL_MESSAGES: readonly RegExp[] = [/^\s*Tool '([^']+)' not found\b/, /^\s*Tool (\S+) is not registered\b/];

/** The tool an error names as unavailable: OpenHands' own message first, then OpenClaw's patterns (detection.md). */
export function unknownToolIn(text: string): string | undefined {
  for (const pattern of UNKNOWN_TOOL_MESSAGES) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].toLowerCase();
  }
  return unknownToolName(text);
}

/** A copy without the volatile fields, at any depth. */
export function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (!isPlainObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!VOLATILE_FIELDS.has(key)) kept[key] = withoutVolatile(inner);
  return kept;
}

export { contentText };


export function outcomeOf(text: string, details: unknown, failed: boolean): Outcome {
  if (failed) return { error: text };
  return { result: { content: [{ type: "text", text }], details: isPlainObject(details) ? withoutVolatile(details) : {} } };
}

/** The unknown tool an error outcome names, if any. */
export function unknownToolOf(outcome: Outcome): string | undefined {
  return "error" in outcome ? unknownToolIn(outcome.error) : undefined;
}
