/**
 * Short previews of a call's arguments (`action=poll sessionId=p9`) and outcome (the result's first
 * text, or `error: …`) for `looplens explain`. Only a bounded prefix of the input is ever looked at,
 * so a multi-megabyte argument costs no more than a short one. The text is NOT sanitised here: it
 * is untrusted, and the reporters clean it for the output they write.
 */
import { textOf, type StringForm } from "../core/byteText.js";
import { contentText } from "../core/hashing.js";
import { formOf, type ToolResultEvent } from "../core/events.js";
import { isPlainObject } from "../core/plainObject.js";

export const PREVIEW_CHARS = 80;

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();

function cut(text: string, width = PREVIEW_CHARS): string {
  const short = squeeze(text.length > width * 4 ? text.slice(0, width * 4) : text);
  return short.length <= width ? short : `${short.slice(0, width - 1)}…`;
}

/** A value as it reads in a preview: strings bare, anything else as (cut) JSON. */
function valueText(value: unknown, form: StringForm): string {
  if (typeof value === "string") return textOf(form, value.length > PREVIEW_CHARS * 4 ? value.slice(0, PREVIEW_CHARS * 4) : value);
  if (value === undefined) return "";
  const json = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "string" ? textOf(form, inner.slice(0, PREVIEW_CHARS)) : inner));
  return json === undefined ? String(value) : json;
}

/** `key=value key=value` for an object, the value itself otherwise; `(no arguments)` when absent. */
export function argsPreview(args: unknown, form: StringForm): string {
  if (args === undefined) return "(no arguments)";
  if (!isPlainObject(args)) return cut(valueText(args, form));
  let text = "";
  for (const [name, value] of Object.entries(args)) {
    text += `${text === "" ? "" : " "}${name}=${valueText(value, form)}`;
    if (text.length > PREVIEW_CHARS) break;
  }
  return cut(text === "" ? "{}" : text);
}

/** The outcome's first text (or `error: …`), cut. */
export function outcomePreview(event: ToolResultEvent): string {
  const form = formOf(event);
  if (event.error !== undefined) return cut(`error: ${valueText(event.error, form)}`);
  const result = event.result;
  if (result === undefined) return "(no result)";
  if (isPlainObject(result)) {
    const text = contentText(result, form);
    if (text !== "") return cut(textOf(form, text));
  }
  return cut(valueText(result, form));
}
