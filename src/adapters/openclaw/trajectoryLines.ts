/**
 * Lines of an OpenClaw trajectory file, classified the same way by both passes of the trajectory
 * adapter, and the first pass itself (see openclawTrajectory.ts for the mapping).
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { describeValue } from "../../core/quote.js";
import { parseObjectLine } from "../adapter.js";
import type { LineProblem, LineSource } from "../io/lineSource.js";
import type { Outcome } from "../shared/runFacts.js";
import { idText, outcomeOf, toolCallBlocks } from "./messages.js";
import { customRunMarker, segmentNames, type RunMarker } from "./runNaming.js";
import { SidecarRunCollector } from "./sidecarRuns.js";
import type { TrajectoryScan } from "./trajectoryScan.js";

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
  const run = idText(own(value, "runId"), "text");
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

/** The `messagesSnapshot` of a `model.completed`, if it has one (an array). */
export function messagesSnapshot(data: Record<string, unknown>): unknown[] | undefined {
  const snapshot = own(data, "messagesSnapshot");
  return Array.isArray(snapshot) ? snapshot : undefined;
}

/** Whether a snapshot holds anything replay would use: a toolCall block or a toolResult message. */
function holdsTools(snapshot: readonly unknown[]): boolean {
  return snapshot.some((message) => {
    if (!isPlainObject(message)) return false;
    const role = own(message, "role");
    if (role === "toolResult") return true;
    if (role !== "assistant") return false;
    const { calls, unnamed } = toolCallBlocks(message, "text");
    return calls.length > 0 || unnamed > 0;
  });
}

function harnessVersionOf(data: Record<string, unknown>): string | undefined {
  const harness = own(data, "harness");
  // Older recorders wrote `harness` as a bare string ("embedded"), which names no build.
  const version = isPlainObject(harness) ? own(harness, "version") : undefined;
  return typeof version === "string" && version.trim() !== "" ? version.trim() : undefined;
}

/**
 * The first pass. `forPairing`: the file is a sidecar read with its session's transcripts, whose runs
 * it names (`runFacts`).
 */
export async function scanTrajectory(source: LineSource, forPairing = false): Promise<TrajectoryScan> {
  let runtimeTools = false;
  let transcriptTools = false;
  let snapshotTools = false;
  let compactions = false;
  let harnessVersion: string | undefined;
  let sessionKey: string | undefined;
  const runs = forPairing ? new SidecarRunCollector() : undefined;
  /** The run later run-less runtime events belong to (as the second pass attributes them). */
  let run: string | undefined;
  const markers: RunMarker[] = [];
  await source.forEachLine((text, line, terminated) => {
    const classified = classifyTrajectoryLine(text, terminated);
    if (classified.kind !== "event") return;
    const { type, data, value } = classified;
    if (COMPACTION_TYPES.has(type)) compactions = true;
    if (!classified.transcript) {
      const runId = runIdOf(value);
      const key = own(value, "sessionKey");
      if (sessionKey === undefined && typeof key === "string") sessionKey = key;
      if (type === "session.started" || type === "prompt.submitted") run = runId ?? run;
      if ((runId ?? run) !== undefined) runs?.event((runId ?? run)!, value);
      if (isToolEvent(type)) {
        runtimeTools = true;
        if (type === "tool.call" && (runId ?? run) !== undefined) runs?.call((runId ?? run)!, idText(own(data, "toolCallId"), "text"));
      } else if (type === "trace.metadata") harnessVersion ??= harnessVersionOf(data);
      else if (type === "prompt.submitted") {
        if (runId !== undefined) runs?.prompt(runId, value);
      } else if (type === "model.completed") {
        const snapshot = messagesSnapshot(data);
        if (!snapshotTools) snapshotTools = holdsTools(snapshot ?? []);
        if (snapshot && (runId ?? run) !== undefined) runs?.snapshot((runId ?? run)!, snapshot);
      }
      return;
    }
    if (isToolEvent(type)) transcriptTools = true;
    else if (type === "user.message") markers.push({ kind: "user", line });
    else if (type === "session.custom") {
      const marker = customRunMarker(line, own(data, "customType"), own(data, "data"), "text");
      if (marker) markers.push(marker);
    }
  });
  return { runtimeTools, transcriptTools, snapshotTools, compactions, names: segmentNames(markers), harnessVersion, sessionKey, runFacts: runs?.facts() };
}
