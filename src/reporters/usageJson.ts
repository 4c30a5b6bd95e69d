/**
 * What runs used, as the JSON document writes it (cost.md §3, docs/outputs.md): `run.usage`,
 * `run.usageOnFlagged`, `run.usageAfterStop`, `run.usageByPattern` (each loop's), and the same three totals in the summary with
 * `runsWithUsage`. Each sum is core/usage.ts `usageJson` (`{turns, input, output, cacheRead,
 * cacheWrite, total, cost, …}`, fields not recorded absent: a format that records no money has no
 * `cost`, never 0). Absent altogether where nothing was recorded (Gateway logs, events without
 * usage), so those documents stay as they were.
 */
import { EMPTY_SUM, usageJson, type UsageSum } from "../core/usage.js";
import type { RunReport } from "../core/findings.js";
import { costPatternKey, type PatternCost } from "../core/runCost.js";
import type { Summary } from "./model.js";

/** The usage fields of a run's document (an object to spread: empty when it recorded none). */
export function runUsageFields(run: RunReport): Record<string, unknown> {
  if (run.source !== undefined || run.usage === undefined) return {};
  return {
    usage: usageJson(run.usage),
    usageOnFlagged: usageJson(run.usageOnFlagged ?? EMPTY_SUM),
    usageAfterStop: usageJson(run.usageAfterStop ?? EMPTY_SUM),
    ...(run.patternUsage !== undefined && { usageByPattern: usageByPattern(run.findings, run.patternUsage) }),
  };
}

/**
 * What each loop of the run cost (cost.md §2), in the order of its first finding: the loop named as
 * the table collapses it (detector and tool; `firstCall`, its first finding's call, tells apart two
 * loops of one tool whose arguments differ, since findings do not carry the arguments' hash), and
 * its turns on flagged calls and after the run's first stop. A loop has no `usage` of its own:
 * replay knows its calls only through its findings.
 */
/** One finding of a run's list (an array, or a list walked from disk: core/findingList.ts). */
type ReportFinding = RunReport["findings"] extends Iterable<infer F> ? F : never;

function usageByPattern(findings: RunReport["findings"], patterns: readonly PatternCost[]): Array<Record<string, unknown>> {
  const firstOf = new Map<string, ReportFinding>();
  for (const finding of findings) {
    const key = costPatternKey(finding);
    if (!firstOf.has(key)) firstOf.set(key, finding);
  }
  return patterns.map(({ pattern, onFlagged, afterStop }) => {
    const first = firstOf.get(pattern);
    return {
      ...(first && { detector: first.detector, tool: first.tool, firstCall: first.call }),
      usageOnFlagged: usageJson(onFlagged),
      usageAfterStop: usageJson(afterStop),
    };
  });
}

/** The summary as the document writes it: its usage totals in the public shape. */
export function summaryDocument(summary: Summary): Record<string, unknown> {
  const { usage, ...rest } = summary;
  if (usage === undefined) return rest;
  return { ...rest, runsWithUsage: usage.runs, usage: usageJson(usage.spent), usageOnFlagged: usageJson(usage.onFlagged), usageAfterStop: usageJson(usage.afterStop) };
}

