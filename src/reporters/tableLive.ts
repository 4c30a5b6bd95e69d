/**
 * The table report's Gateway-log sections: per live run what the runtime logged (one row per
 * pattern, echo lines shown), the findings logged outside any run, and replay vs live per run.
 */
import type { ChalkInstance } from "chalk";
import { levelLabel, type LiveFinding, type LiveRun } from "../core/findings.js";
import type { ComparisonRow } from "./comparison.js";
import { agreementText, comparisonSide } from "./comparisonText.js";
import { callRange } from "./findingGroups.js";
import type { FindingRow, ReportModel, WriteOptions } from "./model.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { plural } from "./phrases.js";
import { columnsOf, fitColumns, levelColor, renderColumns, type Shrink } from "./tableParts.js";
import { DEFAULT_WIDTH } from "./textFit.js";

function liveRunHeader(run: LiveRun, chalk: ChalkInstance): string {
  const live = run.live;
  const counts = live ? ([["armed", live.guard.armed], ["persisted", live.guard.persisted], ["closed", live.guard.windowsClosed]] as const) : [];
  const nonZero = counts.filter(([, n]) => n > 0).map(([what, n]) => `${what} ${n}`);
  const guard = nonZero.length > 0 ? `guard ${nonZero.join(", ")}` : "";
  // Two lines (who, then where and how much), like replayed runs, to fit 80 columns.
  const who = [
    chalk.bold(`live run ${clip(run.run, ID_WIDTH)}`),
    run.agent !== null ? `agent ${clip(run.agent, ID_WIDTH)}` : undefined,
    run.session !== null ? `session ${clip(run.session, ID_WIDTH)}` : undefined,
  ];
  const where = [sanitize(run.file), plural(run.calls, "tool start"), plural(run.compactions, "compaction"), guard];
  let header = who.filter((p) => p !== undefined).join(chalk.dim(" · "));
  header += `\n  ${chalk.dim(where.filter((p) => p !== "").join(" · "))}`;
  const blocks = run.findings.filter((f) => f.level === "critical").length;
  const aborted = run.findings.some((f) => f.level === "abort");
  if (blocks > 0 || aborted) {
    const what = [blocks > 0 ? `blocked ${plural(blocks, "call")}` : "", aborted ? "aborted the run" : ""].filter(Boolean).join(" and ");
    header += `\n${chalk.dim(`  the live runtime ${what} (⏹: rows after its first stop)`)}`;
  }
  if (live && !live.started) header += `\n${chalk.dim("  the run started before this log: call numbers unknown")}`;
  return header;
}

function liveRow(group: FindingRow<LiveFinding>, chalk: ChalkInstance, withCall: boolean): string[] {
  const { first } = group;
  const count = group.minCount === group.maxCount ? String(group.maxCount) : `${group.minCount}–${group.maxCount}`;
  const level = levelColor(chalk, first.level)(levelLabel(first.level)) + (group.verdicts > 1 ? chalk.dim(` ×${group.verdicts}`) : "");
  const echoes = clip((first.echoLines ?? []).join(","), 12);
  const cells = [String(first.line), clip(first.tool, 16), first.detector, level, count, echoes, first.afterStop ? chalk.dim("⏹") : ""];
  return withCall ? [callRange(group), ...cells] : cells;
}

/** The least telling first: echo lines, then room taken from the tool, the count, the detector. */
const LIVE_SHRINKS: readonly Shrink[] = [
  { kind: "drop", key: "echo lines" },
  { kind: "clip", key: "tool", min: 8 },
  { kind: "drop", key: "count" },
  { kind: "clip", key: "detector", min: 12 },
];

function liveTable(groups: readonly FindingRow<LiveFinding>[], options: WriteOptions, chalk: ChalkInstance, withCall: boolean): string {
  if (groups.length === 0) return chalk.dim("  no findings");
  const head = ["line", "tool", "detector", "level", "count", "echo lines", ""];
  const columns = columnsOf(withCall ? ["call", ...head] : head, groups.map((group) => liveRow(group, chalk, withCall)));
  return renderColumns(fitColumns(columns, options.width ?? DEFAULT_WIDTH, LIVE_SHRINKS).columns, options.color).join("\n");
}

const COMPARISON_SHRINKS: readonly Shrink[] = [
  { kind: "clip", key: "tool", min: 8 },
  { kind: "clip", key: "agreement", min: 11 },
  { kind: "clip", key: "detector", min: 12 },
];

/** Live runs with their findings (all live runs with --all), then the findings outside any run. */
export function liveSection(data: ReportModel, options: WriteOptions, chalk: ChalkInstance): string[] {
  if (!data.live) return [];
  const runCount = data.live.runs.length;
  const shown = [...data.live.listed];
  const outside = data.live.outsideRows;
  const out = [chalk.bold("Live runs (what the runtime logged, from Gateway logs)")];
  if (shown.length === 0 && outside.length === 0) out.push(chalk.dim(`  no live findings in ${plural(runCount, "run")}`));
  for (const { run, rows } of shown) out.push(liveRunHeader(run, chalk), liveTable(rows, options, chalk, true), "");
  const hidden = runCount - shown.length;
  if (hidden > 0 && shown.length > 0) out.push(chalk.dim(`${plural(hidden, "live run")} without findings not shown (--all shows them)`), "");
  if (outside.length > 0) out.push(chalk.bold("Live findings outside any run (logged while no run was open)"), liveTable(outside, options, chalk, false), "");
  if (out[out.length - 1] !== "") out.push("");
  return out;
}

function agreementCell(row: ComparisonRow, chalk: ChalkInstance): string {
  const text = agreementText(row);
  return row.agreement === "both" ? chalk.green(text) : chalk.yellow(text);
}

/** Replay vs live per run id found on both sides; nothing when there is no replayed run at all. */
export function comparisonSection(data: ReportModel, options: WriteOptions, chalk: ChalkInstance): string[] {
  const comparison = data.facts().comparison;
  if (!comparison || data.replayedRuns === 0) return [];
  const out = [chalk.bold("Replay vs live (runs lined up by run id; replay under this config, calls as numbered)")];
  if (comparison.runs.length === 0) return [...out, chalk.dim("  no run id appears both in the replayed inputs and in a Gateway log"), ""];
  for (const run of comparison.runs) {
    const rows = comparison.rows.filter((row) => row.run === run);
    out.push(`run ${clip(run, ID_WIDTH)}`);
    if (rows.length === 0) {
      out.push(chalk.dim("  neither the replay nor the live runtime found anything: they agree"), "");
      continue;
    }
    const cells = rows.map((row) => {
      const level = levelColor(chalk, row.level)(levelLabel(row.level));
      return [row.detector, clip(row.tool, 14), level, comparisonSide(row.replay), comparisonSide(row.live), agreementCell(row, chalk)];
    });
    const columns = columnsOf(["detector", "tool", "level", "replay", "live", "agreement"], cells);
    out.push(renderColumns(fitColumns(columns, options.width ?? DEFAULT_WIDTH, COMPARISON_SHRINKS).columns, options.color).join("\n"), "");
  }
  return out;
}
