/**
 * `sweep --format table`: one row per config of the grid (the varied values, runs warned / blocked /
 * aborted, median call of the first blocks, precision/recall when runs are labelled, and the runs
 * whose verdict changed from the row above), then footnotes for clamped configs and the best one.
 */
import { usageSummary } from "./usageText.js";
import { Chalk, type ChalkInstance } from "chalk";
import type { VerdictChange } from "../core/sweepStats.js";
import { detectorState, plural, thresholdList } from "./phrases.js";
import { sanitize } from "./sanitize.js";
import type { SweepReport, SweepReporter, SweepRow } from "./sweepReport.js";
import { columnsOf, fitColumns, renderColumns, type Shrink } from "./tableParts.js";
import { DEFAULT_WIDTH, fitToWidth, wrapWords } from "./textFit.js";

const CLAMP_MARK = "*";
const BEST_MARK = "◀ best";
const SHOWN_CHANGES = 3;
const SHOWN_CLAMP_NOTES = 10;

const fixed = (value: number | null) => (value === null ? "–" : value.toFixed(2));

function changesCell(changes: readonly VerdictChange[]): string {
  if (changes.length === 0) return "";
  // Run ids are cut generously here; the table cuts the cell to the width the terminal leaves.
  const shown = changes.slice(0, SHOWN_CHANGES).map((c) => `${sanitize(c.run.slice(0, 200))} ${c.from}→${c.to}`);
  const more = changes.length > SHOWN_CHANGES ? `, +${changes.length - SHOWN_CHANGES} more` : "";
  return `${shown.join(", ")}${more}`;
}

/** The column of what the stopped runs spent after their first stop (cost.md §3), when the runs recorded usage. */
const AFTER_STOP_HEAD = "spent after 1st stop";

export function hasUsage(report: SweepReport): boolean {
  return report.rows.some((row) => row.stats.afterStop !== undefined);
}

/** `1.7M ($0.51)`: tokens (and money) the runs this config stops spent after their first stop. */
export function afterStopCell(row: SweepRow): string {
  const sum = row.stats.afterStop;
  if (sum === undefined) return "–";
  if (sum.total === undefined && sum.cost === undefined) return "0";
  return usageSummary(sum).replace(" tokens", "");
}

function rowCells(report: SweepReport, row: SweepRow, index: number, chalk: ChalkInstance): string[] {
  const values = report.axes.map((axis) => String(row.vary[axis.key]));
  if (row.clamped.length > 0) values[0] += CLAMP_MARK;
  const { warned, blocked, aborted, firstBlockMedianCall } = row.stats;
  const cells = [...values, String(warned), String(blocked), String(aborted), firstBlockMedianCall === null ? "–" : String(firstBlockMedianCall)];
  if (hasUsage(report)) cells.push(afterStopCell(row));
  if (row.score) {
    const pr = `${fixed(row.score.precision)}/${fixed(row.score.recall)}`;
    cells.push(index === report.best ? chalk.green(`${pr} ${BEST_MARK}`) : pr);
  }
  cells.push(changesCell(row.changed));
  return cells;
}

/**
 * Narrower forms, in the order they are tried: heads get short names (`criticalThreshold` →
 * `critical`), the change list is cut (json lists it whole), the best mark loses its word, and the
 * change list leaves the row for lines of its own.
 */
function sweepShrinks(report: SweepReport, chalk: ChalkInstance): Array<Shrink | Shrink[]> {
  const shortAxis = (key: string) => key.replace(/^.*\./, "").replace(/Threshold$/, "") || key;
  const shortHeads: Shrink[] = [
    ...report.axes.map((axis): Shrink => ({ kind: "head", key: axis.key, head: shortAxis(axis.key) })),
    { kind: "head", key: "median 1st block", head: "1st block" },
    { kind: "head", key: AFTER_STOP_HEAD, head: "after stop" },
    { kind: "head", key: "changed (vs row above)", head: "changed" },
  ];
  const plainBest = report.rows.map((row, i) => {
    const pr = row.score ? `${fixed(row.score.precision)}/${fixed(row.score.recall)}` : "";
    return i === report.best ? chalk.green(`${pr} ◀`) : pr;
  });
  return [
    shortHeads,
    { kind: "clip", key: "changed (vs row above)", min: 24 },
    [
      { kind: "head", key: "warned", head: "warn" },
      { kind: "head", key: "blocked", head: "block" },
      { kind: "head", key: "aborted", head: "abort" },
    ],
    { kind: "clip", key: "changed (vs row above)", min: 12 },
    ...(report.labels ? [{ kind: "replace", key: "P/R", head: "P/R", cells: plainBest } as const] : []),
    { kind: "drop", key: "changed (vs row above)" },
  ];
}

function footnotes(report: SweepReport, chalk: ChalkInstance): string[] {
  const lines: string[] = [];
  const clamped = report.rows.map((row, i) => ({ row, i })).filter(({ row }) => row.clamped.length > 0);
  if (clamped.length > 0) {
    lines.push(`${CLAMP_MARK} clamped: the runtime would adjust these configs (critical above warning, breaker above critical):`);
    for (const { row, i } of clamped.slice(0, SHOWN_CLAMP_NOTES)) lines.push(chalk.dim(`  row ${i + 1} (${pointText(row)}): ${row.clamped.join("; ")}`));
    if (clamped.length > SHOWN_CLAMP_NOTES) lines.push(chalk.dim(`  … and ${clamped.length - SHOWN_CLAMP_NOTES} more (--format json lists them all)`));
  }
  if (report.labels) {
    const best = report.best === undefined ? undefined : report.rows[report.best];
    if (best?.score) {
      const { stuckStopped, stuck } = best.score;
      lines.push(chalk.green(`${BEST_MARK}: ${pointText(best)} stops ${stuckStopped}/${stuck} stuck runs earliest and no healthy run`));
    } else {
      lines.push(chalk.yellow("no config of the grid stops a stuck run without also stopping a healthy one"));
    }
    lines.push(chalk.dim("  P/R: precision (stopped runs that are stuck) / recall (stuck runs stopped); stopped = blocked or aborted"));
  }
  return lines;
}

const pointText = (row: SweepRow) =>
  Object.entries(row.vary)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(" ");

/** How often the input was read: once, or once per profile under `--vary profile` (hashing differs by generation). */
function readsOf(report: SweepReport): string {
  const profiles = report.axes.find((axis) => axis.key === "profile")?.values.length ?? 1;
  return profiles > 1 ? `input read once per profile (${profiles} reads)` : "input read once";
}

export const sweepTableReporter: SweepReporter = (report, options) => {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const runs = report.rows[0]?.stats.runs ?? 0;
  const head = [...report.axes.map((a) => a.key), "warned", "blocked", "aborted", "median 1st block"];
  if (hasUsage(report)) head.push(AFTER_STOP_HEAD);
  if (report.labels) head.push("P/R");
  head.push("changed (vs row above)");
  const width = options.width ?? DEFAULT_WIDTH;
  const columns = columnsOf(head, report.rows.map((row, i) => rowCells(report, row, i, chalk)));
  const fitted = fitColumns(columns, width, sweepShrinks(report, chalk));
  // Too narrow for the change list as a column: it goes under its row, wrapped.
  const changesBelow = fitted.applied.some((shrink) => shrink.kind === "drop");
  const below = (i: number) => {
    const changes = changesCell(report.rows[i]!.changed);
    return changes === "" ? [] : wrapWords(`changed: ${changes}`, width, "   ").map((line) => chalk.dim(line));
  };
  const table = renderColumns(fitted.columns, options.color, changesBelow ? below : undefined).join("\n");
  const out = [
    chalk.dim(`looplens ${report.version} — ${detectorState(report.config)}`),
    `sweep: ${plural(report.rows.length, "config")} over ${plural(runs, "run")} (${plural(report.calls, "call")}) in ${plural(report.files, "file")}; ${readsOf(report)}`,
    chalk.dim(`base: ${thresholdList(report.config.effective)}`),
    "",
    table,
    "",
    ...footnotes(report, chalk),
  ];
  // On a terminal, prose lines wrap at spaces too; on a pipe they stay whole, for grep.
  const text = options.width === undefined ? out.join("\n") : fitToWidth(out.join("\n"), width);
  return `${text.replace(/[ \t]+$/gm, "").trimEnd()}\n`;
};
