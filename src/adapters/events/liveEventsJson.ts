/**
 * Live events in the canonical format (what `looplens events` prints for a Gateway log), read back
 * so that a printed or hand-edited live stream analyses like the log it came from:
 *
 *   {"type":"live_marker","marker":"tool_start","run":"r1","tool":"exec","id":"toolu_1",…}
 *   {"type":"live_finding","run":"r1","call":11,"tool":"exec","detector":"generic_repeat",
 *    "level":"warning","count":10,"message":"Loop warning: …","echoLines":[26],…}
 *
 * `run` is required and may be `null` (logged while no run was open).
 */
import type { DetectorName } from "../../core/detectors.js";
import type { FindingLevel } from "../../core/findings.js";
import { DETECTOR_NAMES, FINDING_LEVELS, LIVE_MARKERS, type LiveEvent, type LiveMarkerKind } from "../../core/liveEvents.js";
import { own } from "../../core/plainObject.js";
import { describeValue } from "../../core/quote.js";

type Parsed = { ok: true; event: LiveEvent } | { ok: false; reason: string };

const positive = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;
const natural = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const nonBlank = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

type MarkerFields = { ok: true; fields: Record<string, unknown> } | { ok: false; reason: string };

function markerFields(marker: LiveMarkerKind, value: Record<string, unknown>): MarkerFields {
  switch (marker) {
    case "run_start":
    case "run_end":
      return { ok: true, fields: {} };
    case "tool_start": {
      const tool = own(value, "tool");
      const id = own(value, "id");
      if (!nonBlank(tool)) return { ok: false, reason: 'tool_start marker without a "tool" name' };
      return { ok: true, fields: { tool, ...(nonBlank(id) ? { id } : {}) } };
    }
    case "compaction": {
      const cause = own(value, "cause");
      return { ok: true, fields: { cause: cause === "timeout" ? "timeout" : "overflow" } };
    }
    case "guard_armed": {
      const attempts = own(value, "attempts");
      return positive(attempts) ? { ok: true, fields: { attempts } } : { ok: false, reason: 'guard_armed marker without positive "attempts"' };
    }
    case "guard_closed": {
      const toolCalls = own(value, "toolCalls");
      const repeats = own(value, "preCompactionRepeats");
      const tools = own(value, "tools");
      if (!natural(toolCalls) || !natural(repeats)) return { ok: false, reason: 'guard_closed marker without "toolCalls"/"preCompactionRepeats" counts' };
      const names = Array.isArray(tools) ? tools.filter(nonBlank) : [];
      return { ok: true, fields: { toolCalls, preCompactionRepeats: repeats, tools: names } };
    }
  }
}

function findingFields(value: Record<string, unknown>): MarkerFields {
  const tool = own(value, "tool");
  const detector = own(value, "detector");
  const level = own(value, "level");
  const count = own(value, "count");
  const call = own(value, "call");
  const message = own(value, "message");
  const echoLines = own(value, "echoLines");
  if (!nonBlank(tool)) return { ok: false, reason: 'live_finding without a "tool" name' };
  if (!DETECTOR_NAMES.includes(detector as DetectorName)) return { ok: false, reason: `live_finding with unknown detector ${describeValue(detector)}` };
  if (!FINDING_LEVELS.includes(level as FindingLevel)) return { ok: false, reason: `live_finding with unknown level ${describeValue(level)}` };
  if (!positive(count)) return { ok: false, reason: 'live_finding without a positive "count"' };
  if (call !== undefined && call !== null && !positive(call)) return { ok: false, reason: '"call" is neither null nor a positive integer' };
  return {
    ok: true,
    fields: {
      call: call ?? null,
      tool,
      detector,
      level,
      count,
      message: typeof message === "string" ? message : "",
      echoLines: Array.isArray(echoLines) ? echoLines.filter(positive) : [],
    },
  };
}

/** Validates a parsed `live_marker`/`live_finding` line of a canonical events file. */
export function toLiveEvent(value: Record<string, unknown>, type: LiveEvent["type"], file: string, line: number): Parsed {
  if (!Object.prototype.hasOwnProperty.call(value, "run")) return { ok: false, reason: `${type} without "run" (null for none)` };
  const run = own(value, "run");
  if (run !== null && !nonBlank(run)) return { ok: false, reason: '"run" is neither null nor a non-blank string' };
  let parsed: MarkerFields;
  let marker: Record<string, unknown> = {};
  if (type === "live_marker") {
    const kind = own(value, "marker");
    if (!LIVE_MARKERS.includes(kind as LiveMarkerKind)) return { ok: false, reason: `unknown live marker ${describeValue(kind)}` };
    parsed = markerFields(kind as LiveMarkerKind, value);
    marker = { marker: kind };
  } else {
    parsed = findingFields(value);
  }
  if (!parsed.ok) return parsed;
  const session = own(value, "session");
  const agent = own(value, "agent");
  const ts = own(value, "ts");
  const event = {
    type,
    ...marker,
    run: typeof run === "string" ? run.trim() : null,
    ...(nonBlank(session) ? { session } : {}),
    ...(nonBlank(agent) ? { agent } : {}),
    ...(typeof ts === "string" || typeof ts === "number" ? { ts } : {}),
    ...parsed.fields,
    file,
    line,
  };
  return { ok: true, event: event as LiveEvent };
}

/**
 * A live event's fields in canonical order, to be written as JSON: kind (and marker), run and
 * identity, payload, then where it came from.
 */
export function liveEventFields(event: LiveEvent): Record<string, unknown> {
  const { type, run, session, agent, ts, file, line, ...payload } = event;
  const marker = event.type === "live_marker" ? event.marker : undefined;
  return { type, marker, run, session, agent, ts, ...payload, file, line };
}
