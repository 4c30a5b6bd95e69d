/**
 * Every output of looplens, by command and format name: each a function from its command's report
 * model to text (like eslint's formatters). The one list: `--format`'s choices, the help, the man
 * page and the shell completions read them here. A new output format of `analyze` is a file of
 * this folder (a `Reporter`: model.ts) and a line in `analyze` below.
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
import { runsJsonReporter, runsMarkdownReporter, runsNdjsonReporter, runsTableReporter } from "./runsReport.js";
import { sarifReporter } from "./sarif.js";
import { sweepJsonReporter, sweepNdjsonReporter, type SweepReporter } from "./sweepReport.js";
import { sweepTableReporter } from "./sweepTable.js";
import { sweepMarkdownReporter } from "./sweepMarkdown.js";
import { tableReporter } from "./table.js";

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
  } satisfies Record<string, Reporter> as Readonly<Record<string, Reporter>>,
  runs: { table: runsTableReporter, json: runsJsonReporter, ndjson: runsNdjsonReporter, markdown: runsMarkdownReporter } satisfies Record<string, Reporter> as Readonly<Record<string, Reporter>>,
  sweep: { table: sweepTableReporter, json: sweepJsonReporter, ndjson: sweepNdjsonReporter, markdown: sweepMarkdownReporter } satisfies Record<string, SweepReporter> as Readonly<Record<string, SweepReporter>>,
  check: { table: checkTableReporter, json: checkJsonReporter, ndjson: checkNdjsonReporter } satisfies Record<string, CheckReporter> as Readonly<Record<string, CheckReporter>>,
  explain: { table: explainTableReporter, json: explainJsonReporter } satisfies Record<string, ExplainReporter> as Readonly<Record<string, ExplainReporter>>,
  config: { table: configTableReporter, json: configJsonReporter } satisfies Record<string, ConfigReporter> as Readonly<Record<string, ConfigReporter>>,
};

/** The format names of a command, in the registry's order (its `--format` choices; `table` first, the default). */
export const formatsOf = (command: keyof typeof REPORTERS): string[] => Object.keys(REPORTERS[command]);

/** `analyze`'s formats. */
export const REPORT_FORMATS = formatsOf("analyze");
