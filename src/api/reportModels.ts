/**
 * The report model each public Report was written from, so that `format` writes any other format
 * of it with the CLI's own reporters. Weak: a report the caller drops takes its model with it. Not
 * exported from the package: the model is internal and changes freely.
 */
import type { Analysis } from "../pipeline/analysis.js";
import type { ReportRequest } from "../pipeline/report.js";
import type { Report } from "./types.js";

/** What a report model is built from: the analysis and the request without the format's choices. */
export interface ReportSource {
  readonly analysis: Analysis;
  readonly request: Omit<ReportRequest, "choices" | "needs">;
}

const models = new WeakMap<Report, ReportSource>();

export function rememberModel(report: Report, source: ReportSource): void {
  models.set(report, source);
}

export function reportModelOf(report: Report): ReportSource | undefined {
  return models.get(report);
}
