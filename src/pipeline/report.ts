/**
 * From an analysis to the finished report model (src/reporters/model.ts), in one place: the config
 * header, the filters' selection (filters.ts), the summary (summary.ts), the live section, and the
 * runs shown with their rows and the facts over them (reportRuns.ts, reportFacts.ts). Every format
 * only writes what is made here.
 *
 * Runs an analysis spilled to disk are read back once for the model, and only when it needs them
 * before its first run is written: when filters select among them, or when the header names the
 * agent overrides they used. The summary of unfiltered runs reads none (their segments counted them),
 * nor do the facts junit and ndjson write before their runs (`ahead`: what the spill noted).
 */
import type { ReplayedRun } from "../core/findings.js";
import type { ReportChoices, ReportFilters, ReportModel, ReportNeeds } from "../reporters/model.js";
import type { ConfigSummary } from "../reporters/reportConfig.js";
import type { Analysis } from "./analysis.js";
import { hasFilters, RunSelection } from "./filters.js";
import { liveReport, RunWalk } from "./reportRuns.js";
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
  const selection = hasFilters(filters) ? new RunSelection(analysis.files, filters, replayed, live, choices) : undefined;
  const header = isConfigOfRuns(request.config) ? request.config : undefined;
  // One pass over every run, for both, when either needs them.
  if (selection || header?.readsRuns) {
    for (const run of replayed()) {
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
  // Unfiltered, the runs walked are the analysis's: what the spill noted of its runs stands for them ahead.
  const noted = selection === undefined ? analysis.spilled?.noted : undefined;
  const context = { files: data.files, unusable: data.unusable, choices, needs: request.needs, live: shownLive, replayedRuns, gate: selected?.gate };
  const runs = new RunWalk(source, context, noted && (() => noted(analysis.runs)));
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

/** The runs the filters select, as a walk meets them (each tested again: none is kept). */
function* picked(runs: Iterable<ReplayedRun>, selection: RunSelection): Generator<ReplayedRun> {
  for (const run of runs) {
    const kept = selection.pick(run);
    if (kept !== undefined) yield kept;
  }
}
