/**
 * What an OpenHands evaluation instance (evalOutput.ts) tells of its one run (issue 34 §4): the task
 * (`instruction`), the model (`metadata.llm_config.model`, older outputs `metadata.model_name`), and
 * whether it ended in an error (`error`, null when it did not).
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import type { RunFacts } from "../../core/runIdentity.js";
import { promptOf, stopOutcome, textField } from "../shared/messageFacts.js";

export function instanceFacts(instance: Record<string, unknown>): RunFacts {
  const prompt = promptOf(own(instance, "instruction"));
  const metadata = own(instance, "metadata");
  const config = isPlainObject(metadata) ? own(metadata, "llm_config") : undefined;
  const model = (isPlainObject(config) ? textField(config, "model") : undefined) ?? (isPlainObject(metadata) ? textField(metadata, "model_name") : undefined);
  const error = textField(instance, "error");
  const outcome = error !== undefined ? stopOutcome(undefined, error) : undefined;
  return { ...(prompt !== undefined && { prompt }), ...(model !== undefined && { model }), ...(outcome !== undefined && { outcome }) };
}
