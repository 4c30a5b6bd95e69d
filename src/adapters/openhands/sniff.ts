/**
 * Recognises OpenHands events from a file's first meaningful lines (parsed JSON, or raw text for a
 * pretty-printed document). A wrong guess is worse than "not recognised", so each shape asks for
 * fields the other formats never have together: V0 an `action` or `observation` name with a
 * `source` of agent/user/environment; V1 a known event `kind` with such a `source`. Canonical
 * events and OpenClaw lines have `type`; Gateway logs are tslog objects.
 */
import { isPlainObject, own } from "../../core/plainObject.js";

const SOURCES = new Set(["agent", "user", "environment", "hook"]);

/** V1 event classes seen in real files and the SDK (event/…); other `*Event` names count too. */
const V1_KIND = /^(ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent|AgentErrorEvent|ConversationStateUpdateEvent|UserRejectObservation|Condensation|CondensationRequest|CondensationSummaryEvent|PauseEvent|[A-Z][A-Za-z]*Event)$/;

export function isOpenHandsEvent(value: unknown): boolean {
  if (!isPlainObject(value) || own(value, "type") !== undefined) return false;
  const source = own(value, "source");
  if (typeof source !== "string" || !SOURCES.has(source)) return false;
  const kind = own(value, "kind");
  if (typeof kind === "string") return V1_KIND.test(kind);
  return typeof own(value, "action") === "string" || typeof own(value, "observation") === "string";
}

/** Raw lines of a pretty-printed event or trajectory: `"source": "agent"` plus an action, observation or kind. */
function looksLikePrettyEvents(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  if (!/"source":\s*"(agent|user|environment)"/.test(text)) return false;
  return /"(action|observation)":\s*"[a-z_]+"/.test(text) || /"kind":\s*"[A-Z][A-Za-z]*(Event|Observation|Condensation)"/.test(text);
}

export function sniffOpenHands(samples: readonly unknown[]): boolean {
  const first = samples[0];
  if (first === undefined) return false;
  if (Array.isArray(first)) return first.length > 0 && isOpenHandsEvent(first[0]);
  if (typeof first !== "string") return isOpenHandsEvent(first);
  // A document over many lines: its lines are not JSON on their own.
  return looksLikePrettyEvents(samples.filter((s): s is string => typeof s === "string").join("\n"));
}
