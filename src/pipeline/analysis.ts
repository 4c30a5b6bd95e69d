/**
 * Analysis: input units replayed through the detectors. `analyzeUnit` streams one unit straight
 * through replay (sweep replays under many configs at once: sweepReplay.ts); `mergeAnalyses` joins
 * per-unit results in input order, whichever thread made them.
 */
import { LineTally } from "../adapters/adapter.js";
import { expandUnits, type InputUnit } from "../adapters/discovery.js";
import type { LiveFinding, ReplayedRun } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { selectProfiles } from "../core/profiles/selection.js";
import type { LiveEvent } from "../core/liveEvents.js";
import { LiveRunBook, type LiveRunList } from "../core/liveRuns.js";
import type { LoopEvent } from "../core/events.js";
import type { PreparedEvent } from "../core/prepare.js";
import type { RunFacts } from "../core/runIdentity.js";
import { Replayer, type ConfigForAgent, type ReplayOptions } from "../core/replay.js";
import type { SpilledRuns } from "../reporters/model.js";
import { FindingShelfFile } from "./shelvedFindings.js";
import { UnitRuns, shiftedSegment, spilledRuns, type SpillOptions, type SpillSegment } from "./runSpill.js";
import { LiveRowFile } from "./liveRowFile.js";
import { joinSummaries, readSummary, readUnit, type PreparedSink, type ReadSummary } from "./reading.js";
import { analyzeAndKeep, cachedAnalysis } from "./cache/analysisCache.js";
import type { UnitCache } from "./cache/unitCache.js";
import { addOutside, type OutsideRuns } from "./cache/runWindow.js";
import type { AnalysisOptions, FileAnalysis } from "./fileAnalysis.js";

export type { InputOptions, ReadSummary, UnusableFile } from "./reading.js";
export type { AnalysisOptions, FileAnalysis } from "./fileAnalysis.js";

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
}

/** One input file as a unit of its own (tests, and inputs that name a single file). */
export function analyzeFile(path: string, digest: Digest, configFor: ConfigForAgent, options: AnalysisOptions = {}, onLive?: (event: LiveEvent) => void): Promise<FileAnalysis> {
  return analyzeUnit([path], digest, configFor, options, onLive);
}

/**
 * Streams one input unit straight through replay: nothing but findings is kept, so memory follows
 * the runs open at a time, not the size of the files.
 */
export async function analyzeUnit(
  unit: InputUnit,
  digest: Digest,
  configFor: ConfigForAgent,
  options: AnalysisOptions = {},
  onLive?: (event: LiveEvent) => void,
): Promise<FileAnalysis> {
  const agentsResolved: Array<{ agent: string | null; profile: ProfileName }> = [];
  const asked = new Set<string>();
  const profiles = selectProfiles(options.profile, digest);
  const unitRuns = new UnitRuns(options.spill);
  const replayOptions: ReplayOptions = {
    timelines: options.timelines === true,
    onSettled: (run: ReplayedRun) => unitRuns.add(run),
    ...(options.onFinding && { onFinding: options.onFinding }),
    // A long run's findings go to disk as it makes them, with the runs spilled (shelvedFindings.ts).
    ...(options.spill && { shelf: new FindingShelfFile(options.spill.dir) }),
  };
  const newReplayer = () =>
    new Replayer(
      (agent, profile) => {
        const key = `${profile}\u0000${agent ?? ""}\u0000${agent === null}`;
        if (!asked.has(key)) {
          asked.add(key);
          agentsResolved.push({ agent, profile });
        }
        return configFor(agent, profile);
      },
      profiles.profileFor,
      replayOptions,
    );
  let replayer = newReplayer();
  const tally = new LineTally();
  // Without a sink, live events are folded per unit (a worker's): a book is far smaller than its events.
  const book = onLive ? undefined : liveRunBook(options.spill);
  // The input event too: findings then carry a preview of their pattern (replay keeps references only).
  const delivery = {
    events: (prepared: PreparedEvent, event: LoopEvent) => replayer.push(prepared, event),
    facts: (run: string, facts: RunFacts) => replayer.facts(run, facts),
  };
  const sink: PreparedSink = (again) => {
    if (again) {
      unitRuns.reset();
      replayer = newReplayer();
      agentsResolved.length = 0;
      asked.clear();
    }
    return delivery;
  };
  const keep = onLive ?? ((event: LiveEvent) => book!.push(event));
  const observe = options.onLiveEvent;
  const live = observe ? (event: LiveEvent) => (observe(event), keep(event)) : keep;
  const { files, unusable } = await readUnit(unit, tally, profiles, options, sink, live, true, options.onFile);
  for (const run of replayer.finish()) unitRuns.add(run);
  const spilled = unitRuns.finish();
  const liveBook = book?.part();
  return { ...readSummary({ tally, files, unusable }), runs: unitRuns.runs, ...(spilled && { spilled }), ...(liveBook && { liveBook }), agentsResolved };
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
  for (const part of parts) {
    if (part.outside) outside = addOutside(outside, part.outside);
    if (part.spilled) segments.push(shiftedSegment(part.spilled, runs.length));
    // Not push(...runs): spreading more than ~100k runs into arguments overflows the stack.
    for (const run of part.runs) runs.push(run);
    if (part.liveBook) book.absorb(part.liveBook);
  }
  const live = book.finish();
  const spilled = spilledRuns(segments);
  return { ...joinSummaries(parts), runs, ...(spilled && { spilled }), liveRuns: live.runs, liveFindings: live.findings, ...(outside && { outside }) };
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
    parts.push(hit ?? (await analyzeAndKeep(cache.cache, unit, options, configFor, () => analyzeUnit(unit, digest, configFor, options))));
  }
  return mergeAnalyses(parts, book);
}
