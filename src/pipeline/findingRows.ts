/**
 * Findings as the reports' rows: repeated verdicts of one pattern (same detector, level, tool and
 * arguments, same side of the run's first stop) collapsed into one row, in order of first
 * appearance, each with its plain words (reporters/explanation.ts), worded when first read: the
 * machine formats never read them. Ping-pong verdicts alternate between two call patterns and
 * collapse by detector and level alone. Under `--verbose` every verdict is a row.
 */
import type { LiveFinding, ReplayedFinding } from "../core/findings.js";
import { explanation } from "../reporters/explanation.js";
import type { FindingRow } from "../reporters/model.js";

type AnyFinding = LiveFinding | ReplayedFinding;

/** A row while its verdicts are collected, and its words once asked for. */
class Row<F extends AnyFinding> implements FindingRow<F> {
  last: F;
  verdicts = 1;
  maxCount: number;
  minCount: number;
  private words: string | undefined;
  private wordsNamed: string | undefined;

  constructor(readonly first: F) {
    this.last = first;
    this.maxCount = first.count;
    this.minCount = first.count;
  }

  add(finding: F): void {
    this.last = finding;
    this.verdicts++;
    this.maxCount = Math.max(this.maxCount, finding.count);
    this.minCount = Math.min(this.minCount, finding.count);
  }

  get explanation(): string {
    return (this.words ??= explanation(this));
  }

  get explanationNamed(): string {
    return (this.wordsNamed ??= explanation(this, true));
  }
}

export function findingRows<F extends AnyFinding>(findings: Iterable<F>, verbose: boolean): FindingRow<F>[] {
  if (verbose) return Array.from(findings, (finding) => new Row(finding));
  const rows = new Map<string, Row<F>>();
  for (const finding of findings) {
    // A ping-pong alternates between two patterns: both sides are one loop, so one row.
    const pattern = finding.detector === "ping_pong" ? [] : [finding.tool, finding.argsHash];
    // JSON, not a separator join: tool names and run ids from the input may hold any character.
    const key = JSON.stringify([finding.detector, finding.level, pattern, finding.afterStop, finding.source ?? "", finding.run]);
    const row = rows.get(key);
    if (row) row.add(finding);
    else rows.set(key, new Row(finding));
  }
  return [...rows.values()];
}
