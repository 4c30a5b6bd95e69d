/**
 * What OpenClaw's messages (transcripts, trajectory snapshots) tell of a run's identity (core/
 * runIdentity.ts): the prompt of its user message, and of each reply the model (`model`) and how it
 * stopped (`stopReason`: `stop`, `toolUse`, `error` with `errorMessage`, `aborted`): the last reply's
 * stop reason is how the run ended.
 */
import type { StringForm } from "../../core/byteText.js";
import { own } from "../../core/plainObject.js";
import type { RunFacts } from "../../core/runIdentity.js";
import { messageText, stopOutcome, textField } from "../shared/messageFacts.js";
import { openclawPrompt } from "./promptText.js";

export function userFacts(message: Record<string, unknown>, form: StringForm, model: string | undefined): RunFacts {
  const prompt = openclawPrompt(messageText(own(message, "content"), form));
  return { ...(prompt !== undefined && { prompt }), ...(model !== undefined && { model }) };
}

export function assistantFacts(message: Record<string, unknown>, form: StringForm): RunFacts | undefined {
  const model = textField(message, "model", form);
  const outcome = stopOutcome(textField(message, "stopReason", form), textField(message, "errorMessage", form));
  if (model === undefined && outcome === undefined) return undefined;
  return { ...(model !== undefined && { model }), ...(outcome !== undefined && { outcome }) };
}
