/**
 * Analysis: input units replayed through the detectors. `analyzeUnit` streams one unit straight
 * through replay (sweep replays under many configs at once: sweepReplay.ts); `mergeAnalyses` joins
 * per-unit results in input order, whichever thread made them.
 */
import { LineTally, ReadAgain } from "../adapters/adapter.js";
import { expandUnits, type InputUnit } from "../adapters/discovery.js";
import type { LiveFinding, ReplayedRun } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import { selectProfiles, type ProfileSelection } from "../core/profiles/selection.js";
import type { LiveEvent } from "../core/liveEvents.js";
import { LiveRunBook, type LiveRunList } from "../core/liveRuns.js";
import type { LoopEvent, TurnEvent } from "../core/events.js";
import type { PreparedEvent } from "../core/prepare.js";
import type { RunFacts } from "../core/runIdentity.js";
import { Replayer, type ConfigForAgent, type ReplayOptions } from "../core/replay.js";
import type { SpilledRuns } from "../reporters/model.js";
import { FindingShelfFile } from "./shelvedFindings.js";
import { UnitRuns, shiftedSegment, spilledRuns, type SpillOptions, type SpillSegment } from "./runSpill.js";
import { LiveRowFile } from "./liveRowFile.js";
import { joinSummaries, readSummary, readUnit, type Delivery, type PreparedSink, type ReadSummary } from "./reading.js";
import { analyzeAndKeep, cachedAnalysis } from "./cache/analysisCache.js";
import type { UnitCache } from "./cache/unitCache.js";
import { addOutside, type OutsideRuns } from "./cache/runWindow.js";
import { addUnread, type UnreadRuns } from "./cache/unreadRuns.js";
import { readAppended } from "./appendedReading.js";
import { appendedSource, countResumed, ResumeKeeper, type ResumeFrom } from "./cache/resumeUnit.js";
import { AskedAgents } from "./askedAgents.js";
import { ReplayBindings } from "./cache/resumeClasses.js";
import { sessionParking } from "./parkedSessions.js";
import type { AnalysisOptions, FileAnalysis, UnitResume } from "./fileAnalysis.js";

export type { InputOptions, ReadSummary, UnusableFile } from "./reading.js";
export type { AnalysisOptions, FileAnalysis, UnitResume } from "./fileAnalysis.js";

export { readEvents } from "./reading.js";

/** Replayed runs and live ones, with what reading accounted for. */
export interface Analysis extends ReadSummary {
  /** Replayed runs (from transcripts and event files), but for the spilled ones. */
  readonly runs: ReplayedRun[];
  /** Runs written to disk, when there were many (runSpill.ts): `spilled.inOrder(runs)` reads them all. */
  readonly spilled?: SpilledRuns;
  /** Runs read from Gateway logs (`source: "log"`), and every live finding (some outside any run). */
  readonly liveRuns: LiveRunList;
  readonly liveFindings: LiveFinding[];
  /** Replayed runs left unread, all outside `--since`/`--until` (a cache hit's: runWindow.ts), counted only. */
  readonly outside?: OutsideRuns;
  /** Replayed runs left unread because the command's kept output holds their text (cache/outputSplice.ts), counted only. */
  readonly unread?: UnreadRuns;
  /** Each unit's replayed runs and their findings (read or not), in input order, and whether they were left unread: where its runs stand in the report. */
  readonly units?: readonly UnitShare[];
}

/** A unit's share of an analysis's replayed runs (see `Analysis.units`). */
export interface UnitShare {
  readonly runs: number;
  readonly findings: number;
  readonly unread: boolean;
}

/** A unit's share (see `Analysis.units`): its runs held, spilled, outside the window or left unread, and their findings. */
function shareOf(part: FileAnalysis): UnitShare {
  let findings = (part.spilled?.counts.findings.total ?? 0) + (part.outside?.counts.findings.total ?? 0) + (part.unread?.counts.findings.total ?? 0);
  for (const run of part.runs) findings += run.findings.length;
  const runs = part.runs.length + (part.spilled?.runs ?? 0) + (part.outside?.runs ?? 0) + (part.unread?.runs ?? 0);
  return { runs, findings, unread: part.unread !== undefined };
}

/** One input file as a unit of its own (tests, and inputs that name a single file). */
export function analyzeFile(path: string, digest: Digest, configFor: ConfigForAgent, options: AnalysisOptions = {}, onLive?: (event: LiveEvent) => void): Promise<FileAnalysis> {
  return analyzeUnit([path], digest, configFor, options, onLive);
}

/**
 * Streams one input unit straight through replay: nothing but findings is kept, so memory follows
 * the runs open at a time, not the size of the files. With `resume.from`, a file that grew is read
 * from its old end on (and in full when that cannot be done).
 */
export async function analyzeUnit(
  unit: InputUnit,
  digest: Digest,
  configFor: ConfigForAgent,
  options: AnalysisOptions = {},
  onLive?: (event: LiveEvent) => void,
  resume?: UnitResume,
): Promise<FileAnalysis> {
  const profiles = selectProfiles(options.profile, digest);
  // Only a one-file unit, read for a result alone (no finding streamed out, no live event handed on), resumes.
  // (With `completeLines`, watch's, reads stop at the last newline: the point says where, `end`.)
  const resumable = resume?.keep === true && unit.length === 1 && onLive === undefined && options.onFinding === undefined && options.onLiveEvent === undefined;
  if (resumable && resume.from !== undefined) {
    const resumed = await resumedUnit(unit[0]!, resume.from, profiles, configFor, options);
    if (resumed !== undefined) return resumed;
  }
  const shelf = findingShelf(options);
  const bindings = new ReplayBindings({ profileFor: profiles.profileFor, onFinding: options.onFinding, shelf });
  const keeper = resumable ? new ResumeKeeper(bindings) : undefined;
  const parking = sessionParking(options.spill, bindings);
  const asked = new AskedAgents();
  const unitRuns = new UnitRuns(options.spill);
  const add = (run: ReplayedRun) => unitRuns.add(run);
  const replayOptions: ReplayOptions = { timelines: options.timelines === true, onSettled: keeper ? keeper.settled(add) : add, ...(options.onFinding && { onFinding: options.onFinding }), ...(shelf && { shelf }), ...(parking && { parking }) };
  const asking = asked.recording(configFor);
  // Bound whenever a state may be saved (a point to resume from, a parked session): the configs it points at go by name.
  const replayConfig = keeper ? keeper.config(asking) : parking ? bindings.config(asking) : asking;
  const newReplayer = () => new Replayer(replayConfig, profiles.profileFor, replayOptions);
  let replayer = newReplayer();
  const tally = new LineTally();
  // Without a sink, live events are folded per unit (a worker's): a book is far smaller than its events.
  const book = onLive ? undefined : liveRunBook(options.spill);
  // The input event too: findings then carry a preview of their pattern (replay keeps references only).
  const delivery = {
    events: (prepared: PreparedEvent, event: LoopEvent) => replayer.push(prepared, event),
    facts: (run: string, facts: RunFacts) => replayer.facts(run, facts),
    turn: (event: TurnEvent) => replayer.turn(event),
  };
  const sink: PreparedSink = (again) => {
    if (again) {
      unitRuns.reset();
      parking?.store.close();
      replayer = newReplayer();
      asked.clear();
      keeper?.void();
    }
    return delivery;
  };
  const keep = onLive ?? ((event: LiveEvent) => book!.push(event));
  const observe = options.onLiveEvent;
  const live = observe ? (event: LiveEvent) => (observe(event), keep(event)) : keep;
  const readProfiles = keeper ? keeper.profiles(profiles) : profiles;
  keeper?.replay(() => ({ replayer, tally, agentsResolved: asked.list }));
  const { files, unusable } = await readUnit(unit, tally, readProfiles, options, sink, live, true, options.onFile, keeper?.readThrough);
  const point = keeper?.point();
  for (const run of replayer.finishEach()) unitRuns.add(run);
  parking?.store.close();
  const spilled = unitRuns.finish();
  const liveBook = book?.part();
  return { ...readSummary({ tally, files, unusable }), runs: unitRuns.runs, ...(spilled && { spilled }), ...(liveBook && { liveBook }), agentsResolved: asked.list, ...(point && { resume: point }) };
}

/** Where a long run's findings go as it makes them, with the runs spilled (shelvedFindings.ts). */
const findingShelf = (options: AnalysisOptions) => options.spill && new FindingShelfFile(options.spill.dir);

/**
 * A grown file's unit read from its old end (cache/resumeUnit.ts): the restored reading and replay
 * go on with the appended lines. Undefined when it cannot (the point does not restore, a live event,
 * an adapter's `ReadAgain`): the caller reads the unit in full, nothing of this attempt kept.
 */
async function resumedUnit(file: string, from: ResumeFrom, profiles: ProfileSelection, configFor: ConfigForAgent, options: AnalysisOptions): Promise<FileAnalysis | undefined> {
  // The restored replayer's shelf is bound by name to this analysis's (a shelf holding a run's findings is never saved).
  const bindings = new ReplayBindings({ profileFor: profiles.profileFor, onFinding: options.onFinding, shelf: findingShelf(options) });
  const keeper = new ResumeKeeper(bindings);
  // Bound before the state is restored: its replayer parks into this analysis's file.
  const parking = sessionParking(options.spill, bindings);
  const asked = new AskedAgents(from.agentsResolved.map(({ agent, profile }) => ({ agent, profile })));
  // The resolver hears of the old part's agents in the order its replay asked them (its notices' order).
  for (const { agent, profile } of asked.list) configFor(agent, profile);
  const unitRuns = new UnitRuns(options.spill);
  // Bound before the state is restored: the replayer's and preparer's functions are these.
  keeper.settled((run) => unitRuns.add(run));
  const readProfiles = keeper.profiles(profiles);
  let state;
  try {
    state = keeper.restore(from, keeper.config(asked.recording(configFor)), readProfiles.hashingFor);
  } catch {
    return undefined;
  }
  const { replayer, tally, preparer, history } = state;
  keeper.replay(() => ({ replayer, tally, agentsResolved: asked.list }));
  for (let i = 0; i < from.handedOut; i++) unitRuns.add(from.oldRuns[i]!);
  const noLive = () => {
    throw new ReadAgain(file, "a live event in the appended lines");
  };
  const deliver: Delivery = {
    events: (prepared: PreparedEvent, event: LoopEvent) => replayer.push(prepared, event),
    facts: (run: string, facts: RunFacts) => replayer.facts(run, facts),
    turn: (event: TurnEvent) => replayer.turn(event),
  };
  let read;
  try {
    read = await readAppended(appendedSource(file, from.size, from.lines, options.completeLines === true), state.adapter, state.format, tally, options, { history, preparer, deliver, live: noLive, onFile: options.onFile, onReadThrough: keeper.readThrough }, state.context);
  } catch (error) {
    if (!(error instanceof ReadAgain)) throw error;
    unitRuns.reset();
    parking?.store.close();
    return undefined;
  }
  const point = keeper.point();
  for (const run of replayer.finishEach()) unitRuns.add(run);
  parking?.store.close();
  const spilled = unitRuns.finish();
  countResumed();
  return { ...readSummary({ tally, files: [read], unusable: [] }), runs: unitRuns.runs, ...(spilled && { spilled }), agentsResolved: asked.list, ...(point && { resume: point }) };
}

/** A book for the live runs of an analysis: with a spill folder, its oldest runs go to disk past a window. */
export function liveRunBook(spill: SpillOptions | undefined): LiveRunBook {
  return spill ? new LiveRunBook(new LiveRowFile(spill.dir), spill.liveRunsInMemory) : new LiveRunBook();
}

/**
 * Joins per-file analyses in input order, exactly as if one tally had counted them all. `book`
 * already holds the live events of a serial run (handed to it while reading, not kept per file).
 */
export function mergeAnalyses(parts: readonly FileAnalysis[], book = new LiveRunBook()): Analysis {
  const runs: ReplayedRun[] = [];
  const segments: SpillSegment[] = [];
  let outside: OutsideRuns | undefined;
  let unread: UnreadRuns | undefined;
  const units: UnitShare[] = [];
  for (const part of parts) {
    if (part.outside) outside = addOutside(outside, part.outside);
    if (part.unread) unread = addUnread(unread, part.unread);
    units.push(shareOf(part));
    if (part.spilled) segments.push(shiftedSegment(part.spilled, runs.length));
    // Not push(...runs): spreading more than ~100k runs into arguments overflows the stack.
    for (const run of part.runs) runs.push(run);
    if (part.liveBook) book.absorb(part.liveBook);
  }
  const live = book.finish();
  const spilled = spilledRuns(segments);
  return { ...joinSummaries(parts), runs, ...(spilled && { spilled }), liveRuns: live.runs, liveFindings: live.findings, ...(outside && { outside }), ...(unread && { unread }), units };
}

/** The result cache as a serial analysis uses it: entries are checked against `probe`, a resolver of their own (analysisCache.ts). */
export interface SerialCache {
  readonly cache: UnitCache;
  readonly probe: ConfigForAgent;
}

/** Analyses every input, one file after another (the parallel path in parallelAnalysis.ts gives the same result). */
export async function analyzeInputs(
  paths: readonly string[],
  digest: Digest,
  configFor: ConfigForAgent,
  options: AnalysisOptions = {},
  cache?: SerialCache,
): Promise<Analysis> {
  return analyzeSerially(await expandUnits(paths), digest, configFor, options, cache);
}

/** Analyses already expanded input units one after another (with a cache: those it does not hold). */
export async function analyzeSerially(units: readonly InputUnit[], digest: Digest, configFor: ConfigForAgent, options: AnalysisOptions, cache?: SerialCache): Promise<Analysis> {
  const parts: FileAnalysis[] = [];
  const book = liveRunBook(options.spill);
  for (const unit of units) {
    if (cache === undefined) {
      parts.push(await analyzeUnit(unit, digest, configFor, options, (event) => book.push(event)));
      continue;
    }
    // Every unit's live runs come as a part then, merged in input order, hits and misses alike.
    const hit = cachedAnalysis(cache.cache, unit, options, cache.probe);
    // A hit does not replay: its agents' configs are asked for here, where replay would have asked.
    if (hit) for (const { agent, profile } of hit.agentsResolved) configFor(agent, profile);
    parts.push(hit ?? (await analyzeAndKeep(cache.cache, unit, options, configFor, (resume) => analyzeUnit(unit, digest, configFor, options, undefined, resume))));
  }
  return mergeAnalyses(parts, book);
}
