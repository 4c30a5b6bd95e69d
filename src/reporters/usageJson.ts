/**
 * What runs used, as the JSON document writes it (cost.md §3, docs/outputs.md): `run.usage`,
 * `run.usageOnFlagged`, `run.usageAfterStop`, and the same three totals in the summary with
 * `runsWithUsage`. Each sum is core/usage.ts `usageJson` (`{turns, input, output, cacheRead,
 * cacheWrite, total, cost, …}`, fields not recorded absent: a format that records no money has no
 * `cost`, never 0). Absent altogether where nothing was recorded (Gateway logs, events without
 * usage), so those documents stay as they were.
 */
import { EMPTY_SUM, usageJson, type UsageSum } from "../core/usage.js";
import type { RunReport } from "../core/findings.js";
import type { Summary } from "./model.js";

/** The usage fields of a run's document (an object to spread: empty when it recorded none). */
export function runUsageFields(run: RunReport): Record<string, unknown> {
  if (run.source !== undefined || run.usage === undefined) return {};
  return { usage: usageJson(run.usage), usageOnFlagged: usageJson(run.usageOnFlagged ?? EMPTY_SUM), usageAfterStop: usageJson(run.usageAfterStop ?? EMPTY_SUM) };
}

/** The summary as the document writes it: its usage totals in the public shape. */
export function summaryDocument(summary: Summary): Record<string, unknown> {
  const { usage, ...rest } = summary;
  if (usage === undefined) return rest;
  return { ...rest, runsWithUsage: usage.runs, usage: usageJson(usage.spent), usageOnFlagged: usageJson(usage.onFlagged), usageAfterStop: usageJson(usage.afterStop) };
}

