/**
 * `sweep --format markdown`: the grid as a Markdown table (a PR comment, a step summary): one row per
 * config with the runs warned / blocked / aborted, the median call of the first blocks and, when the
 * runs recorded usage, what the runs each config stops spent after their first stop (cost.md §3) —
 * threshold tuning as a trade-off. Values come from the config and counts; run ids are escaped.
 */
import { markdownText } from "./markdown.js";
import { detectorState, plural, thresholdList } from "./phrases.js";
import type { SweepReporter, SweepRow } from "./sweepReport.js";
import { afterStopCell, hasUsage } from "./sweepTable.js";

const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
const SHOWN_CHANGES = 3;

function changes(sweepRow: SweepRow): string {
  const shown = sweepRow.changed.slice(0, SHOWN_CHANGES).map((c) => `${markdownText(c.run, 60)} ${c.from}→${c.to}`);
  const more = sweepRow.changed.length > SHOWN_CHANGES ? `, +${sweepRow.changed.length - SHOWN_CHANGES} more` : "";
  return shown.join(", ") + more;
}

export const sweepMarkdownReporter: SweepReporter = (report) => {
  const usage = hasUsage(report);
  const head = [...report.axes.map((axis) => markdownText(axis.key)), "warned", "blocked", "aborted", "median 1st block", ...(usage ? ["spent after 1st stop"] : []), "changed (vs row above)"];
  const rows = report.rows.map((sweepRow) => {
    const { warned, blocked, aborted, firstBlockMedianCall } = sweepRow.stats;
    const values = report.axes.map((axis) => markdownText(String(sweepRow.vary[axis.key])));
    return row([...values, String(warned), String(blocked), String(aborted), firstBlockMedianCall === null ? "–" : String(firstBlockMedianCall), ...(usage ? [afterStopCell(sweepRow)] : []), changes(sweepRow)]);
  });
  const runs = report.rows[0]?.stats.runs ?? 0;
  return [
    "## looplens sweep",
    "",
    `looplens ${report.version}: ${markdownText(detectorState(report.config), Infinity)}`,
    "",
    `${plural(report.rows.length, "config")} over ${plural(runs, "run")} (${plural(report.calls, "call")}) in ${plural(report.files, "file")}; base: ${markdownText(thresholdList(report.config.effective), Infinity)}`,
    "",
    row(head),
    row(head.map((_, i) => (i < report.axes.length || i === head.length - 1 ? "---" : "---:"))),
    ...rows,
    "",
  ].join("\n");
};
