/**
 * `--fail-on LEVEL` and `--max-warnings N` (cli.md "Exit status"): when the findings make the exit
 * status 1, one closing line on stderr says why, as eslint does (`✖ 12 findings at or above warning
 * in 3 runs`). A block is a critical verdict: `--fail-on` takes either word.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { LEVEL_RANK, type Finding, type FindingLevel, type RunReport } from "../core/findings.js";
import { plural } from "../reporters/phrases.js";

export const FAIL_ON_CHOICES = ["warning", "critical", "block", "abort"] as const;
export type FailOn = (typeof FAIL_ON_CHOICES)[number];

const FAIL_ON_LEVEL: Record<FailOn, FindingLevel> = { warning: "warning", critical: "critical", block: "critical", abort: "abort" };

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
  const lines: string[] = [];
  // Runs without findings are passed over one at a time (live runs are made as they are read).
  const withFindings: RunReport[] = [];
  for (const run of runs) if (run.findings.length > 0) withFindings.push(run);
  const findings = withFindings.flatMap((run): readonly Finding[] => run.findings);
  if (options.failOn !== undefined) {
    const level = FAIL_ON_LEVEL[options.failOn];
    const floor = LEVEL_RANK[level];
    const failing = findings.filter((f) => LEVEL_RANK[f.level] >= floor);
    if (failing.length > 0) {
      const inRuns = withFindings.filter((run) => run.findings.some((f) => LEVEL_RANK[f.level] >= floor)).length;
      lines.push(`✖ ${plural(failing.length, "finding")} at or above ${options.failOn} in ${plural(inRuns, "run")}`);
    }
  }
  if (options.maxWarnings !== undefined) {
    const warnings = findings.filter((f) => f.level === "warning").length;
    if (warnings > options.maxWarnings) lines.push(`✖ ${plural(warnings, "warning")}, more than --max-warnings ${options.maxWarnings}`);
  }
  return lines;
}
