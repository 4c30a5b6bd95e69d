/**
 * When the findings make the exit status 1 (`--fail-on`, `--max-warnings`: cli.md "Exit status"),
 * one closing line on stderr says why, as eslint does (`✖ 12 findings at or above warning in 3
 * runs`); none when they pass. Written from the report's tally (reporters/model.ts `Gate`), whatever
 * the format: live findings count too (the runtime really logged them at that level).
 */
import type { Gate } from "./model.js";
import { plural } from "./phrases.js";

export function failureLines(gate: Gate): string[] {
  const lines: string[] = [];
  const { failOn, maxWarnings, failing } = gate;
  if (failOn !== undefined && failing.findings > 0) lines.push(`✖ ${plural(failing.findings, "finding")} at or above ${failOn} in ${plural(failing.runs, "run")}`);
  if (maxWarnings !== undefined && gate.warnings > maxWarnings) lines.push(`✖ ${plural(gate.warnings, "warning")}, more than --max-warnings ${maxWarnings}`);
  return lines;
}
