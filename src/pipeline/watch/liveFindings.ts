/**
 * The live findings of a watch's Gateway logs. A live run may go on from one log file into the next
 * (a run open at midnight goes on in the next day's file), and a finding's agent, session and
 * `afterStop` are settled over its whole run (core/liveRuns.ts): so, as `analyze` does
 * (`mergeAnalyses`), the live book parts of every log unit are joined in input order, and the
 * findings of that whole are what the ledger compares. Parts are small (a row per run, the
 * findings), so keeping each log unit's latest one costs little, and a change to today's log reads
 * today's log alone.
 */
import type { LiveFinding, LiveRun } from "../../core/findings.js";
import { LiveRunBook, runsWithFindings, type LiveBookPart } from "../../core/liveRuns.js";

export class LiveFindings {
  /** The latest part of each log unit, by unit key. */
  private readonly parts = new Map<string, LiveBookPart>();

  get empty(): boolean {
    return this.parts.size === 0;
  }

  set(unitKey: string, part: LiveBookPart | undefined): void {
    if (part) this.parts.set(unitKey, part);
    else this.parts.delete(unitKey);
  }

  has(unitKey: string): boolean {
    return this.parts.has(unitKey);
  }

  /** Every live finding and run with findings, the parts joined in the order of `unitOrder` (input order). */
  merged(unitOrder: readonly string[]): { readonly findings: LiveFinding[]; readonly runs: LiveRun[]; readonly runCount: number } {
    const book = new LiveRunBook();
    // A book settles the findings it is handed in place (liveRuns.ts `settledFindings`): each merge
    // gets its own copy of the parts, so that no merge sees another's settling.
    for (const key of unitOrder) {
      const part = this.parts.get(key);
      if (part) book.absorb(structuredClone(part));
    }
    const live = book.finish();
    return { findings: live.findings, runs: [...runsWithFindings(live.runs)], runCount: live.runs.length };
  }
}
