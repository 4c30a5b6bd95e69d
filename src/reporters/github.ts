/**
 * `--format github`: GitHub Actions workflow commands, one annotation per table row (repeated
 * verdicts of one pattern collapse as in the table; `--verbose` gives one per verdict), pointing at
 * the transcript line: `::warning file=…,line=…,title=…::message` for warnings, `::error …` for
 * blocks and aborts. GitHub shows only a few annotations per step, so collapsing keeps every
 * pattern visible.
 *
 * Escaping follows the runner's rules (actions/toolkit `command.ts`): in the message `%`, CR and LF
 * become `%25`, `%0D`, `%0A`; in property values `:` and `,` also become `%3A` and `%2C`. Input text
 * is sanitized first, so no control character or newline can start a command of its own.
 */
import { levelLabel, type Finding } from "../core/findings.js";
import type { Comparison } from "./comparison.js";
import { agreementText, comparisonSide } from "./comparisonText.js";
import { callRange, type FindingGroup } from "./findingGroups.js";
import type { Reporter } from "./model.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";

export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function workflowCommand(command: string, properties: Record<string, string | number>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${command}${props ? ` ${props}` : ""}::${escapeData(message)}`;
}

/** A finding's message names its tool, which may be any length; annotations stay readable. */
const MESSAGE_WIDTH = 1000;

function annotation(group: FindingGroup): string {
  const f: Finding = group.first;
  const command = f.level === "warning" ? "warning" : "error";
  const where = group.verdicts > 1 ? `calls ${callRange(group)}, ${group.verdicts} verdicts` : f.call === null ? "call unknown" : `call ${f.call}`;
  const after = f.afterStop ? "; after the run's first would-be stop" : "";
  const live = f.source === "log" ? "live " : "";
  const title = `looplens ${live}${levelLabel(f.level)} · ${f.detector} · ${f.threshold.name}=${f.threshold.value}`;
  const message = `${clip(f.message, MESSAGE_WIDTH)} [run ${clip(f.run ?? "none", ID_WIDTH)}, ${where}${after}]`;
  return workflowCommand(command, { file: sanitize(f.file), line: f.line, title }, message);
}

/**
 * Where the replay and the live runtime disagree (one side fired, the other did not), a notice at
 * the first finding of the side that fired: agreeing rows need no annotation of their own.
 */
function comparisonNotices(comparison: Comparison | undefined): string[] {
  if (!comparison) return [];
  return comparison.rows
    .filter((row) => row.agreement !== "both")
    .map((row) => {
      const side = (row.replay ?? row.live)!;
      const title = `looplens replay vs live · ${row.detector} · ${levelLabel(row.level)}`;
      const message = `run ${clip(row.run, ID_WIDTH)}, ${clip(row.tool, ID_WIDTH)}: ${agreementText(row)} (replay ${comparisonSide(row.replay)}, live ${comparisonSide(row.live)})`;
      return workflowCommand("notice", { file: sanitize(side.file), line: side.line, title }, message);
    });
}

/** Written a run's annotations at a time: runs spilled to disk are read back one by one. */
export const githubReporter: Reporter = function* (data) {
  const lines = (commands: readonly string[]) => commands.map((line) => `${line}\n`).join("");
  for (const { rows } of data.runs) yield lines(rows.map(annotation));
  yield lines((data.live?.rows ?? []).map(annotation));
  yield lines(comparisonNotices(data.facts().comparison));
};
