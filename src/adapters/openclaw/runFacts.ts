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
import { channelOf } from "./sessionStore.js";

/** A user message's prompt, with the session's model and channel so far (a reply may name the model again). */
export function userFacts(message: Record<string, unknown>, form: StringForm, model: string | undefined, channel: string | undefined): RunFacts {
  const prompt = openclawPrompt(messageText(own(message, "content"), form));
  return { ...(prompt !== undefined && { prompt }), ...(model !== undefined && { model }), ...(channel !== undefined && { channel }) };
}

export function assistantFacts(message: Record<string, unknown>, form: StringForm): RunFacts | undefined {
  const model = textField(message, "model", form);
  const outcome = stopOutcome(textField(message, "stopReason", form), textField(message, "errorMessage", form));
  if (model === undefined && outcome === undefined) return undefined;
  return { ...(model !== undefined && { model }), ...(outcome !== undefined && { outcome }) };
}

/**
 * What a trajectory's runtime line tells of its run: the channel of its `sessionKey`, the model
 * (`modelId`), the prompt a `prompt.submitted` submits (`data.prompt`), and how a `model.completed`
 * stopped (`data.stopReason`, or `data.promptError`: the prompt failed).
 */
export function trajectoryFacts(type: string, value: Record<string, unknown>, data: Record<string, unknown>): RunFacts {
  const channel = channelOf(own(value, "sessionKey"));
  const model = textField(value, "modelId");
  const prompt = type === "prompt.submitted" ? openclawPrompt(messageText(own(data, "prompt"))) : undefined;
  const promptError = textField(data, "promptError");
  const outcome = type !== "model.completed" ? undefined : promptError !== undefined ? stopOutcome("error", promptError) : stopOutcome(textField(data, "stopReason"));
  return {
    ...(channel !== undefined && { channel }),
    ...(model !== undefined && { model }),
    ...(prompt !== undefined && { prompt }),
    ...(outcome !== undefined && { outcome }),
  };
}
