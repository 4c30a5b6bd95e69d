/**
 * `looplens sweep [paths…] --vary NAME=SPEC …`: replays the same runs under every config of a grid.
 * The input is parsed and hashed once (`prepareInputs`); each config only replays the prepared
 * events (`replayPrepared`), which is what makes a 20-config sweep far cheaper than 20 analyses.
 */
import { Option, type Command } from "commander";
import { nestSettings } from "../core/configKeys.js";
import type { RunReport } from "../core/findings.js";
import { bestConfig, configStats, labelScore, runVerdict, verdictChanges, type Labels, type RunVerdict } from "../core/sweepStats.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { sweepJsonReporter, sweepNdjsonReporter, type SweepReport, type SweepReporter, type SweepRow } from "../reporters/sweepReport.js";
import { sweepTableReporter } from "../reporters/sweepTable.js";
import { prepareInputs, replayPrepared, type PreparedInputs } from "./analysis.js";
import {
  addConfigOptions,
  addInputOptions,
  collect,
  configSummary,
  inputPaths,
  reportDiagnostics,
  reportNotices,
  strictViolation,
  useColor,
  type CommonOptions,
  type Io,
} from "./common.js";
import { createConfigResolver, type ConfigResolver } from "./configResolution.js";
import { EXIT, UsageError } from "./errors.js";
import { gridPoints, parseAxes, type Axis } from "./sweepGrid.js";

const SWEEP_REPORTERS: Readonly<Record<string, SweepReporter>> = {
  table: sweepTableReporter,
  json: sweepJsonReporter,
  ndjson: sweepNdjsonReporter,
};

interface SweepOptions extends CommonOptions {
  format: string;
  vary?: string[];
  expectStuck?: string[];
  expectHealthy?: string[];
}

/** Run ids from a repeatable, variadic option; commas separate ids too (`--expect-stuck a,b`). */
const runIds = (values: readonly string[] | undefined): string[] =>
  (values ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter((id) => id !== "");

function parseLabels(options: SweepOptions, runs: readonly RunReport[]): Labels | undefined {
  const stuck = runIds(options.expectStuck);
  const healthy = options.expectHealthy === undefined ? undefined : runIds(options.expectHealthy);
  if (stuck.length === 0 && healthy === undefined) return undefined;
  const known = new Set(runs.map((run) => run.run));
  for (const [flag, ids] of [["--expect-stuck", stuck], ["--expect-healthy", healthy ?? []]] as const) {
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new UsageError(`${flag}: no run named ${unknown.map((id) => JSON.stringify(id)).join(", ")} in the input`);
  }
  const both = stuck.filter((id) => healthy?.includes(id));
  if (both.length > 0) throw new UsageError(`run ${JSON.stringify(both[0])} is labelled both stuck and healthy`);
  return { stuck: new Set(stuck), healthy: healthy && new Set(healthy) };
}

/** The ordering adjustments resolution made for this grid point (for any agent a run used). */
function clampings(resolver: ConfigResolver): string[] {
  return resolver
    .notices()
    .filter((notice) => notice.adjustment === true)
    .map((notice) => notice.message);
}

interface SweepRows {
  readonly rows: SweepRow[];
  readonly labels: Labels | undefined;
  /** The runs as replayed under the first config (ids, agents and calls are the same under all). */
  readonly firstRuns: RunReport[];
}

/** Replays the prepared input once per grid point; only per-run verdicts outlive each replay. */
function replayGrid(inputs: PreparedInputs, base: ConfigResolver, axes: Axis[], options: SweepOptions): SweepRows {
  const rows: SweepRow[] = [];
  let labels: Labels | undefined;
  let firstRuns: RunReport[] = [];
  let previous: RunVerdict[] | undefined;
  for (const point of gridPoints(axes)) {
    const resolver = base.withOverrides({ origin: "--vary", source: "--set", values: nestSettings(Object.entries(point).map(([key, value]) => ({ key, value }))) });
    const runs = replayPrepared(inputs, (agent) => resolver.effectiveFor(agent).config);
    if (rows.length === 0) {
      firstRuns = runs;
      labels = parseLabels(options, runs);
    }
    const verdicts = runs.map(runVerdict);
    rows.push({
      vary: point,
      stats: configStats(verdicts),
      clamped: clampings(resolver),
      changed: verdictChanges(previous, verdicts),
      ...(labels ? { score: labelScore(verdicts, labels) } : {}),
    });
    previous = verdicts;
  }
  return { rows, labels, firstRuns };
}

export async function runSweep(paths: string[], options: SweepOptions, io: Io, version: string): Promise<number> {
  const axes = parseAxes(options.vary ?? []);
  const base = await createConfigResolver(options);
  const digest = await loadXxhashDigest();
  const inputs = await prepareInputs(inputPaths(paths, io, options.quiet), digest, { inputFormat: options.inputFormat, activeBranch: options.activeBranch });
  const { rows, labels, firstRuns } = replayGrid(inputs, base, axes, options);

  const report: SweepReport = {
    version,
    config: configSummary(base, firstRuns, options),
    axes,
    rows,
    ...(labels ? { labels: { stuck: [...labels.stuck], healthy: labels.healthy ? [...labels.healthy] : null } } : {}),
    ...(labels ? { best: bestConfig(rows.map((row) => row.score!)) } : {}),
    files: inputs.files.length,
    calls: firstRuns.reduce((sum, run) => sum + run.calls, 0),
    lines: inputs.lines,
    diagnostics: inputs.diagnostics,
  };
  reportNotices(io, base, options.quiet);
  reportDiagnostics(io, inputs.diagnostics, inputs.diagnosticsTotal, options.quiet);
  io.stdout(SWEEP_REPORTERS[options.format]!(report, { color: useColor(options, io), width: io.columns }));
  return strictViolation(io, options, inputs.lines.skipped) ? EXIT.usage : EXIT.ok;
}

export function registerSweep(program: Command, io: Io, version: string, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("sweep")
    .description("replay the same runs under a grid of configs and compare what each would warn, block or abort")
    .argument("[paths...]", "transcript files, folders, or - for standard input")
    .option("--vary <name=spec>", "a config key and its values: a..b:step or a,b,c (repeatable), e.g. criticalThreshold=10..30:5", collect)
    .addOption(new Option("-f, --format <format>", "output format").choices(Object.keys(SWEEP_REPORTERS)).default("table"))
    .option("--expect-stuck <runs...>", "run ids known to be stuck (scores each config; others count as healthy unless --expect-healthy)")
    .option("--expect-healthy <runs...>", "run ids known to be healthy");
  addConfigOptions(command);
  addInputOptions(command);
  command.action((paths: string[], options: SweepOptions) => run(() => runSweep(paths, options, io, version)));
}
