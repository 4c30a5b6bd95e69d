/**
 * `looplens sweep [paths…] --vary NAME=SPEC …`: replays the same runs under every config of a grid.
 * The input is read, parsed and hashed once, and each prepared event is replayed under every config
 * as it is made, which is what makes a 20-config sweep far cheaper than 20 analyses; only per-config
 * tallies of the runs' verdicts are kept, so memory does not grow with the input. Units are swept on
 * the main thread and worker threads as `analyze` analyses them (pipeline/sweepUnits.ts, parallel.ts).
 */
import { nestSettings } from "../core/configKeys.js";
import { bestConfig, type Labels } from "../core/sweepStats.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { SweepReport, SweepRow, SweepValue } from "../reporters/sweepReport.js";
import { REPORTERS } from "../reporters/index.js";
import { sweepAll } from "../pipeline/parallel.js";
import { pointResolvers, type SweepGrid, type SweepResult } from "../pipeline/sweepUnits.js";
import { inputPaths, nothingUsable, reportDiagnostics, reportNotices, strictViolation, type CommonOptions, type Io } from "./common.js";
import { createConfigResolver, type ConfigResolver } from "../pipeline/configResolution.js";
import { hasFilters, type ReportFilters } from "../pipeline/filters.js";
import { plural } from "../reporters/phrases.js";
import { reportFilters, type FilterOptions } from "./filterOptions.js";
import { useColor, type OutputOptions } from "./output.js";
import { configSummary } from "../pipeline/configSummary.js";
import { EXIT, UsageError } from "../pipeline/errors.js";
import { gridPoints, parseAxes, type Axis } from "../pipeline/sweepGrid.js";
import { PROFILE_NAMES, type ProfileName } from "../core/profiles/profile.js";
import { startInputProgress } from "../pipeline/progress.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";
import { progressDisplay } from "./progressDisplay.js";
import { commandCache, finishCache } from "./cache.js";

export interface SweepOptions extends CommonOptions, FilterOptions, OutputOptions {
  format: string;
  /** `--no-cache` sets it false. */
  cache?: boolean;
  vary?: string[];
  expectStuck?: string[];
  expectHealthy?: string[];
}

/** Run ids from a repeatable, variadic option; commas separate ids too (`--expect-stuck a,b`). */
const runIds = (values: readonly string[] | undefined): string[] =>
  (values ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter((id) => id !== "");

/** The runs the user labelled (checked against the input once it is read: `checkLabels`). */
function parseLabels(options: SweepOptions): Labels | undefined {
  const stuck = runIds(options.expectStuck);
  const healthy = options.expectHealthy === undefined ? undefined : runIds(options.expectHealthy);
  if (stuck.length === 0 && healthy === undefined) return undefined;
  return { stuck: new Set(stuck), healthy: healthy && new Set(healthy) };
}

/** Every labelled id must name a run of the input (`met`: the labelled ids that a selected run has), and no run both labels. */
function checkLabels(labels: Labels, met: ReadonlySet<string>): void {
  for (const [flag, ids] of [["--expect-stuck", labels.stuck], ["--expect-healthy", labels.healthy ?? new Set<string>()]] as const) {
    const unknown = [...ids].filter((id) => !met.has(id));
    if (unknown.length > 0) throw new UsageError(`${flag}: no run named ${unknown.map((id) => JSON.stringify(id)).join(", ")} in the input`);
  }
  const both = [...labels.stuck].filter((id) => labels.healthy?.has(id));
  if (both.length > 0) throw new UsageError(`run ${JSON.stringify(both[0])} is labelled both stuck and healthy`);
}

/** The ordering adjustments resolution made for this grid point (for any agent a run used). */
function clampings(resolver: ConfigResolver): string[] {
  return resolver
    .notices()
    .filter((notice) => notice.adjustment === true)
    .map((notice) => notice.message);
}

/** The grid's passes (one per profile under `--vary profile`) and each row's varied values, in grid order. */
function sweepGrid(profiles: readonly ProfileName[] | undefined, axes: Axis[], filters: ReportFilters, labels: Labels | undefined): { grid: SweepGrid; vary: Array<Readonly<Record<string, SweepValue>>> } {
  const vary: Array<Readonly<Record<string, SweepValue>>> = [];
  const passes = (profiles ?? [undefined]).map((profile) => ({
    ...(profile !== undefined && { profile }),
    points: gridPoints(axes).map((point) => {
      vary.push(profile !== undefined ? { profile, ...point } : point);
      return { origin: "--vary", source: "--set" as const, values: nestSettings(Object.entries(point).map(([key, value]) => ({ key, value }))) };
    }),
  }));
  const plainLabels = labels && { stuck: [...labels.stuck], healthy: labels.healthy ? [...labels.healthy] : null };
  return { grid: { passes, filters, ...(plainLabels && { labels: plainLabels }) }, vary };
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
  const files = await inputPaths(paths, io, options.quiet, options.agentHome);
  if (profiles !== undefined && profiles.length > 1 && files.includes("-")) {
    throw new UsageError("--vary profile prepares the input once per profile (hashing differs by generation): name the input files, standard input cannot be read twice");
  }
  const labels = parseLabels(options);
  const { grid, vary } = sweepGrid(profiles, axes, filters, labels);
  // The rows' resolvers: fed the agents each unit asked for, in input order, whichever thread swept it.
  const resolvers = pointResolvers(grid, base);
  const shown = await startInputProgress(files, progressDisplay(io, options), grid.passes.length);
  const input = { inputFormat: options.inputFormat, activeBranch: options.activeBranch, maxLineBytes: options.maxLineBytes, ...(options.profile !== undefined && { profile: options.profile }) };
  const config = { config: options.config, agent: options.agent, set: options.set, profile: options.profile };
  // The heap's growth is held while the process is large, as for analyze (v8Tuning.ts).
  let swept: SweepResult;
  const cache = await commandCache(options.cache !== false, io, version);
  try {
    swept = await withHeapWatched(() => sweepAll(files, digest, config, grid, input, io.env, shown.update && { of: (pass) => shown.pass(pass), update: shown.update }, cache));
  } finally {
    shown.clear();
  }
  swept.agentsResolved.forEach((asked, pass) => {
    for (const { agent, profile } of asked) for (const resolver of resolvers[pass]!) resolver.effectiveFor(agent, profile);
  });
  const figures = swept.totals.figures(labels !== undefined);
  if (labels) checkLabels(labels, figures.labelledMet);
  if (hasFilters(filters) && !options.quiet) io.stderr(`looplens: the filters kept ${figures.selected} of ${plural(figures.runs, "run")}\n`);
  const rows: SweepRow[] = resolvers.flat().map((resolver, i) => ({
    vary: vary[i]!,
    stats: figures.rows[i]!.stats,
    clamped: clampings(resolver),
    changed: figures.rows[i]!.changed,
    ...(labels ? { score: figures.rows[i]!.score! } : {}),
  }));
  const allAxes: Axis[] = profiles === undefined ? axes : [{ key: "profile", values: profiles }, ...axes];
  const report: SweepReport = {
    version,
    config: configSummary(base, figures.agents.map((agent) => ({ agent })), options),
    axes: allAxes,
    rows,
    ...(labels ? { labels: { stuck: [...labels.stuck], healthy: labels.healthy ? [...labels.healthy] : null } } : {}),
    ...(labels ? { best: bestConfig(rows.map((row) => row.score!)) } : {}),
    files: swept.files.length,
    calls: figures.calls,
    lines: swept.lines,
    diagnostics: swept.diagnostics,
  };
  reportNotices(io, base, options.quiet);
  finishCache(io, cache, "sweep", options.quiet);
  reportDiagnostics(io, swept.diagnostics, swept.diagnosticsTotal, options.quiet);
  // As for analyze: an input that ends in exit 2 (--strict, nothing usable) gets no table.
  if (strictViolation(io, options, swept.lines.skipped) || nothingUsable(io, swept)) return EXIT.usage;
  io.stdout(REPORTERS.sweep[options.format]!(report, { color: useColor(options, io), width: io.columns }));
  return EXIT.ok;
}
