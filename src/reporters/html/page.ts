/**
 * `--format html`: one self-contained page (no network: no CDN, font or image). Nothing from the
 * input is written as markup: the page data travels as escaped JSON (escape.ts) and the page's own
 * script draws it with DOM calls (client.ts). A Content-Security-Policy allows nothing but that
 * script and stylesheet, by hash: were some input to slip into the page as markup anyway, no
 * inline script, handler, style, image or request of it would run.
 */
import { createHash } from "node:crypto";
import type { ReportModel, Reporter } from "../model.js";
import { CLIENT_SCRIPT } from "./client.js";
import { DRAWN_RUNS, LISTED_RUNS, pageData } from "./data.js";
import { scriptJson } from "./escape.js";
import { STYLES } from "./styles.js";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The policy of every page: only this script and this stylesheet; no base URL or form target. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(CLIENT_SCRIPT)}`,
  `style-src ${sha256(STYLES)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const HEAD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>looplens report</title>
<style>${STYLES}</style>
</head>
<body>
<noscript>This report draws its runs with its own inline script; allow JavaScript for this file to see them, or use --format table.</noscript>
<main id="report"></main>
<svg id="svg-ns" hidden></svg>
`;

function page(data: ReportModel): string {
  return `${HEAD}<script type="application/json" id="looplens-data">${scriptJson(pageData(data))}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The page draws each run's calls: the analysis keeps their timelines for this format only; and it
 * shows the worst runs, some whole and more in a line each: the model keeps those for it.
 */
export const htmlReporter: Reporter = Object.assign(page, { needs: { timelines: true, ranked: { whole: DRAWN_RUNS, brief: DRAWN_RUNS + LISTED_RUNS } } });
