/**
 * The facts a report states about all of its runs (reporters/model.ts `ReportFacts`), gathered as the
 * runs are walked one at a time (reportRuns.ts), so that none is read again for them and only the
 * few runs a list names are held: how many the human formats list, the worst runs that would have
 * been stopped (core/worstFirst.ts), the `--fail-on` tally, replay vs live, whether findings come in
 * input order, every file's runs, and the ranked runs a format asked for (`ReportNeeds.ranked`).
 */
import type { LiveFinding, LiveRun, ReplayedRun } from "../core/findings.js";
import { runsWithFindings, type LiveRunList } from "../core/liveRuns.js";
import { FirstKept } from "../core/firstKept.js";
import { findIn } from "../core/findingList.js";
import { compareRanks, compareRanksVetoesFirst, rankOf, type Rank } from "../core/worstFirst.js";
import type { AheadFacts, FileRuns, Gate, RankedRuns, ReportChoices, ReportModel, ReportNeeds, ReportRun, RunBrief, ReportFacts } from "../reporters/model.js";
import { LiveComparison } from "./comparison.js";
import { GateTally } from "./gate.js";
import type { FindingBlock, SegmentFacts } from "./spillFacts.js";
import { isRunNote, type RunNote } from "./runNotes.js";

/** Runs named in the list of worst runs under a summary. */
export const WORST_RUNS = 5;

export interface FactsContext {
  readonly files: ReportModel["files"];
  readonly unusable: ReportModel["unusable"];
  readonly choices: ReportChoices;
  readonly needs: ReportNeeds | undefined;
  readonly live: { readonly runs: LiveRunList; readonly findings: readonly LiveFinding[] } | undefined;
  /** Replayed runs the walk offers. */
  readonly replayedRuns: number;
  /** The tally of the runs selected, when the runs shown are fewer (`--top`: it judges them all). */
  readonly gate: Gate | undefined;
}

/** Whether findings come in input order: their file's place among the inputs, then their line. */
class FindingOrder {
  private readonly fileOrder: Map<string, number>;
  private previous: { readonly file: string; readonly line: number } | undefined;
  sorted = true;

  constructor(files: ReportModel["files"]) {
    this.fileOrder = new Map(files.map((f, i) => [f.file, i]));
  }

  add(findings: Iterable<{ readonly file: string; readonly line: number }>): void {
    if (!this.sorted) return;
    for (const finding of findings) {
      const previous = this.previous;
      if (previous !== undefined && ((this.fileOrder.get(previous.file) ?? 0) - (this.fileOrder.get(finding.file) ?? 0) || previous.line - finding.line) > 0) {
        this.sorted = false;
        return;
      }
      this.previous = finding;
    }
  }

  /** Findings of one file as a spill noted them: as if each were added. */
  addBlock({ file, first, last, sorted }: FindingBlock): void {
    this.add([{ file, line: first }]);
    if (!sorted) this.sorted = false;
    this.previous = { file, line: last };
  }
}

/** Every file's runs, in suite order, and whether each file's runs come together in that order. */
class FileTally {
  private readonly counts = new Map<string, { runs: number; failing: number; readonly at: number }>();
  private last = -1;
  private grouped = true;

  constructor(files: ReportModel["files"], unusable: ReportModel["unusable"]) {
    for (const { file } of files) this.suite(file);
    for (const { file } of unusable) this.suite(file);
  }

  private suite(file: string): { runs: number; failing: number; at: number } {
    let c = this.counts.get(file);
    if (c === undefined) this.counts.set(file, (c = { runs: 0, failing: 0, at: this.counts.size }));
    return c;
  }

  add(file: string, failing: number): void {
    this.addRuns(file, 1, failing > 0 ? 1 : 0);
  }

  /** `runs` consecutive runs of one file, `failing` of them at or above the gate's floor. */
  addRuns(file: string, runs: number, failing: number): void {
    const c = this.suite(file);
    c.runs += runs;
    c.failing += failing;
    // Files have places of their own: places that never go back mean each file's runs are together.
    if (c.at < this.last) this.grouped = false;
    this.last = c.at;
  }

  finish(): FileRuns {
    const counts = new Map([...this.counts].map(([file, { runs, failing }]) => [file, { runs, failing }]));
    return { counts, grouped: this.grouped };
  }
}

const briefOf = (run: ReplayedRun, rank: Rank): RunBrief => ({
  run: run.run,
  agent: run.agent,
  session: run.session,
  file: run.file,
  calls: run.calls,
  findings: run.findings.length,
  recordedVetoes: run.recordedVetoes,
  firstStop: run.firstStop,
  rank,
});

/** The ranked runs a format asked for, kept as they are offered. */
class Ranking {
  private readonly whole: FirstKept<ReportRun, Rank>;
  private readonly brief: FirstKept<RunBrief, Rank>;
  private of = 0;

  constructor(limits: { readonly whole: number; readonly brief: number }) {
    this.whole = new FirstKept(limits.whole, compareRanksVetoesFirst);
    this.brief = new FirstKept(limits.brief, compareRanksVetoesFirst);
  }

  add(entry: ReportRun, all: boolean): void {
    const { run } = entry;
    if (!all && run.findings.length === 0 && run.recordedVetoes === 0) return;
    this.of++;
    const rank = rankOf(run);
    this.whole.offer(entry, rank);
    if (this.brief.wouldKeep(rank)) this.brief.offer(briefOf(run, rank), rank);
  }

  finish(): RankedRuns {
    return { whole: this.whole.items(), brief: this.brief.items(), of: this.of };
  }
}

export class FactsTally {
  private listed = 0;
  private walked = 0;
  private readonly stopped = new FirstKept<ReplayedRun, Rank>(WORST_RUNS, compareRanks);
  private stoppedTotal = 0;
  private readonly gate: GateTally;
  private readonly order: FindingOrder;
  private readonly files: FileTally;
  private readonly comparison: LiveComparison | undefined;
  private readonly ranking: Ranking | undefined;

  constructor(private readonly context: FactsContext) {
    this.gate = new GateTally(context.choices);
    this.order = new FindingOrder(context.files);
    this.files = new FileTally(context.files, context.unusable);
    this.comparison = context.live && new LiveComparison(context.live.runs, context.replayedRuns);
    this.ranking = context.needs?.ranked && new Ranking(context.needs.ranked);
  }

  add(entry: ReportRun): void {
    const { run } = entry;
    this.walked++;
    if (entry.listed) this.listed++;
    if (run.firstStop !== null) {
      this.stoppedTotal++;
      this.stopped.offer(run, rankOf(run, this.context.choices.sort));
    }
    this.files.add(run.file, this.gate.add(run));
    this.order.add(run.findings);
    this.comparison?.add(run);
    this.ranking?.add(entry, this.context.choices.all);
  }

  finish(): ReportFacts {
    const ahead = finishAhead(this.context, this.gate, this.order, this.files);
    const worst = this.stopped.items().map((run) => ({ run, stop: findIn(run.findings, (f) => f.level !== "warning" && f.call === run.firstStop!.call) }));
    return {
      listed: this.listed,
      hidden: this.walked - this.listed,
      worstRuns: { shown: worst, total: this.stoppedTotal },
      gate: ahead.gate,
      ...(this.comparison && { comparison: this.comparison.finish() }),
      findingsInInputOrder: ahead.findingsInInputOrder,
      get files(): FileRuns {
        return ahead.files;
      },
      ...(this.ranking && { ranked: this.ranking.finish() }),
    };
  }
}

/**
 * The facts junit and ndjson write before their runs, from the runs at hand and what a spill noted of
 * the runs it wrote out (spillFacts.ts): the same as a walk's, with no spilled run read back.
 */
export function aheadFacts(context: FactsContext, runs: Iterable<ReplayedRun | SegmentFacts | RunNote>): AheadFacts {
  const gate = new GateTally(context.choices);
  const order = new FindingOrder(context.files);
  const files = new FileTally(context.files, context.unusable);
  for (const item of runs) {
    if (isRunNote(item)) {
      files.add(item.file, gate.add(item));
      for (const block of item.findings.blocks) order.addBlock(block);
      continue;
    }
    if ("run" in item) {
      files.add(item.file, gate.add(item));
      order.add(item.findings);
      continue;
    }
    let reaching = 0;
    for (const block of item.runs) {
      reaching += block.reaching[gate.rank - 1]!;
      files.addRuns(block.file, block.runs, block.reaching[gate.rank - 1]!);
    }
    gate.addCounted(item.levels, reaching);
    for (const block of item.findings) order.addBlock(block);
  }
  return finishAhead(context, gate, order, files);
}

/** The gate, the order and the files' runs once the replayed runs are counted: the live ones added. */
function finishAhead(context: FactsContext, tally: GateTally, order: FindingOrder, files: FileTally): AheadFacts {
  const live = context.live;
  // Live runs are judged too: a block the runtime really logged is a finding at that level.
  if (live) for (const run of runsWithFindings(live.runs)) tally.add(run);
  if (live) order.add(live.findings);
  const gate = context.gate ?? tally.finish();
  let fileRuns: FileRuns | undefined;
  return {
    gate,
    findingsInInputOrder: order.sorted,
    // Every live run is read for it, so only when asked (junit's suites).
    get files(): FileRuns {
      return (fileRuns ??= liveFiles(files, live?.runs, gate.floor));
    },
  };
}

/** The file tally with the live runs added (each judged at the gate's floor). */
function liveFiles(files: FileTally, live: Iterable<LiveRun> | undefined, floor: Gate["floor"]): FileRuns {
  if (live) {
    const judge = new GateTally({ failOn: floor });
    for (const run of live) files.add(run.file, judge.add(run));
  }
  return files.finish();
}
