/**
 * What an OpenHands event means to replay, whichever version wrote it (agents.md A4), and the small
 * field readers both versions' classifiers share (v0Records.ts, v1Records.ts).
 */
import { parsedArguments } from "../shared/agentValues.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import type { Outcome } from "./outcome.js";

export type OpenHandsRecord =
  /** A real user turn: a V0 `message` action from the user, a V1 user `MessageEvent`. */
  | { readonly kind: "user"; readonly eventId: string | undefined; /** What the user wrote (issue 34 §4). */ readonly prompt: string | undefined }
  | CallRecord
  | ResultRecord
  /** A V0 error observation caused by no action: a call the model attempted that never became one. */
  | { readonly kind: "orphanError"; readonly eventId: string | undefined; readonly text: string }
  /** V0 `condensation` action / `condense` observation, V1 `Condensation` / `CondensationSummaryEvent`. */
  | { readonly kind: "compaction"; readonly eventId: string | undefined }
  /** A known event that replay does not need (state changes, system prompts, agent messages…). */
  | { readonly kind: "quiet"; readonly eventId: string | undefined }
  /** An event of a kind this adapter does not know: ignored, with a diagnostic. */
  | { readonly kind: "unknown"; readonly eventId: string | undefined; readonly what: string }
  | { readonly kind: "bad"; readonly reason: string };

export interface CallRecord {
  readonly kind: "call";
  readonly eventId: string | undefined;
  readonly callId: string | undefined;
  readonly tool: string;
  readonly args: unknown;
  /** The model response the call came from: the calls of one response are replayed in turn. */
  readonly group: string | undefined;
  /** V0 `delegate` action: the events until its observation are the sub-agent's (its agent type). */
  readonly delegate?: string;
  /** The model that answered (V0 `tool_call_metadata.model_response.model`), when recorded. */
  readonly model?: string;
}

export interface ResultRecord {
  readonly kind: "result";
  readonly eventId: string | undefined;
  /** The call's tool-call id (V1, and V0 observations that carry `tool_call_metadata`). */
  readonly callId: string | undefined;
  /** V0: the id of the action that caused it. */
  readonly cause: string | undefined;
  readonly tool: string | undefined;
  readonly outcome: Outcome;
}

/** A string id, or a number (V0 ids) as text; anything else is none. */
export function eventIdOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A time without a zone (what OpenHands writes), to the minute or finer. */
const ZONELESS_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/**
 * An event's `timestamp`. OpenHands writes `datetime.now().isoformat()`: the server's local time
 * without a zone ("2025-01-20T20:29:13.519638"). It is read as UTC — OpenHands runs in containers,
 * on UTC unless set otherwise — rather than in the zone of whoever runs looplens, which would date
 * the same run differently on every machine. A time that names its zone is kept as written.
 */
export function zonelessTime(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return ZONELESS_TIME.test(value) ? `${value}Z` : value;
}

/** A non-blank string field. */
export function stringField(holder: unknown, key: string): string | undefined {
  if (!isPlainObject(holder)) return undefined;
  const value = own(holder, key);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

export { parsedArguments };

