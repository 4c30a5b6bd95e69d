/**
 * The report model each public Report was written from, so that `format` writes any other format
 * of it with the CLI's own reporters. Weak: a report the caller drops takes its model with it. Not
 * exported from the package: the model is internal and changes freely.
 */
import type { ReportModel } from "../reporters/model.js";
import type { Report } from "./types.js";

const models = new WeakMap<Report, ReportModel>();

export function rememberModel(report: Report, model: ReportModel): void {
  models.set(report, model);
}

export function reportModelOf(report: Report): ReportModel | undefined {
  return models.get(report);
}
