/** Small readings of other agents' records that every agents' adapter makes the same way (agents.md). */
import { isPlainObject, own } from "../../core/plainObject.js";

/** Rule 2: a JSON-string argument is parsed; a string that is not JSON stays a string. */
export function parsedArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
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
