/**
 * What `--fail-on LEVEL` and `--max-warnings N` judge (cli.md "Exit status"), counted one run at a
 * time as a report's runs are walked or a check's fixtures analysed, so that no run is kept for it:
 * the findings at or above the level, the runs that have one, and the warnings. A block is a
 * critical verdict: `--fail-on` takes either word.
 */
import { LEVEL_RANK, type FindingLevel } from "../core/findings.js";
import type { FindingList } from "../core/findingList.js";
import type { FailOnWord, Gate } from "../reporters/model.js";

const FAIL_ON_LEVEL: Record<FailOnWord, FindingLevel> = { warning: "warning", critical: "critical", block: "critical", abort: "abort" };

/** The finding level `--fail-on` names (a block is a critical verdict). */
export const failOnLevel = (failOn: FailOnWord): FindingLevel => FAIL_ON_LEVEL[failOn];

export class GateTally {
  private readonly floor: FindingLevel;
  private readonly floorRank: number;
  private findings = 0;
  private runs = 0;
  private warnings = 0;

  constructor(private readonly asked: { readonly failOn?: FailOnWord; readonly maxWarnings?: number }) {
    // Without --fail-on, runs are judged from a warning up (junit fails a case on one).
    this.floor = asked.failOn === undefined ? "warning" : failOnLevel(asked.failOn);
    this.floorRank = LEVEL_RANK[this.floor];
  }

  /** Counts a run's findings; returns how many are at or above the floor. */
  add(run: { readonly findings: FindingList<{ readonly level: FindingLevel }> }): number {
    let failing = 0;
    for (const finding of run.findings) {
      if (LEVEL_RANK[finding.level] >= this.floorRank) failing++;
      if (finding.level === "warning") this.warnings++;
    }
    this.findings += failing;
    if (failing > 0) this.runs++;
    return failing;
  }

  /**
   * Counts runs not at hand from what was counted of them (a spill segment's: spillFacts.ts): their
   * findings and the runs reaching each level, both by level rank - 1.
   */
  addCounted(findings: readonly number[], reaching: number): void {
    for (let rank = this.floorRank; rank <= 3; rank++) this.findings += findings[rank - 1]!;
    this.warnings += findings[0]!;
    this.runs += reaching;
  }

  /** The level rank runs are judged at (1 warning, 2 block, 3 abort). */
  get rank(): number {
    return this.floorRank;
  }

  finish(): Gate {
    const { failOn, maxWarnings } = this.asked;
    return {
      ...(failOn !== undefined && { failOn }),
      ...(maxWarnings !== undefined && { maxWarnings }),
      floor: this.floor,
      failing: { findings: this.findings, runs: this.runs },
      warnings: this.warnings,
    };
  }
}
