/**
 * Run names of an OpenClaw transcript (inputs.md §2). Each user message starts a run (a segment).
 * The runtime writes `openclaw:bootstrap-context:full` (with `data.runId`) *after* the run's final
 * reply (real 2026.4/2026.5 transcripts, whose run ids agree with their trajectories'
 * `prompt.submitted`), older builds wrote it before the user message; `openclaw:prompt-error` comes
 * inside the run it names. One rule serves both orders: a bootstrap or prompt-error entry names the
 * run in progress when that run has no name yet; one written before the first user message, or
 * after the run in progress is already named, is held for the next run. Else `<sessionId>#<n>`, n
 * counting the session's runs from 1.
 *
 * A held name that already names an earlier run is dropped (decision: a run id is never reused for a
 * new prompt; a stale one comes from a rewritten copy of old entries or from the bootstrap of a run
 * that its prompt error already named, and would otherwise shift every later name by one run).
 *
 * A name can come after a run's tool calls, so names are settled from a first pass over the file: it
 * records only these few markers (one or two per run), never whole entries.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import type { UserTime } from "./userTime.js";

export type RunMarker =
  /** `time`: when the user message was written, where the pass read it (a sidecar's runs are matched by it). */
  | { readonly kind: "user"; readonly line: number; readonly time?: UserTime }
  | { readonly kind: "bootstrap" | "promptError"; readonly line: number; readonly runId: string };

export const BOOTSTRAP_CUSTOM_TYPE = "openclaw:bootstrap-context:full";
export const PROMPT_ERROR_CUSTOM_TYPE = "openclaw:prompt-error";

/** The marker a custom entry (its `customType` and `data`, strings in `form`) stands for, if any. */
export function customRunMarker(line: number, customType: unknown, data: unknown, form: StringForm): RunMarker | undefined {
  if (customType !== BOOTSTRAP_CUSTOM_TYPE && customType !== PROMPT_ERROR_CUSTOM_TYPE) return undefined;
  const rawRunId = typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>).runId : undefined;
  if (typeof rawRunId !== "string") return undefined;
  const runId = textOf(form, rawRunId).trim();
  if (runId === "") return undefined;
  return { kind: customType === BOOTSTRAP_CUSTOM_TYPE ? "bootstrap" : "promptError", line, runId };
}

/**
 * Explicit names per segment, from the markers of the entries that will be replayed, in file order.
 * Segment 0 holds whatever comes before the first user message (never named: the runtime writes no
 * tool activity there); segment k follows the k-th.
 */
export function segmentNames(markers: Iterable<RunMarker>): Array<string | undefined> {
  const names: Array<string | undefined> = [undefined];
  const used = new Set<string>();
  let held: string | undefined;
  for (const marker of markers) {
    const segment = names.length - 1;
    if (marker.kind === "user") {
      const name = held !== undefined && !used.has(held) ? held : undefined;
      names.push(name);
      if (name !== undefined) used.add(name);
      held = undefined;
    } else if (segment > 0 && names[segment] === undefined) {
      names[segment] = marker.runId;
      used.add(marker.runId);
    } else if (names[segment] !== marker.runId) {
      held = marker.runId;
    }
  }
  return names;
}

/** The user message time of each segment of `segmentNames` (segment 0 has none). */
export function segmentTimes(markers: Iterable<RunMarker>): Array<UserTime | undefined> {
  const times: Array<UserTime | undefined> = [undefined];
  for (const marker of markers) if (marker.kind === "user") times.push(marker.time);
  return times;
}
