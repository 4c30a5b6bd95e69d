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
import { prepareInputs, replayPrepared, type PreparedInputs } from "../pipeline/analysis.js";
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
import { createConfigResolver, type ConfigResolver } from "../pipeline/configResolution.js";
import { hasFilters, selectRuns } from "../pipeline/filters.js";
import { plural } from "../reporters/phrases.js";
import { addFilterOptions, AGENT_FILTER_HELP, reportFilters, type FilterOptions } from "./filterOptions.js";
import { addOutputOptions, withOutput, type OutputOptions } from "./output.js";
import { EXIT, UsageError } from "../pipeline/errors.js";
import { gridPoints, parseAxes, type Axis } from "../pipeline/sweepGrid.js";
import { PROFILE_NAMES, type ProfileName } from "../core/profiles/profile.js";
import { startInputProgress } from "../pipeline/progress.js";
import { progressDisplay } from "./progressDisplay.js";

const SWEEP_REPORTERS: Readonly<Record<string, SweepReporter>> = {
  table: sweepTableReporter,
  json: sweepJsonReporter,
  ndjson: sweepNdjsonReporter,
};

interface SweepOptions extends CommonOptions, FilterOptions, OutputOptions {
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

/** One pass of the grid: the input prepared under one profile choice (`--vary profile` makes one per profile). */
interface GridPass {
  readonly inputs: PreparedInputs;
  /** `--vary profile=…`: the profile of this pass, shown as the first column of its rows. */
  readonly profile?: ProfileName;
}

/** Replays the prepared input once per grid point; only per-run verdicts outlive each replay. */
function replayGrid(passes: readonly GridPass[], base: ConfigResolver, axes: Axis[], options: SweepOptions, keep: (runs: RunReport[]) => RunReport[]): SweepRows {
  const rows: SweepRow[] = [];
  let labels: Labels | undefined;
  let firstRuns: RunReport[] = [];
  let previous: RunVerdict[] | undefined;
  for (const pass of passes) for (const point of gridPoints(axes)) {
    const resolver = base.withOverrides({ origin: "--vary", source: "--set", values: nestSettings(Object.entries(point).map(([key, value]) => ({ key, value }))) });
    const profileFor = pass.profile !== undefined ? () => ({ profile: pass.profile!, reason: "--vary profile" }) : undefined;
    const runs = keep(replayPrepared(pass.inputs, (agent, profile) => resolver.effectiveFor(agent, profile).config, profileFor));
    if (rows.length === 0) {
      firstRuns = runs;
      labels = parseLabels(options, runs);
    }
    const verdicts = runs.map(runVerdict);
    rows.push({
      vary: pass.profile !== undefined ? { profile: pass.profile, ...point } : point,
      stats: configStats(verdicts),
      clamped: clampings(resolver),
      changed: verdictChanges(previous, verdicts),
      ...(labels ? { score: labelScore(verdicts, labels) } : {}),
    });
    previous = verdicts;
  }
  return { rows, labels, firstRuns };
}

/**
 * Splits `--vary profile=configurable,newest` from the config axes. The newest build has nothing to
 * tune, so under `--profile newest` the profile comparison is the only sweep there is.
 */
function profileAxis(vary: readonly string[], request: SweepOptions["profile"]): { profiles: ProfileName[] | undefined; axes: Axis[] } {
  const profileOptions = vary.filter((option) => /^\s*profile\s*=/.test(option));
  const others = vary.filter((option) => !profileOptions.includes(option));
  if (profileOptions.length > 1) throw new UsageError("--vary: profile is varied twice; give all its values in one SPEC");
  if (request === "newest" && others.length > 0) {
    throw new UsageError(
      "sweep --profile newest: the newest OpenClaw build has no thresholds to tune (only enabled is read; thresholds, toggles and the guard window are fixed); compare the generations instead: --vary profile=configurable,newest",
    );
  }
  if (profileOptions.length === 0) return { profiles: undefined, axes: parseAxes(others) };
  const spec = profileOptions[0]!.slice(profileOptions[0]!.indexOf("=") + 1);
  const profiles = spec.split(",").map((item) => item.trim());
  for (const name of profiles) {
    if (!PROFILE_NAMES.includes(name as ProfileName)) throw new UsageError(`--vary profile: ${JSON.stringify(name)} is not a profile (${PROFILE_NAMES.join(", ")})`);
  }
  if (new Set(profiles).size !== profiles.length) throw new UsageError("--vary profile: a profile is listed twice");
  return { profiles: profiles as ProfileName[], axes: others.length > 0 ? parseAxes(others) : [] };
}

export async function runSweep(paths: string[], options: SweepOptions, io: Io, version: string, now = new Date()): Promise<number> {
  const filters = reportFilters(options, now);
  const { profiles, axes } = profileAxis(options.vary ?? [], options.profile);
  const base = await createConfigResolver(options);
  const digest = await loadXxhashDigest();
  const files = inputPaths(paths, io, options.quiet, options.agentHome);
  if (profiles !== undefined && profiles.length > 1 && files.includes("-")) {
    throw new UsageError("--vary profile prepares the input once per profile (hashing differs by generation): name the input files, standard input cannot be read twice");
  }
  const shown = await startInputProgress(files, progressDisplay(io, options));
  const read = (profile: SweepOptions["profile"]) =>
    prepareInputs(files, digest, { inputFormat: options.inputFormat, activeBranch: options.activeBranch, maxLineBytes: options.maxLineBytes, ...(profile !== undefined && { profile }), ...(shown.progress && { progress: shown.progress }) });
  // Hashing differs by generation, so each profile of the comparison prepares the input once.
  let passes: GridPass[];
  try {
    passes = profiles === undefined ? [{ inputs: await read(options.profile) }] : await Promise.all(profiles.map(async (profile) => ({ inputs: await read(profile), profile })));
  } finally {
    shown.clear();
  }
  const inputs = passes[0]!.inputs;
  const allAxes: Axis[] = profiles === undefined ? axes : [{ key: "profile", values: profiles }, ...axes];
  // The run filters select the runs every config is judged on (the same runs under all of them).
  const formats = inputs.files.flatMap((file) => file.files);
  let kept: { of: number; runs: number } | undefined;
  const keep = (runs: RunReport[]) => {
    if (!hasFilters(filters)) return runs;
    const selected = selectRuns(runs, filters, formats);
    kept ??= { of: runs.length, runs: selected.length };
    return selected;
  };
  const { rows, labels, firstRuns } = replayGrid(passes, base, axes, options, keep);
  if (kept !== undefined && !options.quiet) io.stderr(`looplens: the filters kept ${kept.runs} of ${plural(kept.of, "run")}\n`);

  const report: SweepReport = {
    version,
    config: configSummary(base, firstRuns, options),
    axes: allAxes,
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
    .option("--vary <name=spec>", "a config key and its values: a..b:step or a,b,c (repeatable), e.g. criticalThreshold=10..30:5; or profile=configurable,newest", collect)
    .addOption(new Option("-f, --format <format>", "output format").choices(Object.keys(SWEEP_REPORTERS)).default("table"))
    .option("--expect-stuck <runs...>", "run ids known to be stuck (scores each config; others count as healthy unless --expect-healthy)")
    .option("--expect-healthy <runs...>", "run ids known to be healthy");
  addConfigOptions(command, AGENT_FILTER_HELP);
  addInputOptions(command);
  addFilterOptions(command, { findings: false });
  addOutputOptions(command);
  command.action((paths: string[], options: SweepOptions) => run(() => withOutput(io, options, (out) => runSweep(paths, options, out, version), paths)));
}
