/**
 * What makes a run recognisable to a person (issue 34 §4): when it ran, what it was asked, where
 * the request came from, which model answered and how it ended. Adapters find these in their format
 * (adapters/<format>/…) and hand them to the run writer; replay keeps them on the run (runState.ts),
 * merged from every file of the unit that says something of the run. Pure.
 */
import { eventTime } from "./eventTime.js";

/** How a run ended, where its format records it. */
export type RunOutcome =
  | { readonly kind: "stopped"; readonly reason: string }
  | { readonly kind: "aborted" }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "timeout" };

/** A run's identity as its format records it; every field absent when not recorded. */
export interface RunFacts {
  /** The run's first dated entry (ISO). */
  readonly startedAt?: string;
  /** The run's last dated entry (ISO). */
  readonly endedAt?: string;
  /** The first user prompt of the run, as recorded (reporters sanitise and clip it). */
  readonly prompt?: string;
  /** The channel or session key the run came in on (`telegram direct`, `cron`). */
  readonly channel?: string;
  readonly model?: string;
  readonly outcome?: RunOutcome;
}

/**
 * Prompts are kept to this many characters: a report shows one line of it, and a pasted file as a
 * prompt must not make every run of a transcript hold megabytes.
 */
export const MAX_PROMPT_CHARS = 400;

/** A recorded prompt as kept: trimmed, bounded; `undefined` when empty. */
export function keptPrompt(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return trimmed.length > MAX_PROMPT_CHARS ? trimmed.slice(0, MAX_PROMPT_CHARS) : trimmed;
}

/** A recorded time (ISO string, epoch ms or s) as ISO, or `undefined`. */
export function factTime(ts: string | number | undefined): string | undefined {
  return eventTime(ts) ?? undefined;
}

/**
 * `later` said of the same run after `earlier` (a later line, a later file of the unit): the run
 * starts at the earliest time and ends at the latest; the first prompt and channel stand (the run's
 * own request); the model and the outcome are the last recorded (a fallback model answered last; a
 * run ends once).
 */
export function mergeFacts(earlier: RunFacts | undefined, later: RunFacts): RunFacts {
  if (earlier === undefined) return later;
  const merged: { -readonly [K in keyof RunFacts]: RunFacts[K] } = { ...earlier };
  const startedAt = earliest(earlier.startedAt, later.startedAt);
  if (startedAt !== undefined) merged.startedAt = startedAt;
  const endedAt = latest(earlier.endedAt, later.endedAt);
  if (endedAt !== undefined) merged.endedAt = endedAt;
  if (merged.prompt === undefined && later.prompt !== undefined) merged.prompt = later.prompt;
  if (merged.channel === undefined && later.channel !== undefined) merged.channel = later.channel;
  if (later.model !== undefined) merged.model = later.model;
  if (later.outcome !== undefined) merged.outcome = later.outcome;
  return merged;
}

const ms = (iso: string) => Date.parse(iso);

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return ms(b) < ms(a) ? b : a;
}

function latest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return ms(b) > ms(a) ? b : a;
}

/** Whether the facts say anything. */
export function hasFacts(facts: RunFacts): boolean {
  return Object.keys(facts).length > 0;
}

/** An outcome in a few words: `stop`, `aborted`, `error: …`, `timeout`. */
export function outcomeText(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case "stopped":
      return outcome.reason;
    case "aborted":
      return "aborted";
    case "error":
      return `error: ${outcome.message}`;
    case "timeout":
      return "timeout";
  }
}
