/**
 * A Claude Code `tool_result` block as the detectors see it (agents.md rules 1 and 3):
 * - an error (`is_error: true`) is the error outcome, its text being the result's text;
 * - anything else is the result `{content: [{type: "text", text}], details}`, `text` being the
 *   block's text (string content as is, text blocks joined by newlines) and `details` the line's
 *   `toolUseResult` object without its volatile fields, else `{}`; the generic hash then covers
 *   `{details, text}`.
 * An error that is Claude Code's own "no such tool" message also names the tool for the
 * unknown-tool detector (`unknownTool`).
 */
import { textOf } from "../../core/byteText.js";
import { contentText } from "../shared/agentValues.js";
import { isPlainObject } from "../../core/plainObject.js";
import type { ToolResultBlock } from "./claudeLines.js";

export type ClaudeOutcome =
  | { readonly error: string; readonly unknownTool?: string }
  | {
      readonly result: { readonly content: ReadonlyArray<{ type: "text"; text: string }>; readonly details: Record<string, unknown> };
      /** Set when the result's strings are byte strings (the line was parsed from its bytes): only hashing reads them. */
      readonly form?: "bytes";
    };

/**
 * Fields of `toolUseResult` that differ between two runs of the same call with the same outcome:
 * timings (Bash/Grep/Glob/WebFetch `durationMs`, WebSearch `durationSeconds`, Task
 * `totalDurationMs`), token usage of a sub-agent (Task `usage`, `totalTokens`), and the ids the
 * harness makes up per run (a sub-agent's `agentId`, a background shell's `backgroundTaskId` /
 * `shellId` / `bashId`, a `pid`), plus any `timestamp`. Only top-level fields are dropped: nested
 * ones belong to what the tool returned (e.g. a file's own content).
 */
export const VOLATILE_RESULT_FIELDS: ReadonlySet<string> = new Set([
  "durationMs",
  "durationSeconds",
  "totalDurationMs",
  "timestamp",
  "startTime",
  "endTime",
  "usage",
  "totalTokens",
  "agentId",
  "backgroundTaskId",
  "shellId",
  "bashId",
  "pid",
]);

/**
 * Claude Code's own error text for a call to a tool it does not have (real transcripts:
 * `<tool_use_error>Error: No such tool available: Foo</tool_use_error>`). OpenClaw's two patterns
 * (`Unknown tool: x`, `tool x not found`) are applied by the core to every error text as well.
 */
export const UNKNOWN_TOOL_MESSAGES: readonly RegExp[] = [/No such tool available:\s*([^\s<>"']+)/];

export function unknownToolIn(text: string): string | undefined {
  for (const pattern of UNKNOWN_TOOL_MESSAGES) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** The text of a result's content (shared/agentValues.ts). */
export const resultText = contentText;


/** `toolUseResult` without its volatile fields; a string (errors) or nothing is `{}`. */
export function resultDetails(toolUseResult: unknown): Record<string, unknown> {
  if (!isPlainObject(toolUseResult)) return {};
  const details: Record<string, unknown> = {};
  for (const key of Object.keys(toolUseResult)) if (!VOLATILE_RESULT_FIELDS.has(key)) details[key] = toolUseResult[key];
  return details;
}

/**
 * The outcome of one block; `toolUseResult` is the line's, given only when the line holds this block
 * alone. An error's text is always text (its message is matched against the unknown-tool patterns,
 * and errors are few); a result keeps the form of the line's strings.
 */
export function outcomeOf(block: ToolResultBlock, toolUseResult: unknown): ClaudeOutcome {
  const text = resultText(block.content);
  if (block.isError) {
    const error = textOf(block.form, text);
    const unknownTool = unknownToolIn(error);
    return unknownTool === undefined ? { error } : { error, unknownTool };
  }
  const result = { content: [{ type: "text" as const, text }], details: resultDetails(toolUseResult) };
  return block.form === "bytes" ? { result, form: "bytes" } : { result };
}
