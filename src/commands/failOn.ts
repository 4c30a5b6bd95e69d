/**
 * The flags `--fail-on LEVEL` and `--max-warnings N` (cli.md "Exit status"). What they judge is
 * counted with the report (pipeline/gate.ts), and the closing line that says why the exit status is
 * 1 is written from it (reporters/failureLines.ts). A block is a critical verdict: `--fail-on` takes
 * either word.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import type { FailOnWord } from "../reporters/model.js";

export const FAIL_ON_CHOICES = ["warning", "critical", "block", "abort"] as const satisfies readonly FailOnWord[];
export type FailOn = (typeof FAIL_ON_CHOICES)[number];

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
