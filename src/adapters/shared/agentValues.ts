/** Small readings of other agents' records that every agents' adapter makes the same way (agents.md). */
import type { StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { parseJsonIn } from "../io/jsonBytes.js";

/** Rule 2: a JSON-string argument is parsed; a string that is not JSON stays a string. */
export function parsedArguments(value: unknown): unknown {
  return parsedArgumentsIn("text", value).value;
}

/** `parsedArguments` of a value whose strings are in `form`, with the form of the arguments' strings (io/jsonBytes.ts `parseJsonIn`). */
export function parsedArgumentsIn(form: StringForm, value: unknown): { readonly value: unknown; readonly form: StringForm } {
  return (typeof value === "string" ? parseJsonIn(form, value) : undefined) ?? { value, form };
}

/** Rule 1: a result's text — a string as is, or the text of `{type:"text", text}` blocks joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (isPlainObject(block) && own(block, "type") === "text" && typeof own(block, "text") === "string") texts.push(block.text as string);
  }
  return texts.join("\n");
}
