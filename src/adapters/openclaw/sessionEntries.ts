/**
 * One line of a pi session transcript (format v3), classified the same way by both passes of the
 * session adapter: the header `{type:"session", version, id, …}`, an entry `{type, id, parentId,
 * timestamp, …}`, a blank line, or a bad one.
 */
import { recordedTime } from "../shared/recordedTime.js";
import { textOf, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { parseObjectLine, type ObjectLine } from "../adapter.js";
import { parseObjectBytes, type ObjectBytesLine } from "../io/jsonBytes.js";
import type { LineProblem } from "../io/lineSource.js";
import { customRunMarker, type RunMarker } from "./runNaming.js";

/**
 * `form` (see jsonBytes.ts) is the form of the entry's strings: byte strings when the line was parsed
 * from its bytes as latin1; `type` is always text.
 */
export type SessionLine =
  | { readonly kind: "blank" }
  | { readonly kind: "bad"; readonly reason: string }
  | { readonly kind: "header"; readonly value: Record<string, unknown>; readonly notice?: string; readonly form: StringForm }
  | { readonly kind: "entry"; readonly type: string; readonly value: Record<string, unknown>; readonly notice?: string; readonly form: StringForm };

/** `notice` (see parseJsonLine) is set on headers and entries whose bytes were not all UTF-8. */
export function classifySessionLine(text: string, terminated: boolean, problem?: LineProblem): SessionLine {
  return classified(parseObjectLine(text, terminated, problem), "text");
}

/** The same from the line's bytes (jsonBytes.ts). */
export function classifySessionBytes(bytes: Buffer, start: number, end: number, terminated: boolean, tooLong?: number): SessionLine {
  const line = parseObjectBytes(bytes, start, end, terminated, tooLong);
  return classified(line, line.kind === "object" ? line.form : "text");
}

function classified(line: ObjectLine | ObjectBytesLine, form: StringForm): SessionLine {
  if (line.kind !== "object") return line;
  const { value, notice } = line;
  const withNotice = notice !== undefined ? { notice } : {};
  const rawType = own(value, "type");
  if (typeof rawType !== "string" || rawType === "") return { kind: "bad", reason: 'entry without "type"' };
  const type = textOf(form, rawType);
  if (type === "session") return { kind: "header", value, form, ...withNotice };
  return { kind: "entry", type, value, form, ...withNotice };
}

/** The `message` object of a message entry, if it has one with a role. */
export function entryMessage(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  const message = own(entry, "message");
  return isPlainObject(message) && typeof own(message, "role") === "string" ? message : undefined;
}

/** What an entry means for run naming: a user message, a bootstrap or prompt-error custom entry. */
export function entryRunMarker(line: number, type: string, entry: Record<string, unknown>, form: StringForm): RunMarker | undefined {
  if (type === "message") return entryMessage(entry)?.role === "user" ? { kind: "user", line } : undefined;
  if (type === "custom") return customRunMarker(line, own(entry, "customType"), own(entry, "data"), form);
  return undefined;
}

/** Entry types of the format that replay has no use for: skipped silently. */
export const QUIET_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "model_change",
  "thinking_level_change",
  "label",
  "custom_message",
  "branch_summary",
  "session_info",
  "reset",
]);

/** Message roles other than user/assistant/toolResult that pi writes: not tool activity. */
export const QUIET_MESSAGE_ROLES: ReadonlySet<string> = new Set(["bashExecution", "custom", "branchSummary", "compactionSummary", "hookMessage", "system"]);

/** When an entry was written: its own `timestamp` (ISO), else its message's (epoch ms); dates a run (`--since`). */
export function entryTime(entry: Record<string, unknown>, message?: Record<string, unknown>): string | number | undefined {
  return recordedTime(entry) ?? recordedTime(message);
}
