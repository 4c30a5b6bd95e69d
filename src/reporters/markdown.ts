/**
 * `--format markdown`: the table report as GitHub-flavoured markdown, for pull-request comments and
 * `$GITHUB_STEP_SUMMARY`. Every string from the input is sanitized (no control characters or escape
 * sequences), cut to a width, and escaped so it stays text: pipes cannot split a cell, and backticks,
 * brackets, asterisks, angle brackets and ampersands cannot become code, links, emphasis, HTML or
 * entities.
 */
import { identityParts } from "./runIdentityText.js";
import { rowUsage, runUsagePhrase, summaryUsagePhrase } from "./usageText.js";
import { levelLabel } from "../core/findings.js";
import { agreementText, comparisonSide } from "./comparisonText.js";
import { callRange } from "./findingGroups.js";
import { detectorState, filterNotes, LEGEND, plural, runProfileLine, thresholdList, transcriptDetails, transcriptSummary } from "./phrases.js";
import type { FindingRow, ReportModel, ReportRun, Reporter, WriteOptions } from "./model.js";
import { location, runtimeFacts, stopText } from "./runFacts.js";
import { clip, ID_WIDTH } from "./sanitize.js";

/** Input text longer than this (a tool name, say) is cut, marked with `…`. */
const TEXT_WIDTH = 240;

/** Input text made inert for a markdown table cell or line, and cut to `width`. */
export function markdownText(text: string, width = TEXT_WIDTH): string {
  return clip(text, width)
    .replace(/[\\`*[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;

const FINDING_HEAD = ["call", "file:line", "tool", "detector", "level", "count", "threshold", "after stop"];
const FINDING_ALIGN = ["---:", "---", "---", "---", "---", "---:", "---", ":---:"];

/** `loop cost`: the run's rows gain it when its input recorded usage (cost.md §2: which loop cost most). */
const USAGE_HEAD = ["loop cost"];
const USAGE_ALIGN = ["---"];

function findingRow(group: FindingRow, options: WriteOptions, usage?: string): string {
  const { first } = group;
  const count = group.minCount === group.maxCount ? String(group.maxCount) : `${group.minCount}–${group.maxCount}`;
  const level = `${levelLabel(first.level)}${group.verdicts > 1 ? ` ×${group.verdicts}` : ""}`;
  return row([
    callRange(group),
    markdownText(location(first.file, first.line, options.cwd), Infinity),
    markdownText(first.tool),
    first.detector,
    first.level === "warning" ? level : `**${level}**`,
    count,
    `${first.threshold.name}=${first.threshold.value}`,
    first.afterStop ? "⏹" : "",
    // The explanation is built from sanitized pieces; escaping keeps it text.
    ...(options.explain === false ? [] : [markdownText(group.explanation, Infinity)]),
    ...(usage === undefined ? [] : [usage]),
  ]);
}

function runSection({ run, identity, rows: groups, liveStop: live }: ReportRun, options: WriteOptions, config: ReportModel["config"]): string[] {
  const facts = [
    run.agent !== null ? `agent ${markdownText(run.agent, ID_WIDTH)}` : undefined,
    run.session !== null ? `session ${markdownText(run.session, ID_WIDTH)}` : undefined,
    markdownText(run.file, Infinity), // the user's own path: escaped, never cut
    plural(run.calls, "call"),
    plural(run.compactions, "compaction"),
    runUsagePhrase(run),
  ].filter((part) => part !== undefined);
  const lines = [`### Run ${markdownText(run.run, ID_WIDTH)}`, "", facts.join(" · ")];
  const when = identityParts(identity);
  if (when.length > 0) lines.push("", markdownText(when.join(" · "), Infinity));
  if (identity.prompt !== null) lines.push("", `Prompt: ${markdownText(identity.prompt)}`);
  const profile = runProfileLine(run, config);
  if (profile) lines.push("", markdownText(profile, Infinity));
  if (run.firstStop) {
    const what = run.firstStop.kind === "abort" ? "aborted" : "blocked";
    lines.push("", `Under this config the run would have been **${what}** at call ${run.firstStop.call}; rows marked ⏹ come after that point.`);
  }
  for (const fact of runtimeFacts(run, live, options.cwd)) lines.push("", `${markdownText(fact.charAt(0).toUpperCase() + fact.slice(1), Infinity)}.`);
  lines.push("");
  if (groups.length === 0) lines.push("No findings.");
  else {
    const explain = options.explain === false ? [] : [["what happened"], ["---"]];
    // Figures are made of numbers and fixed words (usageText.ts): nothing to escape.
    const usageOf = run.patternUsage === undefined ? undefined : rowUsage(run);
    const usage = usageOf === undefined ? [[], []] : [USAGE_HEAD, USAGE_ALIGN];
    lines.push(row([...FINDING_HEAD, ...(explain[0] ?? []), ...usage[0]!]), row([...FINDING_ALIGN, ...(explain[1] ?? []), ...usage[1]!]));
    // not push(...rows): 100k rows overflow the stack
    for (const group of groups) lines.push(findingRow(group, options, usageOf && (usageOf(group) ?? "")));
  }
  return [...lines, ""];
}

function liveSection(data: ReportModel): string[] {
  if (!data.live || data.live.findings.length === 0) return [];
  const rows = data.live.rows.map((g) =>
    row([markdownText(g.first.run ?? "–", ID_WIDTH), String(g.first.line), markdownText(g.first.tool), g.first.detector, levelLabel(g.first.level), String(g.maxCount)]),
  );
  return ["### Live findings (from Gateway logs)", "", row(["run", "line", "tool", "detector", "level", "count"]), row(["---", "---:", "---", "---", "---", "---:"]), ...rows, ""];
}

/** Replay vs live, per run id found on both sides (a transcript and the Gateway log of its runs). */
function comparisonSection(data: ReportModel): string[] {
  const comparison = data.facts().comparison;
  if (!comparison || comparison.runs.length === 0) return [];
  const rows = comparison.rows.map((r) =>
    row([markdownText(r.run, ID_WIDTH), r.detector, markdownText(r.tool), levelLabel(r.level), comparisonSide(r.replay), comparisonSide(r.live), agreementText(r)]),
  );
  const agreeing = comparison.runs.filter((run) => !comparison.rows.some((r) => r.run === run));
  return [
    "### Replay vs live",
    "",
    "Runs lined up by run id; the replay under this config, calls as numbered.",
    "",
    ...(rows.length > 0 ? [row(["run", "detector", "tool", "level", "replay", "live", "agreement"]), row(["---", "---", "---", "---", "---", "---", "---"]), ...rows, ""] : []),
    ...(agreeing.length > 0 ? [`Neither side found anything in ${plural(agreeing.length, "run")}: they agree.`, ""] : []),
  ];
}

/** The runs that would have been stopped, worst first, as a list under the summary. */
function worstRunLines(data: ReportModel, options: WriteOptions): string[] {
  const { shown, total } = data.facts().worstRuns;
  if (total === 0) return [];
  const items = shown.map((worst) => {
    const { what, where } = stopText(worst, options.cwd);
    return `- ${markdownText(worst.run.run, ID_WIDTH)}: ${what}${where ? ` (${markdownText(where, Infinity)})` : ""}`;
  });
  return ["", `Worst runs${total > shown.length ? ` (${shown.length} of ${total})` : ""}:`, "", ...items];
}

function summarySection(data: ReportModel, options: WriteOptions): string[] {
  const s = data.summary;
  const lines = [
    "### Summary",
    "",
    row(["", ""]),
    row(["---", "---"]),
    row(["files", s.filesNotRead > 0 ? `${s.files} (${s.filesNotRead} more not read)` : String(s.files)]),
    row(["lines", `${s.lines.read} (${s.lines.used} used, ${s.lines.ignored} ignored, ${s.lines.skipped} skipped)`]),
    ...(transcriptSummary(s) !== undefined ? [row(["transcripts", data.choices.verbose ? transcriptDetails(s).join("; ") : transcriptSummary(s)!])] : []),
    ...(s.filtered !== undefined ? [row(["filters", markdownText(filterNotes(s).join("; "), Infinity)])] : []),
    row(["runs", String(s.runs)]),
    row(["calls", String(s.calls)]),
    ...(s.usage !== undefined ? [row(["usage", summaryUsagePhrase(s.usage)])] : []),
    row(["runs with warnings / blocks / aborts", `${s.runsWith.warning} / ${s.runsWith.critical} / ${s.runsWith.abort}`]),
    row(["findings", `${s.findings.warning} warning, ${s.findings.critical} block, ${s.findings.abort} abort`]),
    row(["thresholds", thresholdList(data.config.effective)]),
  ];
  if (data.config.agentOverrides.length > 0) lines.push(row(["agent overrides applied", data.config.agentOverrides.map((id) => markdownText(id, ID_WIDTH)).join(", ")]));
  for (const line of worstRunLines(data, options)) lines.push(line);
  if (s.findings.total === 0) lines.push("", `No loop findings in ${plural(s.runs, "run")}.`);
  else lines.push("", markdownText(LEGEND, Infinity));
  return lines;
}

/** Written a run's section at a time (runs spilled to disk are read back one by one), each piece whole lines. */
export const markdownReporter: Reporter = function* (data, options) {
  const lines = (pieces: readonly string[]) => (pieces.length > 0 ? `${pieces.join("\n")}\n` : "");
  yield lines(["## looplens report", "", `looplens ${data.version}: ${markdownText(detectorState(data.config), Infinity)}`, ""]);
  // Live runs (from Gateway logs) are shown in the live section, not as replayed runs.
  for (const run of data.runs) if (run.listed) yield lines(runSection(run, options, data.config));
  yield lines([...liveSection(data), ...comparisonSection(data)]);
  const { hidden, listed } = data.facts();
  if (hidden > 0 && listed > 0) yield lines([`${plural(hidden, "run")} without findings not shown (\`--all\` shows them).`, ""]);
  yield lines(summarySection(data, options));
};
