/**
 * `looplens explain` output: per finding at the place asked for, a header (what fired, the count
 * and the threshold it reached) and the window of calls the detector counted, with their hashes'
 * equality as letters (explainRows.ts). `table` for people (every input string sanitised and cut),
 * `json` for programs.
 */
import { Chalk, type ChalkInstance } from "chalk";
import { levelLabel } from "../core/findings.js";
import type { ExplainedFinding, Explanation } from "./explainModel.js";
import { letterKey, windowRows, type WindowRow } from "./explainRows.js";
import { jsonText } from "./jsonText.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { columnsOf, levelColor, renderColumns } from "./tableParts.js";

export interface ExplainOptions {
  readonly color: boolean;
  readonly width?: number | undefined;
}

/** What `looplens explain` writes (pipeline/explain.ts makes the explanation). */
export interface ExplainReport {
  readonly explanation: Explanation;
  readonly version: string;
}

/** A format of `looplens explain` (the registry's `explain` list: index.ts). */
export type ExplainReporter = (report: ExplainReport, options: ExplainOptions) => string;

const windowSize = (explained: ExplainedFinding) =>
  explained.traced.kind === "history" ? explained.traced.historySize : explained.traced.finding.threshold.value;

function windowLine(explained: ExplainedFinding): string {
  const { traced } = explained;
  const n = traced.rows.length;
  if (traced.kind === "guard") return `window: ${n} outcome${n === 1 ? "" : "s"} after the compaction (guard windowSize=${windowSize(explained)})`;
  return `window: ${n} history record${n === 1 ? "" : "s"} before call ${traced.probe.call} (historySize=${traced.historySize})`;
}

function header(explained: ExplainedFinding, chalk: ChalkInstance, width: number): string[] {
  const f = explained.traced.finding;
  const who = [`run ${clip(f.run, ID_WIDTH)}`, f.agent !== null ? `agent ${clip(f.agent, ID_WIDTH)}` : undefined, f.session !== null ? `session ${clip(f.session, ID_WIDTH)}` : undefined];
  const lines = [
    chalk.bold(`${sanitize(f.file)}:${f.line}`) + chalk.dim(` · call ${f.call} · ${clip(f.tool, 40)}`),
    chalk.dim(`  ${who.filter((part) => part !== undefined).join(" · ")}`),
    `  ${f.detector} ${levelColor(chalk, f.level)(levelLabel(f.level))}: count ${f.count} reached ${f.threshold.name}=${f.threshold.value}${f.afterStop ? chalk.dim(" (after the run's first would-be stop)") : ""}`,
    chalk.dim(`  ${clip(f.message, Math.max(20, width - 3))}`),
    `  ${windowLine(explained)}`,
  ];
  if (explained.count.total !== f.count) {
    lines.push(chalk.yellow(`  note: the marks below add up to ${explained.count.total}, the detector counted ${f.count}: please report this`));
  }
  return lines;
}

function resultCell(row: WindowRow): string {
  if (row.judged) return "·";
  if (row.veto) return "veto";
  return row.result ?? "–";
}

function countCell(row: WindowRow, explained: ExplainedFinding, chalk: ChalkInstance): string {
  const f = explained.traced.finding;
  if (row.judged) return chalk.bold(`${f.count} ≥ ${f.threshold.value}`);
  return row.running !== null ? String(row.running) : "";
}

/** `18`, or `file:18` when the call is in another file of the input than the finding. */
function placeCell(row: WindowRow, file: string): string {
  return row.file === file ? String(row.line) : `${clip(row.file, 40)}:${row.line}`;
}

function windowTable(explained: ExplainedFinding, rows: readonly WindowRow[], options: ExplainOptions, chalk: ChalkInstance): string {
  const file = explained.traced.finding.file;
  const cells = rows.map((row) => {
    const mark = row.judged ? "→" : row.counted ? "●" : "";
    const line = [mark, String(row.call), placeCell(row, file), clip(row.tool, 24), row.args, resultCell(row), countCell(row, explained, chalk)];
    return row.counted || row.judged ? line : line.map((cell) => chalk.dim(cell));
  });
  return renderColumns(columnsOf(["", "call", "line", "tool", "args", "result", "count"], cells), options.color).join("\n");
}

/** What each letter stands for (explainRows.ts `letterKey`), one line each. */
function keyLines(rows: readonly WindowRow[], width: number): string[] {
  return letterKey(rows).map(({ letter, text }) => `  ${letter.padEnd(3)} ${clip(text, Math.max(20, width - 6))}`);
}

const LEGEND = [
  "● counted by the detector · → the judged call (its count against the threshold)",
  "args: A = the judged call's arguments, B, C… others",
  "result: x = newest counted call's, y, z… others; – none yet; veto = loop veto",
];

export function explainTable(explanation: Explanation, options: ExplainOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const width = options.width ?? 100;
  const parts = explanation.explained.map((explained) => {
    const rows = windowRows(explained);
    return [...header(explained, chalk, width), "", windowTable(explained, rows, options, chalk), "", ...keyLines(rows, width)].join("\n");
  });
  return `${parts.join("\n\n")}\n\n${LEGEND.map((line) => chalk.dim(line)).join("\n")}\n`;
}

export function explainJson(explanation: Explanation, version: string): string {
  const findings = explanation.explained.map((explained) => {
    const f = explained.traced.finding;
    return {
      run: f.run,
      agent: f.agent,
      session: f.session,
      file: f.file,
      line: f.line,
      call: f.call,
      tool: f.tool,
      detector: f.detector,
      level: f.level,
      count: f.count,
      threshold: f.threshold,
      afterStop: f.afterStop,
      message: f.message,
      profile: explained.traced.profile,
      window: {
        kind: explained.traced.kind,
        size: windowSize(explained),
        counted: explained.count.total,
        calls: windowRows(explained).map((row) => ({
          call: row.call,
          file: row.file,
          line: row.line,
          tool: row.tool,
          args: row.args,
          result: row.result,
          veto: row.veto,
          counted: row.counted,
          count: row.running,
          judged: row.judged,
          argsHash: row.argsHash,
          resultHash: row.resultHash,
          argsPreview: row.preview?.args ?? null,
          outcomePreview: row.preview?.outcome ?? null,
        })),
      },
    };
  });
  const { path, line, run, call } = explanation.target;
  return `${jsonText({ version, target: { file: path, line: line ?? null, run: run ?? null, call: call ?? null }, findings }, "  ")}\n`;
}

export const explainTableReporter: ExplainReporter = (report, options) => explainTable(report.explanation, options);
export const explainJsonReporter: ExplainReporter = (report) => explainJson(report.explanation, report.version);
