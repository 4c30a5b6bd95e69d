/**
 * Every output of looplens, by command and format name: each a function from its command's report
 * model to text (like eslint's formatters). `--format`'s choices, the help, the man page and the
 * shell completions read the names in formatNames.ts (which loads no reporter); each command's
 * table below must hold exactly those names (its type says so). A new output format of `analyze`
 * is a file of this folder (a `Reporter`: model.ts), its name in formatNames.ts and a line here.
 */
import { checkJsonReporter, checkNdjsonReporter, checkTableReporter, type CheckReporter } from "./checkReport.js";
import { configJsonReporter, configTableReporter, type ConfigReporter } from "./configReport.js";
import { explainJsonReporter, explainTableReporter, type ExplainReporter } from "./explain.js";
import { githubReporter } from "./github.js";
import { gitlabReporter } from "./gitlab.js";
import { htmlReporter } from "./html/page.js";
import { jsonReporter } from "./json.js";
import { junitReporter } from "./junit.js";
import { markdownReporter } from "./markdown.js";
import type { Reporter } from "./model.js";
import { ndjsonReporter } from "./ndjson.js";
import type { FORMAT_NAMES, ReportCommand } from "./formatNames.js";
import { runsJsonReporter, runsMarkdownReporter, runsNdjsonReporter, runsTableReporter } from "./runsReport.js";
import { sarifReporter } from "./sarif.js";
import { sweepJsonReporter, sweepNdjsonReporter, type SweepReporter } from "./sweepReport.js";
import { sweepTableReporter } from "./sweepTable.js";
import { sweepMarkdownReporter } from "./sweepMarkdown.js";
import { tableReporter } from "./table.js";

/** A command's reporters: one for each of its format names, no other. */
type Named<C extends ReportCommand, R> = Record<(typeof FORMAT_NAMES)[C][number], R>;

export const REPORTERS = {
  analyze: {
    table: tableReporter,
    json: jsonReporter,
    ndjson: ndjsonReporter,
    markdown: markdownReporter,
    github: githubReporter,
    html: htmlReporter,
    sarif: sarifReporter,
    junit: junitReporter,
    gitlab: gitlabReporter,
  } satisfies Named<"analyze", Reporter> as Readonly<Record<string, Reporter>>,
  runs: { table: runsTableReporter, json: runsJsonReporter, ndjson: runsNdjsonReporter, markdown: runsMarkdownReporter } satisfies Named<"runs", Reporter> as Readonly<Record<string, Reporter>>,
  sweep: { table: sweepTableReporter, json: sweepJsonReporter, ndjson: sweepNdjsonReporter, markdown: sweepMarkdownReporter } satisfies Named<"sweep", SweepReporter> as Readonly<Record<string, SweepReporter>>,
  check: { table: checkTableReporter, json: checkJsonReporter, ndjson: checkNdjsonReporter } satisfies Named<"check", CheckReporter> as Readonly<Record<string, CheckReporter>>,
  explain: { table: explainTableReporter, json: explainJsonReporter } satisfies Named<"explain", ExplainReporter> as Readonly<Record<string, ExplainReporter>>,
  config: { table: configTableReporter, json: configJsonReporter } satisfies Named<"config", ConfigReporter> as Readonly<Record<string, ConfigReporter>>,
};

export { formatsOf, REPORT_FORMATS } from "./formatNames.js";
