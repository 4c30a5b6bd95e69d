/**
 * `sweep`, one input unit at a time: a unit is read once per pass (one per profile under `--vary
 * profile`; hashing differs by generation) and replayed under every config of the pass at once
 * (sweepReplay.ts), and its runs are folded into tallies (core/sweepTally.ts). What a unit gives is
 * plain data (`UnitSweep`), so that units can be swept on any thread (parallel.ts) and joined in
 * input order (`SweepJoin`): the result is the serial one, exactly.
 *
 * A unit sweeps all its passes itself, so the first config of a later pass is compared with the last
 * config of the pass before run by run within the unit, and nothing is kept across units but tallies.
 */
import type { InputUnit } from "../adapters/discovery.js";
import { LineTally, type InputFormat } from "../adapters/adapter.js";
import type { RawBlock } from "../core/config.js";
import type { Digest } from "../core/hashing.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { selectProfiles, type ProfileSelection } from "../core/profiles/selection.js";
import type { ProfileForRun } from "../core/replay.js";
import type { Labels } from "../core/sweepStats.js";
import { SweepTally, SweepTotals, type SweepPart } from "../core/sweepTally.js";
import type { ConfigResolver } from "./configResolution.js";
import { streamedRunTests, type ReportFilters } from "./filters.js";
import type { InputProgress } from "./progress.js";
import { SummaryJoin, readSummary, readUnit, type InputOptions, type ReadSummary } from "./reading.js";
import { GridReplay, type GridConfig } from "./sweepReplay.js";
import { AskedAgents, type AskedAgent } from "./askedAgents.js";

/** The grid as plain data: it crosses to worker threads, which build their resolvers from it. */
export interface SweepGrid {
  /** One read of the input per pass: its profile (`--vary profile`) and the config overrides of its points. */
  readonly passes: ReadonlyArray<{ readonly profile?: ProfileName; readonly points: readonly RawBlock[] }>;
  readonly filters: ReportFilters;
  readonly labels?: { readonly stuck: readonly string[]; readonly healthy: readonly string[] | null };
}

export function gridLabels(grid: SweepGrid): Labels | undefined {
  const { labels } = grid;
  return labels && { stuck: new Set(labels.stuck), healthy: labels.healthy ? new Set(labels.healthy) : undefined };
}

/** The resolvers of the grid's points, by pass, from the base config (`--config`, `--agent`, `--set`). */
export function pointResolvers(grid: SweepGrid, base: ConfigResolver): ConfigResolver[][] {
  return grid.passes.map((pass) => pass.points.map((block) => base.withOverrides(block)));
}

/** What one unit gives a sweep: what reading it accounted for (its first pass), and its tallies. */
export interface UnitSweep extends ReadSummary {
  /** The committed part of each tally (`sweepTallies`). */
  readonly parts: SweepPart[];
  /** Per pass, the agents and profiles its configs were asked for, in first-asked order (config notices). */
  readonly agentsResolved: AskedAgent[][];
}

/**
 * The tallies runs are folded into: one for the run filters; with `--agent`, first one for the
 * filters without it, which counts the runs `--agent` matches and is the selection when it matches
 * none (then it selects nothing away, as in `analyze`: `chosenTally`), then one with it.
 */
function sweepTallies(grid: SweepGrid, formatOf: (file: string) => string | undefined): SweepTally[] {
  const { others, agent } = streamedRunTests(grid.filters, formatOf);
  const labels = gridLabels(grid);
  const common = { passes: grid.passes.map((pass) => pass.points.length), ...(labels && { labels }) };
  if (agent === undefined) return [new SweepTally({ ...common, select: others })];
  return [new SweepTally({ ...common, select: others, watch: agent }), new SweepTally({ ...common, select: (run) => others(run) && agent(run) })];
}

/** Which tally of `sweepTallies` is the sweep's, from their totals. */
function chosenTally(totals: readonly SweepTotals[]): SweepTotals {
  return totals.length > 1 && totals[0]!.watched > 0 ? totals[1]! : totals[0]!;
}

/**
 * The configs of one pass, asking `resolvers`; what the first is asked is noted (all are asked the
 * same). Runs are replayed under the pass's profile (`--vary profile`), else under the one each run
 * is hashed under (`--profile`, `auto` by the run's recorded build), as `analyze` replays them.
 */
function passConfigs(resolvers: readonly ConfigResolver[], pass: SweepGrid["passes"][number], profiles: ProfileSelection, asked: AskedAgents): GridConfig[] {
  const { profile } = pass;
  const choice = profile !== undefined ? { profile, reason: "--vary profile" } : undefined;
  const profileFor: ProfileForRun = choice ? () => choice : profiles.profileFor;
  return resolvers.map((resolver, i) => ({
    configFor: (agent, runProfile) => {
      if (i === 0) asked.add(agent, runProfile);
      return resolver.effectiveFor(agent, runProfile).config;
    },
    profileFor,
  }));
}

/**
 * Sweeps one unit: reads it once per pass of the grid, replaying each pass under all its points.
 * `resolvers`: this thread's, by pass and point (`pointResolvers`); `progressOf`: each pass's progress.
 */
export async function sweepUnit(
  unit: InputUnit,
  digest: Digest,
  grid: SweepGrid,
  resolvers: readonly ConfigResolver[][],
  options: InputOptions,
  progressOf: (pass: number) => InputProgress | undefined = () => undefined,
): Promise<UnitSweep> {
  const formats = new Map<string, InputFormat>();
  const tallies = sweepTallies(grid, (file) => formats.get(file));
  const agentsResolved: AskedAgent[][] = [];
  let summary: ReadSummary | undefined;
  for (const [index, pass] of grid.passes.entries()) {
    if (index > 0) tallies.forEach((tally) => tally.nextPass());
    const asked = new AskedAgents();
    const profile = pass.profile ?? options.profile;
    const progress = progressOf(index);
    const passOptions: InputOptions = { ...options, ...(profile !== undefined && { profile }), ...(progress && { progress }) };
    const profiles = selectProfiles(passOptions.profile, digest);
    const configs = passConfigs(resolvers[index]!, pass, profiles, asked);
    let replay: GridReplay | undefined;
    const tally = new LineTally();
    const read = await readUnit(
      unit,
      tally,
      profiles,
      passOptions,
      (again) => {
        if (again) {
          tallies.forEach((t) => t.voidUnit());
          asked.clear();
        }
        const current = new GridReplay(configs, (reports) => tallies.forEach((t) => t.add(reports)));
        replay = current;
        return { events: (prepared) => current.push(prepared) };
      },
      // Live events (Gateway logs) do not depend on the config: a sweep has no use for them.
      () => {},
      true,
      (file, format) => void formats.set(file, format),
    );
    replay?.finish();
    tallies.forEach((t) => t.commitUnit());
    agentsResolved.push(asked.list);
    // Every pass reads the same lines: the first one's accounting is the sweep's.
    summary ??= readSummary({ tally, ...read });
  }
  return { ...summary!, parts: tallies.map((tally) => tally.committed()), agentsResolved };
}

/** A whole sweep: what reading accounted for, and the figures of the chosen tally. */
export interface SweepResult extends ReadSummary {
  readonly totals: SweepTotals;
  /** Per pass, the agents and profiles its configs were asked for over the input, in first-asked order (to feed the caller's resolvers). */
  readonly agentsResolved: readonly AskedAgent[][];
}

/**
 * Joins units swept on any threads in input order, as they come: a unit that comes before the ones
 * ahead of it waits, the others are folded at once (memory does not grow with the number of units).
 */
export class SweepJoin {
  private readonly early = new Map<number, UnitSweep>();
  private next = 0;
  private readonly read = new SummaryJoin();
  private readonly totals: SweepTotals[] = [];
  private readonly asked: AskedAgents[];
  /** Configs of the grid, every pass. */
  private readonly configs: number;

  constructor(grid: SweepGrid) {
    this.asked = grid.passes.map(() => new AskedAgents());
    this.configs = grid.passes.reduce((sum, pass) => sum + pass.points.length, 0);
  }

  /** The sweep of the unit at `index` of the input; returns true (a lane's token that it is in). */
  add(index: number, unit: UnitSweep): true {
    this.early.set(index, unit);
    for (let next = this.early.get(this.next); next !== undefined; next = this.early.get(this.next)) {
      this.early.delete(this.next++);
      this.fold(next);
    }
    return true;
  }

  result(): SweepResult {
    const chosen = this.totals.length > 0 ? chosenTally(this.totals) : new SweepTotals(this.configs);
    return { ...this.read.summary(), totals: chosen, agentsResolved: this.asked.map((asked) => asked.list) };
  }

  private fold(unit: UnitSweep): void {
    this.read.add(unit);
    unit.parts.forEach((part, i) => (this.totals[i] ??= new SweepTotals(this.configs)).absorb(part));
    unit.agentsResolved.forEach((asked, pass) => {
      for (const { agent, profile } of asked) this.asked[pass]!.add(agent, profile);
    });
  }
}

/** Sweeps the units one after another (the parallel path in parallel.ts gives the same result). */
export async function sweepSerially(units: readonly InputUnit[], digest: Digest, grid: SweepGrid, resolvers: readonly ConfigResolver[][], options: InputOptions, progressOf?: (pass: number) => InputProgress | undefined): Promise<SweepResult> {
  const join = new SweepJoin(grid);
  for (const [index, unit] of units.entries()) join.add(index, await sweepUnit(unit, digest, grid, resolvers, options, progressOf));
  return join.result();
}
