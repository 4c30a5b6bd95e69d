/**
 * A sweep's figures, folded as the runs are replayed: each run comes once, with its report under
 * every config of a pass (sweepReplay.ts replays each event under all of them as it is read), and
 * only per-config tallies outlive it. Holding every prepared event to replay it once per config
 * took memory in proportion to the input (the bench's 680 MB state folder: 884 MB peak RSS).
 *
 * - A unit's runs are folded into a part that joins the whole only when the unit is read through
 *   (`commitUnit`): a unit read again after a failed shortcut voids what it gave (`voidUnit`).
 * - Verdict changes compare each config with the one before it in grid order. Within a pass both
 *   come with the run; the first config of a later pass (`--vary profile`) compares with the last
 *   config of the pass before, whose verdicts are kept by run, one integer each, in run order.
 * - Runs are selected by the run filters (`select`, the same whatever the config); the sweep's
 *   header describes the selected runs of the first config (calls, agents, labelled ids met).
 * - Units may be swept on other threads, each with all its passes: their committed figures cross as
 *   plain data (`SweepPart`) and join in input order (`SweepTotals`).
 */
import type { RunReport } from "./findings.js";
import { IntColumn } from "./intColumn.js";
import { ConfigTally, runVerdict, verdictChange, type ConfigCounts, type ConfigStats, type Labels, type LabelScore, type VerdictChange, type VerdictKind } from "./sweepStats.js";

const KINDS: readonly VerdictKind[] = ["ok", "warned", "blocked", "aborted"];

/** The verdict kind of run `index` in a column of kinds (undefined past its end). */
function kindAt(kinds: IntColumn, index: number): VerdictKind | undefined {
  return index < kinds.length ? KINDS[kinds.at(index)] : undefined;
}

export interface SweepTallyOptions {
  /** Configs of each pass, in grid order (one pass per profile under `--vary profile`). */
  readonly passes: readonly number[];
  readonly labels?: Labels;
  /** The run filters (default: every run). */
  readonly select?: (run: RunReport) => boolean;
  /** Counts the runs, selected or not, that pass this test (`watched`). */
  readonly watch?: (run: RunReport) => boolean;
}

/**
 * What runs add to a sweep's figures, as plain data: a unit's part crosses from a worker thread and
 * joins the whole in input order (`SweepTotals.absorb`). Counts of runs are of the first config.
 */
export interface SweepPart {
  /** One per config of the part's passes. */
  readonly configs: ConfigCounts[];
  readonly runs: number;
  readonly watched: number;
  readonly selected: number;
  readonly calls: number;
  /** Agents of the selected runs, in first-met order. */
  readonly agents: string[];
  readonly labelledMet: string[];
}

export interface SweepFigures {
  readonly rows: ReadonlyArray<{ readonly stats: ConfigStats; readonly changed: readonly VerdictChange[]; readonly score?: LabelScore }>;
  /** Runs of the first config, before the filters, and how many they selected. */
  readonly runs: number;
  readonly selected: number;
  /** Calls of the selected runs. */
  readonly calls: number;
  /** Agents of the selected runs, in first-met order. */
  readonly agents: readonly string[];
  /** Labelled run ids that a selected run has. */
  readonly labelledMet: ReadonlySet<string>;
}

/** A sweep's figures so far: runs counted, or parts joined in input order (a unit's own runs are one such part). */
export class SweepTotals {
  private readonly configs: ConfigTally[];
  private runs = 0;
  private watchedRuns = 0;
  private selected = 0;
  private calls = 0;
  private readonly agents = new Set<string>();
  private readonly labelledMet = new Set<string>();

  constructor(configs: number) {
    this.configs = Array.from({ length: configs }, () => new ConfigTally());
  }

  /** Runs of the first config, selected or not, that pass the tally's `watch` test. */
  get watched(): number {
    return this.watchedRuns;
  }

  /** The tally of config `index`, to fold runs into. */
  config(index: number): ConfigTally {
    return this.configs[index]!;
  }

  /** A run of the first config, selected or not (`watched`: it passes the `watch` test). */
  countRun(watched: boolean): void {
    this.runs++;
    if (watched) this.watchedRuns++;
  }

  /** A selected run of the first config (`labelled`: the user labelled it). */
  countSelected(run: RunReport, labelled: boolean): void {
    this.selected++;
    this.calls += run.calls;
    if (run.agent !== null) this.agents.add(run.agent);
    if (labelled) this.labelledMet.add(run.run);
  }

  /** Adds a part after what is there; its configs are this one's from index `offset` on. */
  absorb(part: SweepPart, offset = 0): void {
    part.configs.forEach((counts, i) => this.configs[offset + i]!.merge(counts));
    this.runs += part.runs;
    this.watchedRuns += part.watched;
    this.selected += part.selected;
    this.calls += part.calls;
    for (const agent of part.agents) this.agents.add(agent);
    for (const id of part.labelledMet) this.labelledMet.add(id);
  }

  part(): SweepPart {
    const { runs, selected, calls } = this;
    return { configs: this.configs.map((tally) => tally.counts()), runs, watched: this.watchedRuns, selected, calls, agents: [...this.agents], labelledMet: [...this.labelledMet] };
  }

  /** `labelled`: the runs were labelled, so each row has a score. */
  figures(labelled: boolean): SweepFigures {
    return {
      rows: this.configs.map((tally) => ({ stats: tally.stats(), changed: tally.changed, ...(labelled && { score: tally.score() }) })),
      runs: this.runs,
      selected: this.selected,
      calls: this.calls,
      agents: [...this.agents],
      labelledMet: this.labelledMet,
    };
  }
}

export class SweepTally {
  private readonly totals: SweepTotals;
  /** What the unit being read adds, until it is read through (this pass's configs only). */
  private part: SweepTotals;
  private pass = 0;
  /** Index into the totals' configs of this pass's first config. */
  private offset = 0;
  /** Selected runs of this pass so far, and at the start of the unit being read. */
  private index = 0;
  private unitStart = 0;
  /** Verdict kinds (`KINDS` indexes), by selected run, under the previous pass's last config and this pass's. */
  private previous: IntColumn | undefined;
  private current = new IntColumn();

  constructor(private readonly options: SweepTallyOptions) {
    this.totals = new SweepTotals(options.passes.reduce((sum, n) => sum + n, 0));
    this.part = new SweepTotals(this.configsOfPass());
  }

  /** One run, as replayed under each config of the pass (in grid order). */
  add(reports: readonly RunReport[]): void {
    const { select, watch, labels } = this.options;
    const first = reports[0]!;
    const part = this.part;
    const opening = this.pass === 0;
    if (opening) part.countRun(watch?.(first) === true);
    if (select && !select(first)) return;
    if (opening) part.countSelected(first, labels !== undefined && (labels.stuck.has(first.run) || labels.healthy?.has(first.run) === true));
    let before = this.previous && kindAt(this.previous, this.index);
    reports.forEach((report, i) => {
      const verdict = runVerdict(report);
      const tally = part.config(i);
      tally.add(verdict, labels);
      const change = verdictChange(before, verdict);
      if (change) tally.changed.push(change);
      before = verdict.kind;
    });
    this.current.push(KINDS.indexOf(before!));
    this.index++;
  }

  /** The unit being read is read through: its runs count. */
  commitUnit(): void {
    this.totals.absorb(this.part.part(), this.offset);
    this.unitStart = this.index;
    this.part = new SweepTotals(this.configsOfPass());
  }

  /** The unit being read is void (it is read again): what it gave is dropped. */
  voidUnit(): void {
    this.index = this.unitStart;
    this.current.length = this.unitStart;
    this.part = new SweepTotals(this.configsOfPass());
  }

  /** The next pass (profile) starts; the runs come again from the first. */
  nextPass(): void {
    this.offset += this.configsOfPass();
    this.pass++;
    this.previous = this.current;
    this.current = new IntColumn();
    this.index = 0;
    this.unitStart = 0;
    this.part = new SweepTotals(this.configsOfPass());
  }

  /** Runs of the first config, selected or not, that pass `watch` (read through units only). */
  get watched(): number {
    return this.totals.watched;
  }

  /** What the units read through added, as plain data. */
  committed(): SweepPart {
    return this.totals.part();
  }

  figures(): SweepFigures {
    return this.totals.figures(this.options.labels !== undefined);
  }

  private configsOfPass(): number {
    return this.options.passes[this.pass] ?? 0;
  }
}
