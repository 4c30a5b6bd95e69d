/** A report in any output format, written by the CLI's own reporters (src/reporters/). */
import { UsageError } from "../pipeline/errors.js";
import { buildReport } from "../pipeline/report.js";
import { REPORTERS } from "../reporters/index.js";
import { reportText } from "../reporters/model.js";
import { reportModelOf } from "./reportModels.js";
import type { FormatName, FormatOptions, Report } from "./types.js";

/** The text `looplens analyze --format NAME` prints for this report (plain unless `color`). */
export function format(report: Report, name: FormatName, options: FormatOptions = {}): string {
  const source = reportModelOf(report);
  if (source === undefined) throw new TypeError("format: the report was not made by analyze or replay in this process (a parsed JSON document has no runs to write)");
  const reporter = REPORTERS.analyze[name];
  if (reporter === undefined) throw new UsageError(`format: unknown format ${JSON.stringify(name)} (formats: ${Object.keys(REPORTERS.analyze).join(", ")})`);
  const choices = { all: options.all === true, verbose: options.verbose === true, ...(options.failOn !== undefined && { failOn: options.failOn }) };
  const model = buildReport(source.analysis, { ...source.request, choices, ...(reporter.needs && { needs: reporter.needs }) });
  return reportText(
    reporter(model, {
      color: options.color === true,
      ...(options.width !== undefined && { width: options.width }),
      explain: options.explain !== false,
      cwd: options.cwd ?? process.cwd(),
    }),
  );
}
