/**
 * Findings and runs counted by level, as the summary shows them. Counted in two places that must
 * agree: runSpill.ts counts the runs it writes out (they are not read back for the summary), and
 * report.ts the runs kept in memory; both count through here.
 */
import type { FindingLevel } from "../core/findings.js";
import type { LevelCounts } from "../reporters/model.js";

const LEVELS: readonly FindingLevel[] = ["warning", "critical", "abort"];

/** Runs with at least one finding at each level, and findings by level. */
export interface RunLevelCounts {
  readonly runsWith: Record<FindingLevel, number>;
  readonly findings: Record<FindingLevel, number> & { total: number };
}

export function noRunLevels(): RunLevelCounts {
  return { runsWith: { warning: 0, critical: 0, abort: 0 }, findings: { warning: 0, critical: 0, abort: 0, total: 0 } };
}

/** `counts` plus `more` (a new object; neither is changed). */
export function addRunLevels(counts: Readonly<RunLevelCounts>, more: Readonly<RunLevelCounts>): RunLevelCounts {
  const sum = noRunLevels();
  for (const level of LEVELS) {
    sum.runsWith[level] = counts.runsWith[level] + more.runsWith[level];
    sum.findings[level] = counts.findings[level] + more.findings[level];
  }
  sum.findings.total = counts.findings.total + more.findings.total;
  return sum;
}

/** Counts findings by level into `findings`. */
export function countFindings(findings: RunLevelCounts["findings"], of: Iterable<{ readonly level: FindingLevel }>): void {
  for (const finding of of) {
    findings[finding.level]++;
    findings.total++;
  }
}

/** Counts a run once under each level its findings reach. */
export function countRunLevels(runsWith: RunLevelCounts["runsWith"], findings: Iterable<{ readonly level: FindingLevel }>): void {
  let warning = false;
  let critical = false;
  let abort = false;
  for (const { level } of findings) {
    if (level === "warning") warning = true;
    else if (level === "critical") critical = true;
    else abort = true;
  }
  if (warning) runsWith.warning++;
  if (critical) runsWith.critical++;
  if (abort) runsWith.abort++;
}

/** A run's findings, counted both ways in one walk (a very long run's are read back from disk for each: findingList.ts). */
export function countRun(counts: RunLevelCounts, findings: Iterable<{ readonly level: FindingLevel }>): void {
  const levels = noRunLevels().findings;
  countFindings(levels, findings);
  const { findings: sum, runsWith } = counts;
  sum.warning += levels.warning;
  sum.critical += levels.critical;
  sum.abort += levels.abort;
  sum.total += levels.total;
  if (levels.warning > 0) runsWith.warning++;
  if (levels.critical > 0) runsWith.critical++;
  if (levels.abort > 0) runsWith.abort++;
}

/** Findings by level, of a list. */
export function levelsOf(findings: Iterable<{ readonly level: FindingLevel }>): LevelCounts {
  const counts = noRunLevels().findings;
  countFindings(counts, findings);
  return counts;
}
