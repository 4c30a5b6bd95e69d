/**
 * Following one input unit (a session's files, or one file: discovery.ts `expandUnits`) while its
 * files change — the piece `looplens watch` is made of, and that the result cache shares.
 *
 * Contract:
 * - `analyse()` is told "the unit's files changed". It analyses the unit again, exactly as
 *   `analyze` analyses the current files (`analyzeUnit`), but only up to each file's last complete
 *   line (`completeLines`: a line counts at its `\n`; a trailing partial line is held until it is
 *   completed, never reported as a cut-off line). A one-file unit whose adapter can resume and whose
 *   file only grew goes on from where the last analysis stopped (followedPoint.ts): the same result,
 *   for the cost of the appended lines.
 * - It returns what is new against the ledger it shares with the other followers
 *   (findingLedger.ts): findings never seen (by where they are, not by run name), runs of shown
 *   findings that got a (new) name, diagnostics never seen, and what happened to the unit's files
 *   (fileLineage.ts: rewritten, renamed). The same unit analysed twice with no change yields nothing.
 * - So, over a unit's life, the findings it yields are exactly those `analyze` gives on its final
 *   files, provided that a finding, once made, is made again by every later analysis (true of
 *   replay when files only grow: a verdict depends on the calls before it), up to the run names
 *   that `RunNamed` carries. What would break that: a rewritten file (a new lineage generation: its
 *   findings are new, the earlier ones stand), or a later line that changes how earlier ones are
 *   replayed (two user messages later named by one run id join into one run, renumbering its calls):
 *   then the new findings are yielded and the old ones stand.
 * - Gateway logs' live runs may go on across files (a run open at midnight): the unit's live book
 *   part is returned for the caller to merge across units in input order (liveFindings.ts).
 * - A unit that cannot be read (permission, deleted meanwhile) yields `unreadable` and nothing else:
 *   what was read before stands.
 * - A unit whose files may no longer be the unit yields `stale` and no findings: a file of it was
 *   replaced by another under its path, before or while it was read. The runtime archives a live
 *   transcript (`<sid>.jsonl` → `<sid>.jsonl.reset.<ts>`) and starts a new one at once; read alone,
 *   the new life would replay entries it shares (by id) with the archive, which `analyze` reads
 *   first and so replays once (inputs.md §2). The caller finds the units again, then analyses the
 *   unit the file now belongs to.
 * - One analysis at a time per follower; the caller serialises them (watchSession.ts).
 */
import type { InputFormat } from "../../adapters/adapter.js";
import { InputError, type InputUnit } from "../../adapters/discovery.js";
import type { Diagnostic, FindingLevel, ReplayedFinding, ReplayedRun } from "../../core/findings.js";
import type { Digest } from "../../core/hashing.js";
import type { LiveBookPart } from "../../core/liveRuns.js";
import type { ConfigForAgent } from "../../core/replay.js";
import { analyzeUnit, type AnalysisOptions } from "../analysis.js";
import { FileLineages, sameStamp, stampOf, type FileStamp, type LineageChange } from "./fileLineage.js";
import { FollowedPoint } from "./followedPoint.js";
import { FindingLedger, type FindingRevised, type PlaceOf, type RunNamed } from "./findingLedger.js";

export interface FollowContext {
  readonly digest: Digest;
  readonly configFor: ConfigForAgent;
  /** As analyze reads (input format, active branch, profile, line limit); `completeLines` is set here. */
  readonly options: AnalysisOptions;
  readonly ledger: FindingLedger;
  readonly lineages: FileLineages;
}

/** What summaries keep of a run with findings: enough to rank it (worstFirst.ts) and name it. */
export interface RunDigest {
  readonly run: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  readonly calls: number;
  readonly findings: ReadonlyArray<{ readonly level: FindingLevel; readonly call: number | null }>;
}

export interface UnitNews {
  readonly findings: ReplayedFinding[];
  readonly named: RunNamed[];
  readonly revised: FindingRevised[];
  readonly diagnostics: Diagnostic[];
  readonly lineageChanges: LineageChange[];
  /** The unit's live runs (Gateway logs), to be merged across units in input order. */
  readonly liveBook: LiveBookPart | undefined;
  /** Why the unit could not be read this time (its earlier results stand). */
  readonly unreadable: string | undefined;
  /** A file of the unit was replaced (see above): nothing was settled; the units are to be found again. */
  readonly stale: boolean;
  /** Wall time of the analysis (the adaptive debounce spaces analyses by it). */
  readonly costMs: number;
}

/** Told by every analysis of a transcript with no line yet: a session file just created is not news. */
const EMPTY_FILE = "empty file: nothing to analyse";

export class UnitFollower {
  /** The files' stamps as of the last analysis (undefined: gone or a store session). */
  private stamps = new Map<string, FileStamp | undefined>();
  /** Where the last analysis's reading and replay stood, to go on from when the file only grew. */
  private point: FollowedPoint | undefined;
  /** The last analysis read the file whole and kept a point: the next, if the file only grows, reads what is appended. */
  resumesNext = false;
  /** The formats the last analysis read the files as (`--agent` matches the kind of agent). */
  formats: ReadonlyMap<string, InputFormat> = new Map();
  runsWithFindings: readonly RunDigest[] = [];
  runCount = 0;
  /** The latest modification time among the unit's files (ms), for "active in the last 10 min". */
  lastWriteMs = 0;
  analysed = false;

  constructor(
    readonly unit: InputUnit,
    private readonly context: FollowContext,
  ) {}

  /** Whether a file of the unit differs from what the last analysis read (store sessions: the caller watches the store). */
  changed(): boolean {
    if (!this.analysed) return true;
    return this.unit.some((file) => !isStoreSession(file) && !sameStamp(stampOf(file), this.stamps.get(file)));
  }

  /** Analyses the unit again; `show`: new findings are to be shown (not a silent replay). */
  async analyse(show: boolean): Promise<UnitNews> {
    const started = performance.now();
    const { ledger, lineages } = this.context;
    const stamps = new Map(this.unit.map((file) => [file, isStoreSession(file) ? undefined : stampOf(file)]));
    const replaced = [...stamps].some(([file, stamp]) => stamp !== undefined && lineages.replacedAt(file, stamp));
    const lineageChanges = lineages.update(new Map([...stamps].filter(([file]) => !isStoreSession(file))));
    const nothing = (why: { unreadable?: string; stale?: boolean }): UnitNews => ({
      findings: [],
      named: [],
      revised: [],
      diagnostics: [],
      lineageChanges,
      liveBook: undefined,
      unreadable: why.unreadable,
      stale: why.stale === true,
      costMs: performance.now() - started,
    });
    if (replaced) return nothing({ stale: true });
    const tokenOf = (file: string) => lineages.tokenOf(file);
    const only = this.unit.length === 1 ? this.unit[0]! : undefined;
    // A file that only grew goes on from the last analysis's point: its appended lines are read, not the file.
    const from = only === undefined ? undefined : this.point?.fromIfGrown(tokenOf(only), stamps.get(only));
    let analysis;
    try {
      const options = { ...this.context.options, completeLines: true };
      analysis = await analyzeUnit(this.unit, this.context.digest, this.context.configFor, options, undefined, { keep: true, ...(from && { from }) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return nothing({ unreadable: error.message });
    }
    // Replaced while read: what was read may be the new file alone. (A file only deleted meanwhile
    // was read whole through its open descriptor, or not at all: an InputError above.)
    if ([...stamps].some(([file, before]) => before !== undefined && replacedSince(before, stampOf(file)))) return nothing({ stale: true });
    this.stamps = stamps;
    this.analysed = true;
    this.point = only === undefined ? undefined : FollowedPoint.of(this.unit, analysis, tokenOf(only), stamps.get(only));
    this.resumesNext = this.point !== undefined && from === undefined;
    this.formats = new Map(analysis.files.map(({ file, format }) => [file, format]));
    this.lastWriteMs = Math.max(0, ...[...stamps.values()].map((stamp) => stamp?.mtimeMs ?? 0));
    this.runCount = analysis.runs.length;
    this.runsWithFindings = analysis.runs.filter((run) => run.findings.length > 0).map(digestOf);
    const { findings, named, revised } = ledger.settle(findingsOf(analysis.runs), tokenOf, show, placeIn(analysis.runs, this.formats));
    const diagnostics = ledger.newDiagnostics(
      analysis.diagnostics.filter((d) => d.reason !== EMPTY_FILE),
      tokenOf,
    );
    return { findings, named, revised, diagnostics, lineageChanges, liveBook: analysis.liveBook, unreadable: undefined, stale: false, costMs: performance.now() - started };
  }
}

const replacedSince = (before: FileStamp, now: FileStamp | undefined) => now !== undefined && (now.ino !== before.ino || now.dev !== before.dev);

/** A store session's path (`<db>#<session>`) names no file; the stat is only made for paths with a `#`. */
export const isStoreSession = (file: string) => file.includes("#") && stampOf(file) === undefined;

function* findingsOf(runs: readonly ReplayedRun[]): Generator<ReplayedFinding> {
  for (const run of runs) yield* run.findings;
}

/** Formats whose records are written again further down as they change (findingLedger.ts). */
const MOVING_RECORDS: ReadonlySet<InputFormat> = new Set(["gemini-cli"]);

/** Where findings are: their line, or in files of moving records their run's rank among the file's runs. */
function placeIn(runs: readonly ReplayedRun[], formats: ReadonlyMap<string, InputFormat>): PlaceOf | undefined {
  if (![...formats.values()].some((format) => MOVING_RECORDS.has(format))) return undefined;
  const rank = new Map<string, number>();
  const perFile = new Map<string, number>();
  for (const run of runs) {
    const n = perFile.get(run.file) ?? 0;
    perFile.set(run.file, n + 1);
    rank.set(run.run, n);
  }
  return (finding) => (MOVING_RECORDS.has(formats.get(finding.file)!) ? `run ${rank.get(finding.run!)} call ${finding.call}` : String(finding.line));
}

function digestOf(run: ReplayedRun): RunDigest {
  return {
    run: run.run,
    agent: run.agent,
    session: run.session,
    file: run.file,
    calls: run.calls,
    findings: Array.from(run.findings, (finding) => ({ level: finding.level, call: finding.call })),
  };
}
