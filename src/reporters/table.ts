/**
 * `--format table` (the default on a terminal): per run a header and one row per pattern with its
 * explanation line under it, then a summary (with the worst runs) and a one-line legend. Fitted to
 * the terminal width (80 when unknown): when the full table is too wide, the least telling columns
 * give way first (findingColumns), and on a terminal prose lines wrap at spaces, never inside a word.
 */
import { NO_ROW_USAGE, rowUsage, runUsagePhrase, summaryUsagePhrase, type RowUsage } from "./usageText.js";
import { Chalk, type ChalkInstance } from "chalk";
import { levelLabel, type LiveRun, type ReplayedRun } from "../core/findings.js";
import { configHeaderLines, overrideLine, overrideOf, thresholdLines } from "./configView.js";
import { callRange } from "./findingGroups.js";
import { detectorState, filterNotes, LEGEND, plural, runProfileLine, transcriptDetails, transcriptSummary } from "./phrases.js";
import type { FindingRow, ReportModel, ReportRun, Reporter, WriteOptions } from "./model.js";
import { headerPath, headerSession, location, runtimeFacts, stopText } from "./runFacts.js";
import { identityParts } from "./runIdentityText.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { fitColumns, levelColor, renderColumns, tableWidth, type Column, type Shrink } from "./tableParts.js";
import { comparisonSection, liveSection } from "./tableLive.js";
import { clipToWidth, DEFAULT_WIDTH, displayWidth, fitToWidth, wrapWords } from "./textFit.js";

/** Who the run was: the first line of its header (a compact run's line begins with it). */
function runWho(run: ReplayedRun, chalk: ChalkInstance): string {
  const who = [run.agent !== null ? `agent ${clip(run.agent, ID_WIDTH)}` : "", run.session !== null ? `session ${headerSession(run.session, run.file)}` : ""].filter(Boolean);
  return [chalk.bold(`run ${clip(run.run, ID_WIDTH)}`), ...who].join(chalk.dim(" · "));
}

/** Where the run is, in at most `room` columns (the path gives way: runFacts.ts `headerPath`), then its calls and compactions. */
function runWhere(run: ReplayedRun, options: WriteOptions, room: number): string {
  const counts = ` · ${plural(run.calls, "call")} · ${plural(run.compactions, "compaction")}`;
  return `${headerPath(run.file, run.session, options, room - displayWidth(counts))}${counts}`;
}

/** What a run header says beyond identity: an override, a profile, the stop, the runtime's own facts. */
function runNotes(run: ReplayedRun, data: ReportModel, options: WriteOptions, live: LiveRun | undefined): string[] {
  const config = data.config;
  const override = overrideOf(run, config);
  const changes = override ? overrideLine(override, config.effective) : "";
  const profile = runProfileLine(run, config);
  const stop = run.firstStop ? `would have been ${run.firstStop.kind === "abort" ? "aborted" : "blocked"} at call ${run.firstStop.call} under this config (⏹: later rows)` : "";
  return [changes, profile ?? "", stop, ...runtimeFacts(run, live, options.cwd)].filter((line) => line !== "");
}

/** A run's header: who, where, when and on what, what it was asked (prompt), then its notes. */
function runHeader({ run, identity }: ReportRun, chalk: ChalkInstance, options: WriteOptions, notes: readonly string[]): string {
  const width = options.width ?? DEFAULT_WIDTH;
  const where = runWhere(run, options, width - 2);
  const lines = [runWho(run, chalk)];
  // What the run's turns used goes on the path's line when both fit whole, else on a line of its own.
  const usage = runUsagePhrase(run);
  if (usage === undefined) lines.push(chalk.dim(`  ${where}`));
  else if (displayWidth(`${where} · ${usage}`) <= width - 2) lines.push(chalk.dim(`  ${where} · ${usage}`));
  else lines.push(chalk.dim(`  ${where}`), chalk.dim(`  ${clipToWidth(usage, width - 2)}`));
  const parts = identityParts(identity);
  if (parts.length > 0) lines.push(`  ${clipToWidth(parts.join(" · "), width - 2)}`);
  if (identity.prompt !== null) lines.push(chalk.dim(`  ${clipToWidth(`prompt: ${identity.prompt}`, width - 2)}`));
  for (const line of notes) lines.push(chalk.dim(`  ${line}`));
  return lines.join("\n");
}

/**
 * `--all`: a run with no findings and nothing else to say (no stop, veto, override or profile note)
 * in one line, its header's first two joined (cli.md: run, agent, session, file, calls,
 * compactions), so that the runs worth reading are not lost among many quiet ones. Its time and
 * prompt are `looplens runs`' to list.
 */
function compactRun(run: ReplayedRun, chalk: ChalkInstance, options: WriteOptions): string {
  const who = runWho(run, chalk);
  const room = (options.width ?? DEFAULT_WIDTH) - displayWidth(who) - displayWidth(" · ") - displayWidth(" · no findings");
  return `${who}${chalk.dim(` · ${runWhere(run, options, room)} · no findings`)}`;
}

/** The columns of a run's findings at full width, and the shorter forms the shrinks switch to. */
function findingColumns(groups: readonly FindingRow[], chalk: ChalkInstance, cwd: string | undefined, explain: boolean) {
  const level = (group: FindingRow, times: boolean) =>
    levelColor(chalk, group.first.level)(levelLabel(group.first.level)) + (times && group.verdicts > 1 ? chalk.dim(` ×${group.verdicts}`) : "");
  const cells = (f: (group: FindingRow) => string) => groups.map(f);
  const columns: Column[] = [
    { key: "call", head: "call", cells: cells(callRange) },
    { key: "where", head: "file:line", cells: cells((g) => location(g.first.file, g.first.line, cwd)) },
    { key: "tool", head: "tool", cells: cells((g) => sanitize(g.first.tool)) },
    { key: "detector", head: "detector", cells: cells((g) => g.first.detector) },
    { key: "level", head: "level", cells: cells((g) => level(g, true)) },
    { key: "count", head: "count", cells: cells((g) => (g.minCount === g.maxCount ? String(g.maxCount) : `${g.minCount}–${g.maxCount}`)) },
    { key: "threshold", head: "threshold", cells: cells((g) => `${g.first.threshold.name}=${g.first.threshold.value}`) },
    { key: "mark", head: "", cells: cells((g) => (g.first.afterStop ? chalk.dim("⏹") : "")) },
  ];
  // In the order they are tried: the count is in the explanation line too, the threshold's name
  // moves into it, the file to its start (and is in the run header).
  const fileToLine: Shrink = { kind: "replace", key: "where", head: "line", cells: cells((g) => String(g.first.line)) };
  const shrinks: Shrink[] = [
    { kind: "drop", key: "count" },
    { kind: "replace", key: "threshold", head: "limit", cells: cells((g) => String(g.first.threshold.value)) },
    ...(explain ? [fileToLine] : []),
    { kind: "clip", key: "tool", min: 12 },
    { kind: "replace", key: "level", head: "level", cells: cells((g) => level(g, false)) },
    { kind: "clip", key: "tool", min: 8 },
    { kind: "clip", key: "detector", min: 12 },
    // Without explanation lines the file has nowhere else to go: it is the last to give way.
    ...(explain ? [] : [fileToLine]),
    { kind: "clip", key: "tool", min: 4 },
  ];
  return { columns, shrinks };
}

/** A run's findings table (its rows) with their explanation lines (also the text of a junit failure). */
export function runTable(groups: readonly FindingRow[], options: WriteOptions, chalk: ChalkInstance, width: number, usageOf: RowUsage = NO_ROW_USAGE): string {
  if (groups.length === 0) return chalk.dim("  no findings");
  const { columns, shrinks } = findingColumns(groups, chalk, options.cwd, options.explain !== false);
  const fitted = fitColumns(columns, width, shrinks);
  // What the narrower table left out of the row goes into the explanation line.
  const fileMoved = fitted.applied.some((shrink) => shrink.key === "where");
  const thresholdNamed = fitted.applied.some((shrink) => shrink.key === "threshold");
  // Explanations start under the second column, so the call numbers stay easy to scan.
  const indent = " ".repeat(Math.min(12, tableWidth(fitted.columns.slice(0, 1)) + 1));
  const below = (row: number) => {
    const group = groups[row]!;
    // Only whole: a clipped location opens nothing (the header names the file, the row the line).
    const at = location(group.first.file, group.first.line, options.cwd);
    const where = fileMoved && displayWidth(at) + 1 <= width - indent.length ? `${at}: ` : "";
    const usage = usageOf(group);
    return wrapWords(`${where}${thresholdNamed ? group.explanationNamed : group.explanation}${usage === undefined ? "" : ` · ${usage}`}`, width, indent).map((line) => chalk.dim(line));
  };
  return renderColumns(fitted.columns, options.color, options.explain === false ? undefined : below).join("\n");
}

function worstRunLines(data: ReportModel, options: WriteOptions): string[] {
  const { shown, total } = data.facts().worstRuns;
  if (total === 0) return [];
  const lines = [`  worst runs${total > shown.length ? ` (${shown.length} of ${total})` : ""}:`];
  for (const worst of shown) {
    const { run } = worst;
    const { what, where } = stopText(worst, options.cwd);
    lines.push(`    ${clip(run.run, ID_WIDTH)}${run.agent !== null ? ` (agent ${clip(run.agent, ID_WIDTH)})` : ""}: ${what}${where ? ` · ${where}` : ""}`);
  }
  return lines;
}

/** One plain line on repeated entries and rebuilt calls; under `--verbose`, a line for each kind. */
function transcriptLines(s: ReportModel["summary"], verbose: boolean): string[] {
  const summary = transcriptSummary(s);
  if (summary === undefined) return [];
  return verbose ? ["transcripts:", ...transcriptDetails(s).map((detail) => `  ${detail}`)] : [`transcripts: ${summary}`];
}

function summaryBlock(data: ReportModel, chalk: ChalkInstance, options: WriteOptions): string {
  const s = data.summary;
  const outside = s.live && s.live.outsideRuns > 0 ? `, ${s.live.outsideRuns} outside any run` : "";
  const live = s.live ? [chalk.dim(`  of which from Gateway logs: ${plural(s.live.runs, "live run")}, ${plural(s.live.findings.total, "live finding")}${outside}`)] : [];
  const lines = [
    chalk.bold("Summary"),
    `  ${plural(s.files, "file")}, ${plural(s.lines.read, "line")} (${s.lines.used} used, ${s.lines.ignored} ignored, ${s.lines.skipped} skipped)${s.filesNotRead > 0 ? `; ${plural(s.filesNotRead, "file")} not read` : ""}`,
    ...transcriptLines(s, data.choices.verbose).map((line) => chalk.dim(`  ${line}`)),
    `  ${plural(s.runs, "run")}, ${plural(s.calls, "call")}, ${plural(s.compactions, "compaction")}`,
    ...live,
    `  runs with warnings ${s.runsWith.warning}, blocks ${s.runsWith.critical}, aborts ${s.runsWith.abort}`,
    ...(s.usage !== undefined ? [`  usage: ${summaryUsagePhrase(s.usage)}`] : []),
    ...worstRunLines(data, options),
    chalk.dim(`  findings: ${s.findings.warning} warning, ${s.findings.critical} block, ${s.findings.abort} abort`),
    // Two lines so the summary fits 80 columns.
    "  thresholds:",
    ...thresholdLines(data.config.effective).map((line) => `    ${line}`),
  ];
  for (const note of filterNotes(s)) lines.push(chalk.dim(`  ${sanitize(note)}`));
  if (data.config.agentOverrides.length > 0) lines.push(`  agent overrides applied: ${data.config.agentOverrides.map(sanitize).join(", ")}`);
  if (s.findings.total === 0) lines.push(chalk.green(`  No loop findings in ${plural(s.runs, "run")}.`));
  return lines.join("\n");
}

/**
 * Written a run's section at a time (runs spilled to disk are read back one by one), each piece a
 * whole number of lines: the text is the one the pieces make joined.
 */
export const tableReporter: Reporter = function* (data, options) {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const width = options.width ?? DEFAULT_WIDTH;
  // On a terminal, prose lines wrap at spaces too; on a pipe they stay whole, for grep. Trailing
  // blanks (cell padding) only make copy-paste and diffs noisy.
  const lines = (...pieces: string[]) => {
    if (pieces.length === 0) return "";
    const text = pieces.join("\n");
    return `${(options.width === undefined ? text : fitToWidth(text, width)).replace(/[ \t]+$/gm, "")}\n`;
  };
  const header = configHeaderLines(data.config).map((line) => `  ${line}`);
  yield lines(chalk.dim([`looplens ${data.version} — ${detectorState(data.config)}`, ...header].join("\n")), "");
  // Quiet runs (--all) one line each, one after another; a blank line between them and a whole run.
  let afterCompact = false;
  for (const entry of data.runs) {
    if (!entry.listed) continue;
    const notes = runNotes(entry.run, data, options, entry.liveStop);
    const compact = entry.rows.length === 0 && notes.length === 0;
    const gap = afterCompact && !compact ? [""] : [];
    afterCompact = compact;
    yield compact ? lines(compactRun(entry.run, chalk, options)) : lines(...gap, runHeader(entry, chalk, options, notes), runTable(entry.rows, options, chalk, width, rowUsage(entry.run)), "");
  }
  if (afterCompact) yield lines("");
  const { hidden, listed } = data.facts();
  if (hidden > 0 && listed > 0) yield lines(chalk.dim(`${plural(hidden, "run")} without findings not shown (--all shows them)`), "");
  if (data.live) yield lines(...liveSection(data, options, chalk), ...comparisonSection(data, options, chalk));
  // Human outputs say "block" for a critical verdict: said once, under the tables that use it.
  yield lines(summaryBlock(data, chalk, options), ...(data.summary.findings.total > 0 ? ["", chalk.dim(LEGEND)] : []));
};
