/**
 * One OpenHands event, as replay needs it. V0 events (`action` / `observation` with numeric ids,
 * results linked by `cause`) and V1 SDK events (`kind`, results linked by `tool_call_id`) are told
 * apart by their own fields, so a file is read whichever version wrote it (agents.md A4).
 */
import { own } from "../../core/plainObject.js";
import type { OpenHandsRecord } from "./recordTypes.js";
import { classifyV0 } from "./v0Records.js";
import { classifyV1 } from "./v1Records.js";

export type { CallRecord, OpenHandsRecord, ResultRecord } from "./recordTypes.js";

/** V1 events name their class in `kind`; V0 events have `action` or `observation`. */
export function isV1Event(value: Record<string, unknown>): boolean {
  return typeof own(value, "kind") === "string" && typeof own(value, "action") !== "string" && typeof own(value, "observation") !== "string";
}

export function classifyRecord(value: Record<string, unknown>): OpenHandsRecord {
  return isV1Event(value) ? classifyV1(value) : classifyV0(value);
}
