/**
 * A run's identity as the report shows it (reporters/model.ts `RunIdentity`), made once per run
 * from what replay kept (core/findings.ts `startedAt`, `facts`): its duration worked out, its prompt
 * made one clean line (prompts are untrusted text: escape sequences and control characters go, line
 * breaks become spaces), or left out under `--no-prompts`.
 */
import type { RunReport } from "../core/findings.js";
import type { RunOutcome } from "../core/runIdentity.js";
import type { RunIdentity } from "./model.js";
import { sanitize } from "./sanitize.js";

export function runIdentity(run: RunReport, hidePrompts: boolean): RunIdentity {
  const facts = run.source === undefined ? run.facts : undefined;
  const startedAt = run.startedAt ?? facts?.startedAt ?? null;
  const endedAt = facts?.endedAt ?? null;
  const duration = startedAt !== null && endedAt !== null ? Date.parse(endedAt) - Date.parse(startedAt) : NaN;
  const prompt = hidePrompts || facts?.prompt === undefined ? null : oneLine(facts.prompt);
  return {
    startedAt,
    endedAt,
    durationMs: Number.isFinite(duration) && duration >= 0 ? duration : null,
    prompt: prompt === "" ? null : prompt,
    channel: facts?.channel !== undefined ? oneLine(facts.channel) : null,
    model: facts?.model !== undefined ? oneLine(facts.model) : null,
    outcome: facts?.outcome !== undefined ? cleanOutcome(facts.outcome) : null,
  };
}

/** An outcome's recorded words (a stop reason, an error message) as clean lines too. */
function cleanOutcome(outcome: RunOutcome): RunOutcome {
  switch (outcome.kind) {
    case "stopped":
      return { kind: "stopped", reason: oneLine(outcome.reason) };
    case "error":
      return { kind: "error", message: oneLine(outcome.message) };
    default:
      return outcome;
  }
}

/** Recorded text as one clean line: no escape sequence or control character, runs of white space one space. */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, " ").trim();
}
