/**
 * From an analysis to the finished report model (src/reporters/model.ts), in one place: the config
 * header, the filters' selection (filters.ts), the summary (summary.ts), the live section, and the
 * runs shown with their rows and the facts over them (reportRuns.ts, reportFacts.ts). Every format
 * only writes what is made here.
 *
 * Runs an analysis spilled to disk are read back once per output, by the walk that writes them.
 * What the model needs of them before that walk is what the spill noted: the summary of unfiltered
 * runs is what their segments counted, the facts junit and ndjson write before their runs what the
 * segments noted (`ahead`); a selection by filters, and a header that names the agent overrides the
 * runs used, read each spilled run's note (runNotes.ts), and so do the facts ahead of a selection.
 * Only `--top` reads the runs for the selection (it keeps the worst to list them: none is read again),
 * and so does a cache hit's spilled runs, which were not noted as they were written.
 */
import type { ReplayedRun } from "../core/findings.js";
import type { ReportChoices, ReportFilters, ReportModel, ReportNeeds } from "../reporters/model.js";
import type { ConfigSummary } from "../reporters/reportConfig.js";
import type { Analysis } from "./analysis.js";
import { hasFilters, RunSelection } from "./filters.js";
import { liveReport, RunWalk } from "./reportRuns.js";
import type { RunNote } from "./runNotes.js";
import type { SegmentFacts } from "./spillFacts.js";
import { ReplayedTally, summarize } from "./summary.js";

/** A header made from the runs, when the config file has agent overrides (configSummary.ts): fed every run of the analysis. */
export interface ConfigOfRuns {
  /** No agent override in the config file: the runs are not read for it. */
  readonly readsRuns: boolean;
  add(run: { readonly agent: string | null }): void;
  summary(): ConfigSummary;
}

export interface ReportRequest {
  readonly version: string;
  readonly config: ConfigSummary | ConfigOfRuns;
  readonly filters?: ReportFilters;
  readonly choices?: ReportChoices;
  /** The format's needs (`Reporter.needs`). */
  readonly needs?: ReportNeeds;
}

const NO_CHOICES: ReportChoices = { all: false, verbose: false };

/** Gateway logs were among the inputs (or live events were read back from an events file). */
function readsGatewayLogs(analysis: Analysis): boolean {
  return analysis.files.some((f) => f.format === "gateway-log") || analysis.liveRuns.length > 0 || analysis.liveFindings.length > 0;
}

/** Every replayed run of an analysis, in input order, the spilled ones read back one at a time. */
const replayedOf = (analysis: Analysis) => (): Iterable<ReplayedRun> => (analysis.spilled ? analysis.spilled.inOrder(analysis.runs) : analysis.runs);

const isConfigOfRuns = (config: ReportRequest["config"]): config is ConfigOfRuns => "readsRuns" in config;

export function buildReport(analysis: Analysis, request: ReportRequest): ReportModel {
  const choices = request.choices ?? NO_CHOICES;
  const replayed = replayedOf(analysis);
  const live = readsGatewayLogs(analysis) ? { runs: analysis.liveRuns, findings: analysis.liveFindings } : undefined;
  const filters = request.filters ?? {};
  const notes = analysis.spilled?.notes;
  // What the selection and the header read: the notes of spilled runs when the spill noted them all.
  const offered = notes && filters.top === undefined ? () => notes(analysis.runs) : replayed;
  const selection = hasFilters(filters) ? new RunSelection(analysis.files, filters, offered, live, choices) : undefined;
  const header = isConfigOfRuns(request.config) ? request.config : undefined;
  // One pass over every run, for both, when either needs them.
  if (selection || header?.readsRuns) {
    for (const run of offered()) {
      header?.add(run);
      selection?.offer(run);
    }
  }
  const data = {
    version: request.version,
    config: header ? header.summary() : (request.config as ConfigSummary),
    choices,
    files: analysis.files,
    unusable: analysis.unusable,
    lines: analysis.lines,
    transcript: analysis.transcript,
    diagnostics: analysis.diagnostics,
    diagnosticsTotal: analysis.diagnosticsTotal,
  };
  const all = new ReplayedTally();
  for (const run of analysis.runs) all.add(run);
  if (analysis.spilled) all.addSpilled(analysis.spilled);
  // Runs the kept output holds the text of (only without filters: cache/outputSplice.ts): counted, not walked.
  if (analysis.unread) all.addSpilled(analysis.unread);
  // Runs the cache left unread (all outside --since/--until): counted as the selection would have hidden them.
  if (analysis.outside) {
    all.addSpilled(analysis.outside);
    selection?.passOver(analysis.outside);
  }
  const summary = summarize(data, all, live);
  const selected = selection?.finish(data, summary);
  const shownLive = selected ? selected.live : live;
  const top = selected?.top;
  const source = top ? () => top : selection ? () => picked(replayed(), selection) : replayed;
  const replayedRuns = selected ? selected.replayedRuns : all.runs;
  const context = { files: data.files, unusable: data.unusable, choices, needs: request.needs, live: shownLive, replayedRuns, gate: selected?.gate };
  const runs = new RunWalk(source, context, aheadSource(analysis, selection, top !== undefined));
  return {
    ...data,
    summary: selected ? selected.summary : summary,
    ...(shownLive && { live: liveReport(shownLive, choices) }),
    replayedRuns,
    runs,
    facts: () => runs.facts(),
    ahead: () => runs.ahead(),
  };
}

/**
 * What the facts ahead of the runs are counted from, none read back (undefined: a walk of the runs):
 * unfiltered, what the spill noted of its segments; selected, the notes of the runs selected; the
 * runs `--top` lists are at hand.
 */
function aheadSource(analysis: Analysis, selection: RunSelection | undefined, listed: boolean): (() => Iterable<ReplayedRun | SegmentFacts | RunNote>) | undefined {
  const { noted, notes } = analysis.spilled ?? {};
  if (selection === undefined) return noted && (() => noted(analysis.runs));
  return !listed && notes ? () => picked(notes(analysis.runs), selection) : undefined;
}

/** The runs the filters select, as a walk meets them (each tested again: none is kept). */
function* picked<R extends ReplayedRun | RunNote>(runs: Iterable<R>, selection: RunSelection): Generator<R> {
  for (const run of runs) {
    const kept = selection.pick(run);
    if (kept !== undefined) yield kept;
  }
}
