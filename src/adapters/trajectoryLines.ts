/**
 * Lines of an OpenClaw trajectory file, classified the same way by both passes of the trajectory
 * adapter, and the first pass itself (see openclawTrajectory.ts for the mapping).
 */
import { isPlainObject, own } from "../core/plainObject.js";
import { describeValue } from "../core/quote.js";
import { parseObjectLine } from "./adapter.js";
import type { LineProblem, LineSource } from "./lineSource.js";
import { idText, outcomeOf, type Outcome } from "./openclawMessages.js";
import { customRunMarker, segmentNames, type RunMarker } from "./runNaming.js";

export const TRACE_SCHEMA = "openclaw-trajectory";

/** Known event types that replay has no use for: ignored silently. */
export const QUIET_TYPES: ReadonlySet<string> = new Set([
  "trace.metadata",
  "trace.artifacts",
  "context.compiled",
  "prompt.submitted",
  "prompt.skipped",
  "model.completed",
  "model.finishing",
  "model.fallback_step",
  "tool.update",
  "user.message",
  "assistant.message",
  "session.custom",
  "session.custom_message",
  "session.model_change",
  "session.thinking_level_change",
  "session.label",
  "session.info",
  "session.branch_summary",
  "session.reset",
]);

export const COMPACTION_TYPES: ReadonlySet<string> = new Set(["session.compaction", "compaction"]);

export type TrajectoryLine =
  | { readonly kind: "blank" }
  | { readonly kind: "bad"; readonly reason: string }
  | {
      readonly kind: "event";
      readonly type: string;
      readonly transcript: boolean;
      readonly value: Record<string, unknown>;
      readonly data: Record<string, unknown>;
      /** See parseJsonLine: set when the line's bytes were not all UTF-8. */
      readonly notice?: string;
    };

export function classifyTrajectoryLine(text: string, terminated: boolean, problem?: LineProblem): TrajectoryLine {
  const line = parseObjectLine(text, terminated, problem);
  if (line.kind !== "object") return line;
  const { value, notice } = line;
  if (own(value, "traceSchema") !== TRACE_SCHEMA) return { kind: "bad", reason: `not an ${TRACE_SCHEMA} event (traceSchema)` };
  const version = own(value, "schemaVersion");
  if (version !== 1) return { kind: "bad", reason: `unsupported trajectory schemaVersion ${describeValue(version ?? null)}` };
  const type = own(value, "type");
  if (typeof type !== "string" || type === "") return { kind: "bad", reason: 'event without "type"' };
  const data = own(value, "data");
  if (data !== undefined && data !== null && !isPlainObject(data)) return { kind: "bad", reason: '"data" is not an object' };
  const event = { kind: "event", type, transcript: own(value, "source") === "transcript", value, data: isPlainObject(data) ? data : {} } as const;
  return notice !== undefined ? { ...event, notice } : event;
}

export function isToolEvent(type: string): boolean {
  return type === "tool.call" || type === "tool.result";
}

/** An event the recorder cut for size: its args or result are gone. */
export function isCutForSize(data: Record<string, unknown>): boolean {
  return own(data, "truncated") === true && own(data, "reason") === "trajectory-event-size-limit";
}

export function runIdOf(value: Record<string, unknown>): string | undefined {
  const run = idText(own(value, "runId"));
  return run?.trim();
}

/** The outcome of a runtime `tool.result`, if it carries one. */
export function runtimeOutcome(data: Record<string, unknown>): Outcome | undefined {
  if (Object.prototype.hasOwnProperty.call(data, "result")) {
    const result = own(data, "result");
    const failed = own(data, "success") === false || own(data, "isError") === true;
    if (!isPlainObject(result)) return { result };
    const outcome = outcomeOf(result, failed);
    return "error" in outcome ? outcome : { result };
  }
  if (Object.prototype.hasOwnProperty.call(data, "error")) return { error: own(data, "error") };
  return undefined;
}

/** What the first pass learns: are there runtime tool events and compactions, and the run names. */
export interface TrajectoryScan {
  /** The file has runtime tool events (so transcript tool events are copies). */
  readonly runtimeTools: boolean;
  /** The file has compaction events. */
  readonly compactions: boolean;
  readonly names: Array<string | undefined>;
}

export async function scanTrajectory(source: LineSource): Promise<TrajectoryScan> {
  let runtimeTools = false;
  let compactions = false;
  const markers: RunMarker[] = [];
  await source.forEachLine((text, line, terminated) => {
    const classified = classifyTrajectoryLine(text, terminated);
    if (classified.kind !== "event") return;
    const { type, data } = classified;
    if (COMPACTION_TYPES.has(type)) compactions = true;
    if (!classified.transcript) {
      if (isToolEvent(type)) runtimeTools = true;
      return;
    }
    if (type === "user.message") markers.push({ kind: "user", line });
    else if (type === "session.custom") {
      const marker = customRunMarker(line, own(data, "customType"), own(data, "data"));
      if (marker) markers.push(marker);
    }
  });
  return { runtimeTools, compactions, names: segmentNames(markers) };
}
