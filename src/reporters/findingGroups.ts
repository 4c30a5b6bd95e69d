/**
 * Findings as reporters show them: the published shape of one (ndjson line, json `findings[]`), and
 * what a table row of repeated verdicts is (the rows are made by the pipeline: pipeline/findingRows.ts).
 */
import type { Finding } from "../core/findings.js";

/** The published shape of a finding (ndjson line, json `findings[]`): no internal fields. */
export function publicFinding(finding: Finding): Record<string, unknown> {
  return {
    run: finding.run,
    agent: finding.agent,
    session: finding.session,
    file: finding.file,
    line: finding.line,
    call: finding.call,
    tool: finding.tool,
    detector: finding.detector,
    level: finding.level,
    count: finding.count,
    threshold: { name: finding.threshold.name, value: finding.threshold.value },
    afterStop: finding.afterStop,
    message: finding.message,
    ...(finding.source ? { source: finding.source } : {}),
  };
}

/** One table row: consecutive-or-not verdicts of one pattern, level and stop side (pipeline/findingRows.ts). */
export interface FindingGroup<F extends Finding = Finding> {
  readonly first: F;
  readonly last: F;
  readonly verdicts: number;
  readonly maxCount: number;
  readonly minCount: number;
}

/** "11–20" for a collapsed row, "11" for one verdict, "–" when the calls are unknown (live findings). */
export function callRange(group: FindingGroup): string {
  const first = group.first.call ?? group.last.call;
  const last = group.last.call ?? group.first.call;
  if (first === null || last === null) return "–";
  return first === last ? String(first) : `${first}–${last}`;
}
