/**
 * What a Codex tool output (`function_call_output` / `custom_tool_call_output` `output`) means for
 * replay: its text, its structured details and whether it failed (agents.md rules 1 and 3).
 *
 * Codex saves no success flag, so failure is read from what it does save:
 * - 0.47-era builds write `output` as a JSON *string* `{"output":"…","metadata":{"exit_code":0,
 *   "duration_seconds":0.0}}` for shell and apply_patch alike (real 0.47.0 rollout): the text is
 *   `output`, the details the parsed `metadata`, and a non-zero `exit_code` is an error.
 * - Later builds are said to write plain text `Exit code: N\nWall time: … seconds\nOutput:\n…`
 *   (not confirmed in a real file): read the same way, the wall time dropped as volatile.
 * - Newer builds write content items (`[{type:"input_text",text}]`, or one such item as an object:
 *   0.146 schema fixture); an object with `content` and `success:false` is read defensively too.
 * - An `exec_command_end` event with a non-zero `exit_code` (rolloutAdapter.ts) also makes the
 *   output of its call an error.
 * Anything else is plain text with no details.
 *
 * An output may be in byte form (the line parsed from its bytes, io/jsonBytes.ts): its text and
 * details stay byte strings for hashing, the 0.47 envelope parsed in that form (`parseJsonIn`, which
 * gives text when an escape in it makes a char above U+007F). An error keeps that form too (failed
 * commands are many: decoding each one's output for the event, then encoding it again for hashing,
 * cost 120 ms per 155 MB of rollouts); only the text of a possible "no such tool" message is decoded.
 */
import { textOf, trimBytes, type ByteString, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { parseJsonIn } from "../io/jsonBytes.js";
import type { Outcome } from "../shared/runFacts.js";

/**
 * Fields of a result's details that change from one identical run to the next (the generic hash
 * covers details, so keeping them would hide every no-progress streak).
 */
export const VOLATILE_DETAIL_FIELDS: ReadonlySet<string> = new Set([
  "duration_seconds",
  "duration",
  "duration_ms",
  "wall_time",
  "wall_time_seconds",
  "started_at",
  "completed_at",
  "timestamp",
  "pid",
  "process_id",
]);

/**
 * Codex's own answers to a call of a tool it does not have, written as the call's output text:
 * - `unsupported call: <name>` for a function call (codex-rs/core/src/tools/registry.rs,
 *   `unsupported_tool_call_message`; 0.4x builds wrote the same text from codex.rs
 *   `handle_function_call` for a name no MCP server claims);
 * - `unsupported custom tool call: <name>` for a custom (freeform) tool call (same function).
 * Read from the source, not confirmed in a real rollout (the real 0.47.0 sample has none).
 * OpenClaw's own two patterns apply as well.
 */
const UNKNOWN_TOOL_MESSAGES: readonly RegExp[] = [/^unsupported custom tool call: ?(\S+)/, /^unsupported call: ?(\S+)/];

/** The tool name a Codex "no such tool" message names, if the text is one. */
export function codexUnknownTool(text: string): string | undefined {
  for (const pattern of UNKNOWN_TOOL_MESSAGES) {
    const match = pattern.exec(text.trimStart());
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** Text and details of an output, and the exit code it reports, before deciding on failure. */
interface ReadOutput {
  readonly text: string;
  readonly details: Record<string, unknown>;
  readonly exitCode: number | undefined;
  /** An explicit `success: false` (defensive: not seen in a rollout). */
  readonly failed: boolean;
  /** Of the strings of `text` and `details`. */
  readonly form: StringForm;
}

/** Text of content items: text items joined by newline (images and other items carry no text). */
function contentText(items: readonly unknown[]): string {
  const texts: string[] = [];
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const text = own(item, "text");
    if (typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}

/** The details kept for hashing: the object without its volatile fields. */
export function stableDetails(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) return {};
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (!VOLATILE_DETAIL_FIELDS.has(key)) kept[key] = value[key];
  return kept;
}

function exitCodeOf(details: Record<string, unknown>): number | undefined {
  const code = own(details, "exit_code");
  return typeof code === "number" && Number.isFinite(code) ? code : undefined;
}

const EXIT_CODE_TEXT = /^Exit code: (-?\d+)\nWall time: [^\n]*\n(?:Total output lines: \d+\n)?Output:\n/;

/**
 * A string output: the 0.47 JSON envelope, the "Exit code:" text form, or plain text. The prefix
 * the regular expression matches is ASCII, and `[^\n]*` spans the same bytes in either form.
 */
function readString(output: string, form: StringForm): ReadOutput {
  if (output.startsWith("{")) {
    const parsed = parseJsonIn(form, output);
    if (parsed !== undefined && isPlainObject(parsed.value) && typeof own(parsed.value, "output") === "string") {
      const details = stableDetails(own(parsed.value, "metadata"));
      return { text: own(parsed.value, "output") as string, details, exitCode: exitCodeOf(details), failed: false, form: parsed.form };
    }
  }
  const exit = EXIT_CODE_TEXT.exec(output);
  if (exit) return { text: output.slice(exit[0].length), details: { exit_code: Number(exit[1]) }, exitCode: Number(exit[1]), failed: false, form };
  return { text: output, details: {}, exitCode: undefined, failed: false, form };
}

function readOutput(output: unknown, form: StringForm): ReadOutput {
  if (typeof output === "string") return readString(output, form);
  if (Array.isArray(output)) return { text: contentText(output), details: {}, exitCode: undefined, failed: false, form };
  if (isPlainObject(output)) {
    const content = own(output, "content");
    if (typeof content === "string" || Array.isArray(content)) {
      const inner = typeof content === "string" ? readString(content, form) : { text: contentText(content), details: {}, exitCode: undefined, failed: false, form };
      return { ...inner, failed: own(output, "success") === false };
    }
    // One content item written as the output itself (0.146 fixture).
    return { text: contentText([output]), details: {}, exitCode: undefined, failed: false, form };
  }
  // A number or boolean: ASCII in either form.
  return { text: output === undefined || output === null ? "" : JSON.stringify(output), details: {}, exitCode: undefined, failed: false, form };
}

/** An outcome that may name an unknown tool (copied onto the result event with the outcome). */
export type CodexOutcome = Outcome & { readonly unknownTool?: string };

/**
 * The outcome of an output whose strings are in `form`, and the form of the outcome's strings;
 * `exitCode` is the code an `exec_command_end` of the same call reported, if any.
 */
export function outputOutcome(output: unknown, exitCode: number | undefined, form: StringForm): { readonly outcome: CodexOutcome; readonly form: StringForm } {
  const read = readOutput(output, form);
  const code = read.exitCode ?? exitCode;
  const unknownTool = mayNameUnknownTool(read.text, read.form) ? codexUnknownTool(textOf(read.form, read.text)) : undefined;
  if (unknownTool !== undefined) return { outcome: { error: read.text, unknownTool }, form: read.form };
  if (read.failed || (code !== undefined && code !== 0)) return { outcome: { error: read.text }, form: read.form };
  return { outcome: { result: { content: [{ type: "text", text: read.text }], details: read.details } }, form: read.form };
}

/**
 * Whether the text (in `form`) starts, after white space, with the word Codex's "no such tool"
 * messages start with: only then is it decoded and matched. `trimBytes` removes exactly what
 * `trim()` removes from the text, so the test is the same in either form; searching every output
 * for the word instead cost 65 ms per 100 MB of outputs, decoding each one's start 70 ms.
 */
function mayNameUnknownTool(text: string, form: StringForm): boolean {
  return (form === "bytes" ? trimBytes(text as ByteString) : text.trimStart()).startsWith("unsupported");
}
