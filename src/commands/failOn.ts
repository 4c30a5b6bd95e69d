/**
 * `--fail-on LEVEL` and `--max-warnings N` (cli.md "Exit status"): when the findings make the exit
 * status 1, one closing line on stderr says why, as eslint does (`✖ 12 findings at or above warning
 * in 3 runs`). A block is a critical verdict: `--fail-on` takes either word.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { LEVEL_RANK, type FindingLevel, type RunReport } from "../core/findings.js";
import { plural } from "../reporters/phrases.js";

export const FAIL_ON_CHOICES = ["warning", "critical", "block", "abort"] as const;
export type FailOn = (typeof FAIL_ON_CHOICES)[number];

const FAIL_ON_LEVEL: Record<FailOn, FindingLevel> = { warning: "warning", critical: "critical", block: "critical", abort: "abort" };

/** The finding level `--fail-on` names (a block is a critical verdict). */
export const failOnLevel = (failOn: FailOn): FindingLevel => FAIL_ON_LEVEL[failOn];

export interface FailOnOptions {
  failOn?: FailOn;
  maxWarnings?: number;
}

export function addFailOnOption(command: Command, what: { maxWarnings: boolean }): Command {
  command.addOption(
    new Option("--fail-on <level>", "exit 1 when a finding is at or above this level: warning, critical (or block: the same level), abort").choices(FAIL_ON_CHOICES),
  );
  if (!what.maxWarnings) return command;
  return command.option("--max-warnings <n>", "exit 1 when there are more than N warnings", (value: string) => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError("expected a whole number, 0 or more.");
    return Number(value);
  });
}

/**
 * The closing lines explaining an exit status of 1; none when the findings pass. Judged on the
 * findings of runs, replayed or live (the runtime really logged a live one at that level).
 */
export function failureLines(runs: Iterable<RunReport>, options: FailOnOptions): string[] {
  const { failOn, maxWarnings } = options;
  if (failOn === undefined && maxWarnings === undefined) return [];
  const floor = failOn === undefined ? Infinity : LEVEL_RANK[failOnLevel(failOn)];
  // Counted one run at a time: runs may be read back from disk (runSpill.ts), and none is kept.
  let failing = 0;
  let failingRuns = 0;
  let warnings = 0;
  for (const run of runs) {
    let failingHere = 0;
    for (const finding of run.findings) {
      if (LEVEL_RANK[finding.level] >= floor) failingHere++;
      if (finding.level === "warning") warnings++;
    }
    failing += failingHere;
    if (failingHere > 0) failingRuns++;
  }
  const lines: string[] = [];
  if (failOn !== undefined && failing > 0) lines.push(`✖ ${plural(failing, "finding")} at or above ${failOn} in ${plural(failingRuns, "run")}`);
  if (maxWarnings !== undefined && warnings > maxWarnings) lines.push(`✖ ${plural(warnings, "warning")}, more than --max-warnings ${maxWarnings}`);
  return lines;
}
