/** The report model (src/reporters/model.ts) made as `analyze` makes it, for tests of reporters and filters. */
import { DEFAULT_CONFIG, type ResolvedConfig } from "../../src/core/config.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import type { Analysis } from "../../src/pipeline/analysis.js";
import { buildReport } from "../../src/pipeline/report.js";
import { REPORTERS } from "../../src/reporters/index.js";
import { reportText, type ReportChoices, type ReportFilters, type ReportModel, type WriteOptions } from "../../src/reporters/model.js";
import type { ConfigSummary } from "../../src/reporters/reportConfig.js";

/** A config header with no file and no agent override. */
export const configHeader = (effective: ResolvedConfig = { ...DEFAULT_CONFIG, enabled: true }): ConfigSummary => ({
  effective,
  sources: {},
  notices: [],
  file: null,
  usesLooplensDefault: true,
  agentOverrides: [],
});

export interface ModelRequest {
  readonly config?: ConfigSummary;
  readonly filters?: ReportFilters;
  readonly all?: boolean;
  readonly verbose?: boolean;
  readonly failOn?: ReportChoices["failOn"];
  /** The reporter the model is made for (its `needs`). */
  readonly format?: string;
}

export function reportModel(analysis: Analysis, request: ModelRequest = {}): ReportModel {
  const needs = request.format !== undefined ? REPORTERS.analyze[request.format]!.needs : undefined;
  const choices: ReportChoices = { all: request.all ?? false, verbose: request.verbose ?? false, ...(request.failOn !== undefined && { failOn: request.failOn }) };
  return buildReport(analysis, {
    version: "0.0.0-test",
    config: request.config ?? configHeader(),
    ...(request.filters && { filters: request.filters }),
    choices,
    ...(needs && { needs }),
  });
}

/** One format's text of an analysis. */
export function renderFormat(format: string, analysis: Analysis, request: ModelRequest = {}, options: WriteOptions = { color: false }): string {
  return reportText(REPORTERS.analyze[format]!(reportModel(analysis, { ...request, format }), options));
}

/** The replayed runs a report shows, in its order. */
export const shownRuns = (report: ReportModel): ReplayedRun[] => [...report.runs].map((entry) => entry.run);
