/**
 * A watch from start to stop: the files watched (treeWatcher.ts), the units they form
 * (watchInputs.ts), one follower per unit (unitFollower.ts) analysed on the lane
 * (analysisLane.ts), and what is new told to the sink (watchEvents.ts).
 *
 * Start: the watcher is set up first, so that nothing written while existing content is read goes
 * unseen; then the units are found ("watching …"), and every unit is analysed once — silently
 * (recorded in the ledger, not printed) unless `fromStart` — so that every run's state is right
 * before the first new line is judged ("ready"). After that, a change to a unit's file analyses
 * that unit again; a file that appears, goes or is renamed, a store's change, or a rescan finds the
 * units again ("regroup", also a lane job, so that units never change under an analysis).
 */
import type { InputFormat } from "../../adapters/adapter.js";
import { InputError, type InputUnit } from "../../adapters/discovery.js";
import { releaseStores } from "../../adapters/openclaw/sqliteStore.js";
import type { Finding, LiveRun } from "../../core/findings.js";
import type { Digest } from "../../core/hashing.js";
import type { ConfigForAgent } from "../../core/replay.js";
import type { AnalysisOptions } from "../analysis.js";
import { holdGrowthIfLarge } from "../v8Tuning.js";
import { AnalysisLane, type JobDone } from "./analysisLane.js";
import { FileLineages, stampOf, type LineageChange } from "./fileLineage.js";
import { FindingLedger } from "./findingLedger.js";
import { LiveFindings } from "./liveFindings.js";
import { watchTargets } from "./treeWatcher.js";
import type { TreeWatcher } from "./watcher.js";
import { isStoreSession, UnitFollower, type FollowContext, type UnitNews } from "./unitFollower.js";
import { WatchedUnits, type Entry } from "./watchedUnits.js";
import { ACTIVE_MS, noLevels, type WatchSink, type WatchStats } from "./watchEvents.js";
import { storeOf, type WatchInputs } from "./watchInputs.js";

export interface WatchSessionOptions {
  readonly inputs: WatchInputs;
  readonly digest: Digest;
  readonly configFor: ConfigForAgent;
  /** Reading and replay as analyze's (no spill: nothing outlives an analysis but the ledger). */
  readonly analysis: AnalysisOptions;
  /** Print the findings of existing content too. */
  readonly fromStart: boolean;
  /** `--poll MS`: poll instead of inotify. */
  readonly pollMs?: number;
  /** Which findings are printed (and counted): the filters. */
  readonly keep: (finding: Finding, format: InputFormat | undefined) => boolean;
  readonly sink: WatchSink;
}

/** Polling interval when inotify cannot be used and `--poll` did not say. */
const FALLBACK_POLL_MS = 1000;

const REGROUP = "\u0000regroup";

export class WatchSession {
  private readonly ledger = new FindingLedger();
  private readonly lineages = new FileLineages();
  private readonly live = new LiveFindings();
  private readonly context: FollowContext;
  private readonly lane: AnalysisLane;
  private readonly units = new WatchedUnits();
  private watcher: TreeWatcher | undefined;
  private readonly pendingInitial = new Set<string>();
  private started = false;
  private fullRescan = false;
  /** The watched folders' marks at the last rescan, if no regroup came since (see `regroup`). */
  private folderMarks: string | undefined;
  private readonly unreadableTold = new Map<string, string>();
  private readonly stats_ = { startedAt: Date.now(), seen: noLevels(), printed: noLevels(), diagnostics: 0, lastEvent: undefined as WatchStats["lastEvent"] };
  private readyResolve: (() => void) | undefined;
  /** The live runs with findings as of the last join (the status line reads them often). */
  private liveRuns: { readonly runs: readonly LiveRun[]; readonly runCount: number } = { runs: [], runCount: 0 };

  constructor(private readonly options: WatchSessionOptions) {
    this.context = { digest: options.digest, configFor: options.configFor, options: options.analysis, ledger: this.ledger, lineages: this.lineages };
    this.lane = new AnalysisLane(
      (key) => (key === REGROUP ? this.regroup(false) : this.analyse(key)).finally(holdGrowthIfLarge),
      (key, error) => this.notice(`internal error while reading ${key === REGROUP ? "the watched folders" : key.split("\u0000")[0]}: ${(error as Error)?.message ?? error}`),
    );
  }

  /** Watches, finds the units, and resolves once existing content is read. */
  async start(): Promise<void> {
    const { inputs } = this.options;
    this.watcher = watchTargets(inputs.targets(), {
      pollMs: this.options.pollMs,
      fallbackPollMs: FALLBACK_POLL_MS,
      interesting: (path) => inputs.interesting(path),
      onChange: (path) => this.changed(path),
      onRescan: () => this.rescan(),
      onNotice: (text) => this.notice(text),
    });
    await this.regroup(true);
    const stats = this.stats();
    this.options.sink({ type: "watching", paths: inputs.paths, files: stats.files, activeRuns: stats.activeRuns, mode: this.watcher.mode, folders: this.watcher.folders });
    const ready = new Promise<void>((resolve) => (this.readyResolve = resolve));
    for (const key of this.pendingInitial) this.lane.runSoon(key);
    this.checkReady();
    await ready;
  }

  /** Stops watching; an analysis in progress is left to finish unseen. */
  stop(): void {
    this.watcher?.close();
    this.lane.close();
    void releaseStores();
  }

  /** Resolves when nothing is due (tests, and a clean exit). */
  idle(): Promise<void> {
    return this.lane.idle();
  }

  stats(): WatchStats {
    let files = 0;
    let runs = 0;
    let active = 0;
    const runsWithFindings = [];
    const recent = Date.now() - ACTIVE_MS;
    for (const { follower } of this.units.values()) {
      files += follower.unit.length;
      runs += follower.runCount;
      if (follower.lastWriteMs >= recent || (!follower.analysed && follower.unit.some((file) => (stampOf(file)?.mtimeMs ?? 0) >= recent))) active++;
      for (const run of follower.runsWithFindings) runsWithFindings.push(run);
    }
    const live = this.liveRuns;
    for (const run of live.runs) runsWithFindings.push({ run: run.run, agent: run.agent, session: run.session, file: run.file, calls: run.calls, findings: run.findings });
    return {
      ...this.stats_,
      files,
      units: this.units.size,
      runs: runs + live.runCount,
      activeRuns: active,
      runsWithFindings,
      mode: this.watcher?.mode ?? "inotify",
    };
  }

  private changed(path: string): void {
    this.stats_.lastEvent = { file: path, at: Date.now() };
    const store = storeOf(path);
    if (store !== undefined) {
      // Read again from a fresh image: the open one is the store as it was (sqliteImage.ts).
      void releaseStores();
      for (const key of this.units.storeChanged(store)) this.lane.touch(key);
      return this.lane.touch(REGROUP); // new sessions of the store are new units
    }
    const key = this.units.keyOfFile(path);
    if (key !== undefined && stampOf(path) !== undefined) this.lane.touch(key);
    else this.lane.touch(REGROUP);
  }

  private rescan(): void {
    this.fullRescan = true;
    this.lane.touch(REGROUP);
  }

  /**
   * Finds the units again: new ones are followed, gone ones dropped, renamed files told. A rescan
   * (what lost events may have missed) finds them only if a watched folder changed since the last
   * rescan and no event came between (`folderMarks`), and compares every file's stat: finding the
   * units of 5,000 files again took ~190 ms of CPU (and as much again in garbage collection) each
   * minute, most of an idle watch's CPU (bench: 1.05% over 60 s).
   */
  private async regroup(initial: boolean): Promise<void> {
    const full = this.fullRescan;
    this.fullRescan = false;
    const marks = full || initial ? this.watcher?.folderMarks() : undefined;
    const unchanged = marks !== undefined && marks === this.folderMarks;
    // Taken when the units are first found too, so that the first rescan may skip finding them. An
    // event's regroup forgets them: the units may have changed since, and the next rescan finds them.
    this.folderMarks = marks;
    if (!unchanged && !(await this.findUnits(initial))) return;
    if (full) {
      for (const [key, { follower }] of this.units.entriesByKey()) if (follower.changed()) this.lane.touch(key);
      const stores = this.units.changedStores();
      if (stores.length > 0) void releaseStores();
      for (const key of stores) this.lane.touch(key);
    }
    this.checkReady();
  }

  /** The units as they are now (false: none can be found, said). */
  private async findUnits(initial: boolean): Promise<boolean> {
    let found: InputUnit[];
    try {
      found = await this.options.inputs.units();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.notice(error.message);
      return false;
    }
    const { added, removed, stamps } = this.units.replace(found, (unit) => ({ follower: new UnitFollower(unit, this.context), initial }));
    let liveChanged = false;
    for (const key of removed) {
      this.lane.forget(key);
      this.pendingInitial.delete(key);
      liveChanged = this.live.has(key) || liveChanged;
      this.live.set(key, undefined);
    }
    this.tellLineage(this.lineages.update(stamps));
    for (const key of added) {
      if (initial) this.pendingInitial.add(key);
      else this.lane.touch(key);
    }
    if (liveChanged) this.settleLive(true);
    return true;
  }

  private async analyse(key: string): Promise<JobDone | void> {
    const entry = this.units.get(key);
    if (!entry) return;
    // Only a unit's first reading of existing content is silent: what it gains after that is new,
    // even while other units' existing content is still being read.
    const show = this.started || this.options.fromStart || !entry.initial || entry.follower.analysed;
    const news = await entry.follower.analyse(show);
    if (news.stale) {
      // A file of the unit was replaced (a session's next life): the unit it belongs to now is found
      // first, then analysed (the same key again when the file's unit did not change).
      this.tellLineage(news.lineageChanges);
      await this.regroup(false);
      if (this.units.get(key) === entry) this.lane.touch(key);
      return;
    }
    if (this.units.get(key) === entry) this.tell(key, entry, news, show);
    this.pendingInitial.delete(key);
    this.checkReady();
    return { cheapNext: entry.follower.resumesNext };
  }

  private tell(key: string, entry: Entry, news: UnitNews, show: boolean): void {
    const { sink } = this.options;
    this.tellLineage(news.lineageChanges);
    const file = entry.follower.unit[0]!;
    if (news.unreadable !== undefined) {
      // A file deleted since the units were found: not a fault, the units are found again.
      if (entry.follower.unit.some((file) => !isStoreSession(file) && stampOf(file) === undefined)) return this.lane.touch(REGROUP);
      if (this.unreadableTold.get(key) !== news.unreadable) this.notice(news.unreadable);
      this.unreadableTold.set(key, news.unreadable);
      return;
    }
    this.unreadableTold.delete(key);
    for (const diagnostic of news.diagnostics) {
      this.stats_.diagnostics++;
      sink({ type: "diagnostic", diagnostic });
    }
    for (const named of news.named) sink({ type: "run_named", ...named });
    for (const revised of news.revised) sink({ type: "finding_revised", ...revised });
    const formats = entry.follower.formats;
    this.tellFindings(news.findings, (finding) => formats.get(finding.file) ?? formats.get(file), show);
    if (news.liveBook !== undefined || this.live.has(key)) {
      this.live.set(key, news.liveBook);
      this.settleLive(show);
    }
  }

  private tellFindings(findings: readonly Finding[], formatOf: (finding: Finding) => InputFormat | undefined, show: boolean): void {
    for (const finding of findings) {
      const format = formatOf(finding);
      if (!this.options.keep(finding, format)) continue;
      this.stats_.seen[finding.level]++;
      if (!show) continue;
      this.stats_.printed[finding.level]++;
      this.options.sink({ type: "finding", finding, format });
    }
  }

  /** The live findings of all logs joined, against the ledger. */
  private settleLive(show: boolean): void {
    const { findings, runs, runCount } = this.live.merged(this.units.order);
    this.liveRuns = { runs, runCount };
    const news = this.ledger.settle(findings, (file) => this.lineages.tokenOf(file), show);
    for (const named of news.named) this.options.sink({ type: "run_named", ...named });
    for (const revised of news.revised) this.options.sink({ type: "finding_revised", ...revised });
    this.tellFindings(news.findings, () => "gateway-log", show);
  }

  private tellLineage(changes: readonly LineageChange[]): void {
    for (const change of changes) {
      if (change.kind === "renamed" && this.ledger.shownUnder(change.token)) this.options.sink({ type: "file_renamed", from: change.from, to: change.to });
      if (change.kind === "rewritten") this.notice(`${change.path} was ${change.why}: read again from its start (findings printed for its earlier content stand)`);
      if (change.kind === "deleted" && this.ledger.shownUnder(change.token)) this.notice(`${change.path} is gone: its runs end with what was read of it`);
    }
  }

  private notice(text: string): void {
    this.options.sink({ type: "notice", text });
  }

  private checkReady(): void {
    if (this.started || this.readyResolve === undefined || this.pendingInitial.size > 0) return;
    this.started = true;
    this.options.sink({ type: "ready", files: this.stats().files, findings: this.ledger.findings });
    this.readyResolve();
  }
}
