/**
 * Findings as reporters show them: the published shape of one (ndjson line, json `findings[]`), and
 * the collapsing of repeated verdicts of one pattern into table rows.
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

/** One table row: consecutive-or-not verdicts of one pattern, level and stop side. */
export interface FindingGroup<F extends Finding = Finding> {
  readonly first: F;
  readonly last: F;
  readonly verdicts: number;
  readonly maxCount: number;
  readonly minCount: number;
}

/**
 * Collapses repeated verdicts of one pattern (same detector, level, tool and args, same side of the
 * run's first stop) into one row, in order of first appearance. Ping-pong verdicts alternate between
 * two call patterns and collapse by detector and level alone.
 */
export function groupFindings<F extends Finding>(findings: readonly F[], verbose: boolean): FindingGroup<F>[] {
  if (verbose) return findings.map((f) => ({ first: f, last: f, verdicts: 1, maxCount: f.count, minCount: f.count }));
  const groups = new Map<string, { first: F; last: F; verdicts: number; maxCount: number; minCount: number }>();
  for (const finding of findings) {
    // A ping-pong alternates between two patterns: both sides are one loop, so one row.
    const pattern = finding.detector === "ping_pong" ? [] : [finding.tool, finding.argsHash];
    // JSON, not a separator join: tool names and run ids from the input may hold any character.
    const key = JSON.stringify([finding.detector, finding.level, pattern, finding.afterStop, finding.source ?? "", finding.run]);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { first: finding, last: finding, verdicts: 1, maxCount: finding.count, minCount: finding.count });
    } else {
      group.last = finding;
      group.verdicts++;
      group.maxCount = Math.max(group.maxCount, finding.count);
      group.minCount = Math.min(group.minCount, finding.count);
    }
  }
  return [...groups.values()];
}


/** "11–20" for a collapsed row, "11" for one verdict, "–" when the calls are unknown (live findings). */
export function callRange(group: FindingGroup): string {
  const first = group.first.call ?? group.last.call;
  const last = group.last.call ?? group.first.call;
  if (first === null || last === null) return "–";
  return first === last ? String(first) : `${first}–${last}`;
}
