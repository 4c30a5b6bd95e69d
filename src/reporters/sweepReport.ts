/**
 * What the sweep reporters receive (one row per config of the grid), and the machine formats:
 * `--format ndjson` is exactly the line the spec fixes (cli.md "Machine outputs"); `--format json`
 * is one document whose `configs[]` carry the same keys first, then the extras (clamping, changed
 * runs, label scores).
 */
import type { LineCounts } from "../core/findings.js";
import type { Diagnostic } from "../core/findings.js";
import type { ConfigStats, LabelScore, VerdictChange } from "../core/sweepStats.js";
import { configDocument } from "./json.js";
import { jsonText } from "./jsonText.js";
import type { ConfigSummary } from "./reportConfig.js";

/** A config value of a grid point, or a profile name (`--vary profile=…`). */
export type SweepValue = number | boolean | string;

export interface SweepRow {
  /** The varied keys' values as requested (before any clamping), in --vary order. */
  readonly vary: Readonly<Record<string, SweepValue>>;
  readonly stats: ConfigStats;
  /** Ordering adjustments the resolution made to this config (empty when none). */
  readonly clamped: readonly string[];
  /** Runs whose verdict differs from the previous row's. */
  readonly changed: readonly VerdictChange[];
  /** Present when runs were labelled. */
  readonly score?: LabelScore;
}

export interface SweepReport {
  readonly version: string;
  /** The base config every grid point starts from (--config, --agent, --set). */
  readonly config: ConfigSummary;
  readonly axes: ReadonlyArray<{ readonly key: string; readonly values: readonly SweepValue[] }>;
  readonly rows: readonly SweepRow[];
  readonly labels?: { readonly stuck: readonly string[]; readonly healthy: readonly string[] | null };
  /** Index into `rows` of the config that best separates the labelled runs, if any does. */
  readonly best?: number;
  readonly files: number;
  readonly calls: number;
  readonly lines: LineCounts;
  readonly diagnostics: readonly Diagnostic[];
}

export type SweepReporter = (report: SweepReport, options: { readonly color: boolean; readonly width?: number }) => string;

/**
 * The spec's ndjson object, keys in the spec's order; then, only when the runs recorded usage, what
 * the runs the config stops spent after their first stop (cost.md §3): `tokensAfterStop`, and
 * `costAfterStop` when the format records money (never a 0 that was not recorded).
 */
function specLine(row: SweepRow): Record<string, unknown> {
  const { runs, warned, blocked, aborted, firstBlockMedianCall, afterStop } = row.stats;
  const line: Record<string, unknown> = { vary: row.vary, runs, warned, blocked, aborted, firstBlockMedianCall };
  // Recorded usage summed over no turn after a stop is a real 0 tokens.
  if (afterStop !== undefined && (afterStop.total !== undefined || afterStop.cost === undefined)) line.tokensAfterStop = afterStop.total ?? 0;
  if (afterStop?.cost !== undefined) line.costAfterStop = afterStop.cost;
  return line;
}

export const sweepNdjsonReporter: SweepReporter = (report) => report.rows.map((row) => `${jsonText(specLine(row))}\n`).join("");

export const sweepJsonReporter: SweepReporter = (report) => {
  const document = {
    version: report.version,
    config: configDocument(report.config),
    grid: Object.fromEntries(report.axes.map((axis) => [axis.key, axis.values])),
    labels: report.labels ?? null,
    configs: report.rows.map((row) => ({
      ...specLine(row),
      clamped: row.clamped.length > 0,
      adjustments: row.clamped,
      changed: row.changed,
      ...(row.score ? { precision: row.score.precision, recall: row.score.recall, stuckStopped: row.score.stuckStopped, healthyStopped: row.score.healthyStopped } : {}),
    })),
    best: report.best === undefined ? null : { index: report.best, vary: report.rows[report.best]!.vary },
    summary: { files: report.files, runs: report.rows[0]?.stats.runs ?? 0, calls: report.calls, configs: report.rows.length, lines: report.lines },
    diagnostics: report.diagnostics.map((d) => ({ file: d.file, line: d.line, reason: d.reason })),
  };
  return `${jsonText(document, "  ")}\n`;
};
