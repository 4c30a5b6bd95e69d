/** The output formats, by name: each a function from report data to text (like eslint's formatters). */
import { githubReporter } from "./github.js";
import { gitlabReporter } from "./gitlab.js";
import { htmlReporter } from "./html/page.js";
import { jsonReporter } from "./json.js";
import { junitReporter } from "./junit.js";
import { markdownReporter } from "./markdown.js";
import { ndjsonReporter } from "./ndjson.js";
import { sarifReporter } from "./sarif.js";
import type { Reporter } from "./model.js";
import { tableReporter } from "./table.js";

export const REPORTERS: Readonly<Record<string, Reporter>> = {
  table: tableReporter,
  json: jsonReporter,
  ndjson: ndjsonReporter,
  markdown: markdownReporter,
  github: githubReporter,
  html: htmlReporter,
  sarif: sarifReporter,
  junit: junitReporter,
  gitlab: gitlabReporter,
};

export const REPORT_FORMATS = Object.keys(REPORTERS);
