/**
 * Whether a result is the runtime's refusal of a call of a tool it does not have: a thrown error
 * whose text names an unknown tool (the unknown-tool patterns), or is OpenClaw's own
 * `Tool <name> not found` for a name those patterns do not take (`google:search`). Such a result with
 * no call is the runtime's attempt of that call (inputs.md §2): transcriptReplay.ts and
 * openclaw/trajectorySnapshots.ts replay it as a call of its tool. Codex rollouts, read through the
 * same transcript replay, keep the rule.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { unknownToolName } from "../../core/hashing.js";
import { toolNotFoundName } from "../../core/toolNotFound.js";
import type { Outcome } from "./runFacts.js";

export function refusesUnavailableTool(result: { readonly outcome: Outcome; readonly form: StringForm }): boolean {
  const { outcome, form } = result;
  if (!("error" in outcome) || typeof outcome.error !== "string") return false;
  const text = textOf(form, outcome.error);
  return unknownToolName(text) !== undefined || toolNotFoundName(text) !== undefined;
}
