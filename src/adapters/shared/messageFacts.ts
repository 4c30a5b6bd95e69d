/**
 * What every format's messages say of a run's identity (core/runIdentity.ts), in the shapes they
 * share: a message's text (a string, or text blocks), a model name, a stop reason. The formats'
 * own fields are read by their adapters; these only turn the values into facts.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { keptPrompt, MAX_PROMPT_CHARS, type RunOutcome } from "../../core/runIdentity.js";

/** Block types that hold what a person typed (`text`; Codex's `input_text`). */
const TEXT_BLOCKS: ReadonlySet<string> = new Set(["text", "input_text"]);

/** Text a message's content is read to: a format's wrapping (openclaw/promptText.ts) comes off within it. */
const READ_CHARS = 4 * MAX_PROMPT_CHARS;

/**
 * The text of a message's content, in `form`: a string as it is, text blocks joined by a newline;
 * `undefined` when there is none. Bounded: only a line of it is ever shown.
 */
export function messageText(content: unknown, form: StringForm = "text"): string | undefined {
  if (typeof content === "string") return nonBlank(textOf(form, content.slice(0, READ_CHARS * 4)).slice(0, READ_CHARS));
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(textOf(form, block));
    else if (isPlainObject(block)) {
      const type = own(block, "type");
      const text = own(block, "text");
      if (typeof text === "string" && (type === undefined || (typeof type === "string" && TEXT_BLOCKS.has(textOf(form, type))))) parts.push(textOf(form, text));
    }
    if (parts.join("\n").length > READ_CHARS) break;
  }
  return nonBlank(parts.join("\n").slice(0, READ_CHARS));
}

/** The prompt of a user message's content, as a run keeps it (core/runIdentity.ts `keptPrompt`). */
export function promptOf(content: unknown, form: StringForm = "text"): string | undefined {
  return keptPrompt(messageText(content, form));
}

const nonBlank = (text: string) => (text.trim() === "" ? undefined : text);

/** A non-blank string field as text. */
export function textField(value: Record<string, unknown> | undefined, key: string, form: StringForm = "text"): string | undefined {
  const field = value === undefined ? undefined : own(value, key);
  if (typeof field !== "string") return undefined;
  const text = textOf(form, field).trim();
  return text === "" ? undefined : text;
}

/** Stop reasons that say the run was cut short rather than answered. */
const ABORTED = new Set(["aborted", "abort", "cancelled", "canceled", "interrupted"]);
const TIMED_OUT = new Set(["timeout", "timed_out", "timedout"]);

/**
 * How a run ended from its last response's stop reason (`stop`, `end_turn`, `toolUse`, `error`,
 * `aborted`, …) and error message, if any.
 */
export function stopOutcome(reason: string | undefined, error?: string): RunOutcome | undefined {
  const lower = reason?.toLowerCase();
  if (lower !== undefined && ABORTED.has(lower)) return { kind: "aborted" };
  if (lower !== undefined && TIMED_OUT.has(lower)) return { kind: "timeout" };
  if (lower === "error" || (reason === undefined && error !== undefined)) return { kind: "error", message: firstLine(error ?? "error") };
  return reason === undefined ? undefined : { kind: "stopped", reason };
}

/** An error message kept to its first line, bounded (it is shown as a few words). */
function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
