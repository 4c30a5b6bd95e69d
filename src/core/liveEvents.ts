/**
 * Live events: what a live runtime reported (read from an OpenClaw Gateway log, spec: inputs.md §4)
 * rather than what it did call by call. They travel beside the replay events (`LoopEvent`) through
 * the same adapter stream and are part of the canonical format, so `looplens events` prints them and
 * reads them back. Replay never sees them: a log holds no arguments or results to hash.
 *
 * Runs are already attributed when these events are made (the Gateway-log adapter applies the
 * spec's run-attribution rules); `run` is `null` for what was logged while no run was open.
 */
import type { DetectorName } from "./detectors.js";
import type { EventOrigin } from "./events.js";
import type { FindingLevel } from "./findings.js";

interface LiveBase extends EventOrigin {
  readonly run: string | null;
  readonly session?: string;
  readonly agent?: string;
  readonly ts?: string | number;
}

/** A run boundary, a tool start, a compaction or a post-compaction guard line, attributed to a run. */
export type LiveMarker = LiveBase & { readonly type: "live_marker" } & (
    | { readonly marker: "run_start" | "run_end" }
    | { readonly marker: "tool_start"; readonly tool: string; readonly id?: string }
    | { readonly marker: "compaction"; readonly cause: "overflow" | "timeout" }
    | { readonly marker: "guard_armed"; readonly attempts: number }
    | {
        readonly marker: "guard_closed";
        readonly toolCalls: number;
        readonly preCompactionRepeats: number;
        readonly tools: readonly string[];
      }
  );

/** One detector event the runtime logged (echo lines already merged into it). */
export interface LiveFindingEvent extends LiveBase {
  readonly type: "live_finding";
  /** Ordinal of the run's tool start this finding is about, when the log tells it. */
  readonly call: number | null;
  readonly tool: string;
  readonly detector: DetectorName;
  readonly level: FindingLevel;
  readonly count: number;
  /** The logged message of the event's first line. */
  readonly message: string;
  /** Lines that repeated the event (hook, diagnostic), merged into it. */
  readonly echoLines: readonly number[];
}

export type LiveEvent = LiveMarker | LiveFindingEvent;

export type LiveMarkerKind = LiveMarker["marker"];

export const LIVE_EVENT_TYPES: readonly LiveEvent["type"][] = ["live_marker", "live_finding"];

export const LIVE_MARKERS: readonly LiveMarkerKind[] = ["run_start", "run_end", "tool_start", "compaction", "guard_armed", "guard_closed"];

export { DETECTOR_NAMES } from "./detectorInfo.js";

export const FINDING_LEVELS: readonly FindingLevel[] = ["warning", "critical", "abort"];

export function isLiveEvent(event: { readonly type: string }): event is LiveEvent {
  return event.type === "live_marker" || event.type === "live_finding";
}
