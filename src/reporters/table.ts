/**
 * `--format table` (the default on a terminal): per run a header line and one row per pattern,
 * then a summary. Sized for 80 columns: the file is named in the run header, so rows carry only
 * line numbers, and long tool names are clipped.
 */
import { Chalk, type ChalkInstance } from "chalk";
import { levelLabel, type ReplayedRun } from "../core/findings.js";
import { configHeaderLines, overrideLine, thresholdLines } from "./configView.js";
import { callRange, groupFindings, type FindingGroup } from "./findingGroups.js";
import { detectorState, filterNotes, plural, runProfileLine, transcriptNote } from "./phrases.js";
import type { ReportModel, ReportOptions, Reporter } from "./model.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { borderlessTable, levelColor } from "./tableParts.js";
import { comparisonSection, liveSection } from "./tableLive.js";

function runHeader(run: ReplayedRun, chalk: ChalkInstance, config: ReportModel["config"]): string {
  // Two lines (who, then where and how much) so that headers fit 80 columns.
  const who = [
    chalk.bold(`run ${clip(run.run, ID_WIDTH)}`),
    run.agent !== null ? `agent ${clip(run.agent, ID_WIDTH)}` : undefined,
    run.session !== null ? `session ${clip(run.session, ID_WIDTH)}` : undefined,
  ];
  const where = [sanitize(run.file), plural(run.calls, "call"), plural(run.compactions, "compaction")];
  let header = who.filter((p) => p !== undefined).join(chalk.dim(" · "));
  header += `\n  ${chalk.dim(where.join(" · "))}`;
  const override = run.agent !== null ? config.agentConfigs?.find((view) => view.runAgents.includes(run.agent!)) : undefined;
  const changes = override ? overrideLine(override, config.effective) : "";
  if (changes) header += `\n${chalk.dim(`  ${changes}`)}`;
  const profile = runProfileLine(run, config);
  if (profile) header += `\n${chalk.dim(`  ${profile}`)}`;
  if (run.firstStop) {
    const what = run.firstStop.kind === "abort" ? "aborted" : "blocked";
    header += `\n${chalk.dim(`  would have been ${what} at call ${run.firstStop.call} under this config (⏹: later rows)`)}`;
  }
  if (run.recordedVetoes > 0) header += `\n${chalk.dim(`  ${plural(run.recordedVetoes, "call")} really blocked by the live runtime (loop veto in the transcript)`)}`;
  return header;
}

function findingRow(group: FindingGroup, chalk: ChalkInstance, toolWidth: number): string[] {
  const { first } = group;
  const color = levelColor(chalk, first.level);
  const count = group.minCount === group.maxCount ? String(group.maxCount) : `${group.minCount}–${group.maxCount}`;
  const level = color(levelLabel(first.level)) + (group.verdicts > 1 ? chalk.dim(` ×${group.verdicts}`) : "");
  return [
    callRange(group),
    String(first.line),
    clip(first.tool, toolWidth),
    first.detector,
    level,
    count,
    `${first.threshold.name}=${first.threshold.value}`,
    first.afterStop ? chalk.dim("⏹") : "",
  ];
}

function runTable(run: ReplayedRun, options: ReportOptions, chalk: ChalkInstance): string {
  const groups = groupFindings(run.findings, options.verbose);
  if (groups.length === 0) return chalk.dim("  no findings");
  const toolWidth = Math.max(8, Math.min(24, (options.width ?? 80) - 66));
  const table = borderlessTable(["call", "line", "tool", "detector", "level", "count", "threshold", ""], options.color);
  for (const group of groups) table.push(findingRow(group, chalk, toolWidth));
  return table.toString();
}

function summaryBlock(data: ReportModel, chalk: ChalkInstance): string {
  const s = data.summary;
  const lines = [
    chalk.bold("Summary"),
    `  ${plural(s.files, "file")}, ${plural(s.lines.read, "line")} (${s.lines.used} used, ${s.lines.ignored} ignored, ${s.lines.skipped} skipped)${s.filesNotRead > 0 ? `; ${plural(s.filesNotRead, "file")} not read` : ""}`,
    `  ${plural(s.runs, "run")}, ${plural(s.calls, "call")}, ${plural(s.compactions, "compaction")}`,
    `  runs with warnings ${s.runsWith.warning}, blocks ${s.runsWith.critical}, aborts ${s.runsWith.abort}`,
    chalk.dim(`  findings: ${s.findings.warning} warning, ${s.findings.critical} block, ${s.findings.abort} abort`),
    // Two lines so the summary fits 80 columns.
    "  thresholds:",
    ...thresholdLines(data.config.effective).map((line) => `    ${line}`),
  ];
  const transcripts = transcriptNote(s);
  if (transcripts !== undefined) lines.splice(2, 0, chalk.dim(`  ${transcripts}`));
  if (s.live) {
    const outside = s.live.outsideRuns > 0 ? `, ${s.live.outsideRuns} outside any run` : "";
    lines.splice(3, 0, chalk.dim(`  of which from Gateway logs: ${plural(s.live.runs, "live run")}, ${plural(s.live.findings.total, "live finding")}${outside}`));
  }
  for (const note of filterNotes(s)) lines.push(chalk.dim(`  ${sanitize(note)}`));
  if (data.config.agentOverrides.length > 0) lines.push(`  agent overrides applied: ${data.config.agentOverrides.map(sanitize).join(", ")}`);
  if (s.findings.total === 0) lines.push(chalk.green(`  No loop findings in ${plural(s.runs, "run")}.`));
  return lines.join("\n");
}

export const tableReporter: Reporter = (data, options) => {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const header = configHeaderLines(data.config).map((line) => `  ${line}`);
  const out: string[] = [chalk.dim([`looplens ${data.version} — ${detectorState(data.config)}`, ...header].join("\n")), ""];
  const replayed = data.replayed;
  const shown = replayed.filter((run) => options.all || run.findings.length > 0 || run.recordedVetoes > 0);
  for (const run of shown) out.push(runHeader(run, chalk, data.config), runTable(run, options, chalk), "");
  const hidden = replayed.length - shown.length;
  if (hidden > 0 && shown.length > 0) out.push(chalk.dim(`${plural(hidden, "run")} without findings not shown (--all shows them)`), "");
  // Loops, not push(...lines): a section per live run can exceed the arguments a call may take.
  if (data.live) for (const line of [...liveSection(data, options, chalk), ...comparisonSection(data, options, chalk)]) out.push(line);
  out.push(summaryBlock(data, chalk));
  // cli-table3 pads every cell; trailing blanks only make copy-paste and diffs noisy.
  return `${out.join("\n").replace(/[ \t]+$/gm, "")}\n`;
};
