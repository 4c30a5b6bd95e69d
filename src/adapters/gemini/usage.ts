/**
 * What a Gemini CLI model turn used (cost.md §1): a `gemini` message record's `tokens`
 * (`chatRecordingService.ts`, from the API's `usageMetadata`). A record is written again, whole,
 * each time its tool calls update (records.ts), so a turn is known by the record's `id`: the caller
 * counts each id once (its copies carry the same tokens). A record without `id` is a turn of its own.
 *
 * | Gemini CLI (`tokens.…`) | from the API's               | normalised                          |
 * |-------------------------|------------------------------|-------------------------------------|
 * | `input`                 | `promptTokenCount`           | `input` = input − cached + tool     |
 * | `cached`                | `cachedContentTokenCount`    | `cacheRead` (part of `input`)       |
 * | `tool`                  | `toolUsePromptTokenCount`    | in `input`: prompt tokens of tool   |
 * |                         |                              | results, not part of `input` above  |
 * | `output`                | `candidatesTokenCount`       | `output` = output + thoughts        |
 * | `thoughts`              | `thoughtsTokenCount`         | in `output`: generated tokens       |
 * | `total`                 | `totalTokenCount`            | `total`                             |
 * | (none)                  |                              | `cost`: not recorded, absent        |
 *
 * Real records satisfy total = input + output + thoughts + tool (cached being part of input), so
 * the normalised parts add up to the recorded total. Nothing records cache writes.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { idText } from "../shared/ids.js";
import { normaliseUsage, recordedNumber, uncachedInput, type Usage } from "../../core/usage.js";
import { MODEL_TYPE } from "./records.js";

/** The sum of the counts recorded among `values`; `undefined` when none is. */
function recordedSum(...values: unknown[]): number | undefined {
  let sum: number | undefined;
  for (const value of values) {
    const count = recordedNumber(value);
    if (count !== undefined) sum = (sum ?? 0) + count;
  }
  return sum;
}

/** A record's `tokens` object; `undefined` when it records nothing usable. */
export function geminiUsage(tokens: unknown): Usage | undefined {
  if (!isPlainObject(tokens)) return undefined;
  const cached = recordedNumber(own(tokens, "cached"));
  const prompt = recordedSum(own(tokens, "input"), own(tokens, "tool"));
  return normaliseUsage({
    input: uncachedInput(prompt, cached),
    cacheRead: cached,
    output: recordedSum(own(tokens, "output"), own(tokens, "thoughts")),
    total: own(tokens, "total"),
  });
}

/** A `gemini` message record's turn: its id and usage; `undefined` for any other record. */
export function geminiTurn(message: Record<string, unknown>): { readonly id: string | undefined; readonly usage: Usage | undefined } | undefined {
  if (own(message, "type") !== MODEL_TYPE) return undefined;
  return { id: idText(own(message, "id"), "text", "keep"), usage: geminiUsage(own(message, "tokens")) };
}
