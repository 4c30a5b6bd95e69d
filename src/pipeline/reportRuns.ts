/**
 * The runs of a report as every format reads them (reporters/model.ts `ReportRun`): made one at a
 * time from the replayed runs shown, each with its rows (findingRows.ts, made when first read) and
 * the live stop of its id, while the facts over all of them are gathered (reportFacts.ts). A walk
 * reads every run once (runs spilled to disk are read back as it goes) and keeps none; the facts of
 * the first complete walk are kept, and `facts()` walks once for them when asked first. `ahead()`
 * walks none when the spill noted what it needs of its runs (reportFacts.ts `aheadFacts`).
 */
import type { LiveFinding, LiveRun, ReplayedFinding, ReplayedRun } from "../core/findings.js";
import { runsWithFindings, type LiveRunList } from "../core/liveRuns.js";
import type { AheadFacts, FindingRow, LiveReport, LiveReportRun, ReportChoices, ReportRun, ReportFacts, RunIdentity } from "../reporters/model.js";
import { runIdentity } from "../reporters/runIdentity.js";
import { findingRows } from "./findingRows.js";
import { aheadFacts, FactsTally, type FactsContext } from "./reportFacts.js";
import type { SegmentFacts } from "./spillFacts.js";
import type { RunNote } from "./runNotes.js";

class Entry implements ReportRun {
  private made: FindingRow<ReplayedFinding>[] | undefined;
  private who: RunIdentity | undefined;

  constructor(
    readonly run: ReplayedRun,
    readonly liveStop: LiveRun | undefined,
    readonly listed: boolean,
    private readonly choices: ReportChoices,
  ) {}

  get rows(): readonly FindingRow<ReplayedFinding>[] {
    return (this.made ??= findingRows(this.run.findings, this.choices.verbose));
  }

  get identity(): RunIdentity {
    return (this.who ??= runIdentity(this.run, this.choices.hidePrompts === true));
  }
}

/** The live runs of a Gateway log that blocked or aborted, by run id (replayed runs of that id name them). */
function liveStopsByRun(live: LiveRunList | undefined): Map<string, LiveRun> {
  const stops = new Map<string, LiveRun>();
  for (const run of live ? runsWithFindings(live) : []) {
    if (run.findings.some((f) => f.level !== "warning") && !stops.has(run.run)) stops.set(run.run, run);
  }
  return stops;
}

export class RunWalk implements Iterable<ReportRun> {
  private gathered: ReportFacts | undefined;
  private readonly liveStops: Map<string, LiveRun>;

  constructor(
    private readonly source: () => Iterable<ReplayedRun>,
    private readonly context: FactsContext,
    /** The runs the walk offers with what the spill noted in place of its runs (segments' facts or runs' notes), when it noted them all. */
    private readonly noted?: () => Iterable<ReplayedRun | SegmentFacts | RunNote>,
  ) {
    this.liveStops = liveStopsByRun(context.live?.runs);
  }

  *[Symbol.iterator](): Iterator<ReportRun> {
    const tally = this.gathered === undefined ? new FactsTally(this.context) : undefined;
    const { choices } = this.context;
    for (const run of this.source()) {
      const liveStop = this.liveStops.get(run.run);
      const entry = new Entry(run, liveStop, choices.all || run.findings.length > 0 || run.recordedVetoes > 0 || liveStop !== undefined, choices);
      tally?.add(entry);
      yield entry;
    }
    if (tally) this.gathered = tally.finish();
  }

  facts(): ReportFacts {
    if (this.gathered === undefined) for (const entry of this) void entry;
    return this.gathered!;
  }

  ahead(): AheadFacts {
    if (this.gathered === undefined && this.noted !== undefined) return aheadFacts(this.context, this.noted());
    return this.facts();
  }
}

/** A value made when first read. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) [value, made] = [make(), true];
    return value as T;
  };
}

/** Live runs with their rows, made as they are read. */
function withRows(runs: () => Iterable<LiveRun>, verbose: boolean): Iterable<LiveReportRun> {
  return {
    *[Symbol.iterator](): Iterator<LiveReportRun> {
      for (const run of runs()) yield { run, rows: findingRows(run.findings, verbose) };
    },
  };
}

/** The live section: the runs and findings of Gateway logs, with their rows (made when first read). */
export function liveReport(live: { readonly runs: LiveRunList; readonly findings: readonly LiveFinding[] }, choices: ReportChoices): LiveReport {
  const { all, verbose } = choices;
  const rows = once(() => findingRows(live.findings, verbose));
  const outsideRows = once(() => findingRows(live.findings.filter((f) => f.run === null), verbose));
  return {
    runs: live.runs,
    findings: live.findings,
    reportRuns: withRows(() => live.runs, verbose),
    listed: withRows(() => (all ? live.runs : runsWithFindings(live.runs)), verbose),
    get rows() {
      return rows();
    },
    get outsideRows() {
      return outsideRows();
    },
  };
}
