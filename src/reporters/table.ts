/**
 * `--format table` (the default on a terminal): per run a header line and one row per pattern,
 * then a summary. Sized for 80 columns: the file is named in the run header, so rows carry only
 * line numbers, and long tool names are clipped.
 */
import { Chalk, type ChalkInstance } from "chalk";
import Table from "cli-table3";
import { levelLabel, type FindingLevel, type RunReport } from "../core/findings.js";
import { configHeaderLines, overrideLine } from "./configView.js";
import { sanitize, clip } from "./sanitize.js";
import {
  callRange,
  detectorState,
  groupFindings,
  plural,
  summarize,
  thresholdList,
  type FindingGroup,
  type ReportData,
  type ReportOptions,
  type Reporter,
} from "./reportData.js";

/** cli-table3 characters for a table without borders (columns separated by one space). */
export const BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: " ",
};

/** A borderless cli-table3 table with bold headings when colour is on. */
export function borderlessTable(head: string[], color: boolean): Table.Table {
  return new Table({
    head,
    chars: BORDERLESS,
    style: { head: color ? ["bold"] : [], border: [], "padding-left": 1, "padding-right": 0, compact: true },
  });
}

function levelColor(chalk: ChalkInstance, level: FindingLevel): (text: string) => string {
  if (level === "abort") return chalk.magenta.bold;
  if (level === "critical") return chalk.red.bold;
  return chalk.yellow;
}


function runHeader(run: RunReport, chalk: ChalkInstance, config: ReportData["config"]): string {
  const parts = [
    chalk.bold(`run ${sanitize(run.run)}`),
    run.agent !== null ? `agent ${sanitize(run.agent)}` : undefined,
    run.session !== null ? `session ${sanitize(run.session)}` : undefined,
    sanitize(run.file),
    plural(run.calls, "call"),
    plural(run.compactions, "compaction"),
  ];
  let header = parts.filter((p) => p !== undefined).join(chalk.dim(" · "));
  const override = run.agent !== null ? config.agentConfigs?.find((view) => view.runAgents.includes(run.agent!)) : undefined;
  const changes = override ? overrideLine(override, config.effective) : "";
  if (changes) header += `\n${chalk.dim(`  ${changes}`)}`;
  if (run.firstStop) {
    const what = run.firstStop.kind === "abort" ? "aborted" : "blocked";
    header += `\n${chalk.dim(`  under this config the run would have been ${what} at call ${run.firstStop.call}; rows marked ⏹ come after that point`)}`;
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

function runTable(run: RunReport, options: ReportOptions, chalk: ChalkInstance): string {
  const groups = groupFindings(run.findings, options.verbose);
  if (groups.length === 0) return chalk.dim("  no findings");
  const toolWidth = Math.max(8, Math.min(24, (options.width ?? 80) - 66));
  const table = borderlessTable(["call", "line", "tool", "detector", "level", "count", "threshold", ""], options.color);
  for (const group of groups) table.push(findingRow(group, chalk, toolWidth));
  return table.toString();
}

function summaryBlock(data: ReportData, chalk: ChalkInstance): string {
  const s = summarize(data);
  const lines = [
    chalk.bold("Summary"),
    `  ${plural(s.files, "file")}, ${plural(s.lines.read, "line")} (${s.lines.used} used, ${s.lines.ignored} ignored, ${s.lines.skipped} skipped)`,
    `  ${plural(s.runs, "run")}, ${plural(s.calls, "call")}, ${plural(s.compactions, "compaction")}`,
    `  runs with warnings ${s.runsWith.warning}, blocks ${s.runsWith.block}, aborts ${s.runsWith.abort}` +
      chalk.dim(` (findings: ${s.findings.warning} warning, ${s.findings.critical} block, ${s.findings.abort} abort)`),
    `  thresholds: ${thresholdList(data.config.effective)}`,
  ];
  if (data.config.agentOverrides.length > 0) lines.push(`  agent overrides applied: ${data.config.agentOverrides.map(sanitize).join(", ")}`);
  if (s.findings.total === 0) lines.push(chalk.green(`  No loop findings in ${plural(s.runs, "run")}.`));
  return lines.join("\n");
}

export const tableReporter: Reporter = (data, options) => {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const header = configHeaderLines(data.config).map((line) => `  ${line}`);
  const out: string[] = [chalk.dim([`looplens ${data.version} — ${detectorState(data.config)}`, ...header].join("\n")), ""];
  const shown = data.runs.filter((run) => options.all || run.findings.length > 0 || run.recordedVetoes > 0);
  for (const run of shown) out.push(runHeader(run, chalk, data.config), runTable(run, options, chalk), "");
  if (data.liveFindings && data.liveFindings.length > 0) {
    out.push(chalk.bold("Live findings (from Gateway logs)"));
    const groups = groupFindings(data.liveFindings, options.verbose);
    const table = borderlessTable(["run", "line", "tool", "detector", "level", "count"], options.color);
    for (const g of groups) {
      table.push([clip(g.first.run, 16), String(g.first.line), clip(g.first.tool, 16), g.first.detector, levelLabel(g.first.level), String(g.maxCount)]);
    }
    out.push(table.toString(), "");
  }
  const hidden = data.runs.length - shown.length;
  if (hidden > 0 && shown.length > 0) out.push(chalk.dim(`${plural(hidden, "run")} without findings not shown (--all shows them)`), "");
  out.push(summaryBlock(data, chalk));
  // cli-table3 pads every cell; trailing blanks only make copy-paste and diffs noisy.
  return `${out.join("\n").replace(/[ \t]+$/gm, "")}\n`;
};
