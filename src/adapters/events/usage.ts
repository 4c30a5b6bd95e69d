/**
 * Usage in looplens' own events (inputs.md §1 gains it; cost.md §1): a `tool_call` may carry
 * `usage: {input, output, cacheRead, cacheWrite, total, cost}` — already the normalised fields, so
 * the mapping is one to one — and `turn`, the id of the model response that made the call. One turn
 * per distinct `turn` id within a run, else one per call; a turn's usage is counted once, the first
 * one its calls carry (a writer may repeat it on every call of the turn): core/runTurns.ts. A
 * `{"type":"turn", turn, usage}` event (what `looplens events` writes) ends the turn with its usage.
 *
 * | event (`usage.…`) | normalised   | rule                                                    |
 * |-------------------|--------------|---------------------------------------------------------|
 * | `input`           | `input`      | uncached prompt tokens; an integer ≥ 0                  |
 * | `output`          | `output`     | an integer ≥ 0                                          |
 * | `cacheRead`       | `cacheRead`  | an integer ≥ 0                                          |
 * | `cacheWrite`      | `cacheWrite` | an integer ≥ 0                                          |
 * | `total`           | `total`      | an integer ≥ 0; else the sum of the parts given         |
 * | `cost`            | `cost`       | a number ≥ 0, as given (no currency is implied)         |
 *
 * Bad shapes are not thrown: `callUsage` gives a reason for a diagnostic, and the call itself is
 * still a call (a caller replays it without usage). Unknown fields inside `usage` are ignored with a
 * notice (a misspelt field would otherwise vanish silently). `usage: null` is no usage.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { normaliseUsage, USAGE_FIELDS, type Usage } from "../../core/usage.js";

export type CallUsage =
  | { readonly ok: true; readonly usage: Usage | undefined; readonly turn: string | undefined; readonly notice?: string }
  | { readonly ok: false; readonly reason: string };

const KNOWN = new Set<string>(USAGE_FIELDS);

/** The `usage` and `turn` of a `tool_call` object (strings in `form`, as the line was parsed). */
export function callUsage(value: Record<string, unknown>, form: StringForm): CallUsage {
  const turn = turnId(own(value, "turn"), form);
  if (turn === null) return { ok: false, reason: '"turn" is not a non-blank string or a number' };
  const raw = own(value, "usage");
  if (raw === undefined || raw === null) return { ok: true, usage: undefined, turn };
  if (!isPlainObject(raw)) return { ok: false, reason: `"usage" is not an object {${USAGE_FIELDS.join(", ")}}` };
  for (const field of USAGE_FIELDS) {
    const problem = fieldProblem(field, own(raw, field));
    if (problem !== undefined) return { ok: false, reason: problem };
  }
  const unknown = Object.keys(raw).filter((key) => !KNOWN.has(key));
  const usage = normaliseUsage(raw);
  if (unknown.length === 0) return { ok: true, usage, turn };
  const names = unknown.slice(0, 3).map((key) => quote(textOf(form, key))).join(", ");
  return { ok: true, usage, turn, notice: `"usage" field${unknown.length === 1 ? "" : "s"} ${names}${unknown.length > 3 ? ", …" : ""} not one of ${USAGE_FIELDS.join(", ")}; ignored` };
}

/** `undefined`: no turn given; `null`: a turn that is no id. */
function turnId(value: unknown, form: StringForm): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  // Trimmed, as canonical events trim their other ids.
  const text = textOf(form, value).trim();
  return text === "" ? null : text;
}

function fieldProblem(field: (typeof USAGE_FIELDS)[number], value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (field === "cost") {
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? undefined : '"usage.cost" is not an amount (a number ≥ 0)';
  }
  return Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : `"usage.${field}" is not a token count (an integer ≥ 0)`;
}
