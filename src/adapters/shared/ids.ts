/**
 * Ids as every format reads them: a non-blank string, or a number (which some JSON writers emit for
 * ids) as its text. Whether surrounding blanks are part of the id is the format's rule, so it is
 * said at each call: canonical events trim theirs (inputs.md §1: run ids are trimmed, and so are the
 * ids that link results), OpenClaw's entries keep theirs as written (the runtime compares them so).
 */
import { textOf, type StringForm } from "../../core/byteText.js";

export type IdBlanks = "trim" | "keep";

export function idText(value: unknown, form: StringForm, blanks: IdBlanks): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return undefined;
  const text = textOf(form, value);
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return blanks === "trim" ? trimmed : text;
}
