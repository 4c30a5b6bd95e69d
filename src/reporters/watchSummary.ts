/**
 * What `looplens watch` prints when stopped (Ctrl-C, SIGTERM): one screen on what was seen — how
 * long, files and runs, findings by level (all, and those printed since the start), and the worst
 * runs, ranked as everywhere else (core/worstFirst.ts).
 */
import { Chalk } from "chalk";
import { levelLabel, type FindingLevel } from "../core/findings.js";
import { worstFirst } from "../core/worstFirst.js";
import type { LevelCounts, WatchStats } from "../pipeline/watch/watchEvents.js";
import type { RunDigest } from "../pipeline/watch/unitFollower.js";
import { plural } from "./phrases.js";
import { clip, ID_WIDTH } from "./sanitize.js";
import { levelColor } from "./tableParts.js";

const WORST_SHOWN = 5;

export function worstRuns(stats: WatchStats, limit: number): RunDigest[] {
  return worstFirst(stats.runsWithFindings.filter((run) => run.findings.length > 0)).slice(0, limit);
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : m > 0 ? `${m}m ${String(s).padStart(2, "0")}s` : `${s}s`;
}

function levels(counts: LevelCounts): string {
  const total = counts.warning + counts.critical + counts.abort;
  if (total === 0) return "none";
  const parts = (["warning", "critical", "abort"] as const).filter((level) => counts[level] > 0).map((level) => plural(counts[level], levelLabel(level)));
  return `${total} (${parts.join(", ")})`;
}

/** The run's highest level, and where it first stopped (its first finding that is not a warning). */
function runLine(run: RunDigest, color: (level: FindingLevel, text: string) => string): string {
  let top: FindingLevel = "warning";
  for (const finding of run.findings) if (finding.level === "abort" || (finding.level === "critical" && top === "warning")) top = finding.level;
  const stop = run.findings.find((finding) => finding.level !== "warning");
  const where = stop ? ` at call ${stop.call ?? "?"}` : "";
  const agent = run.agent === null ? "" : ` (${clip(run.agent, ID_WIDTH)})`;
  return `  ${clip(run.run, ID_WIDTH)}${agent}: ${color(top, levelLabel(top))}${where}, ${plural(run.findings.length, "finding")}, ${plural(run.calls, "call")}`;
}

export function watchSummaryText(stats: WatchStats, endedAt: Date, useColor: boolean): string {
  const chalk = new Chalk({ level: useColor ? 1 : 0 });
  const color = (level: FindingLevel, text: string) => levelColor(chalk, level)(text);
  const lines = [
    `looplens watch: ${duration(endedAt.getTime() - stats.startedAt)}, ${plural(stats.files, "file")}, ${plural(stats.runs, "run")} (${stats.activeRuns} active in the last 10 min)`,
    `findings: ${levels(stats.seen)}; printed while watching: ${levels(stats.printed)}`,
  ];
  if (stats.diagnostics > 0) lines.push(`diagnostics: ${stats.diagnostics} (on stderr as they came)`);
  const worst = worstRuns(stats, WORST_SHOWN);
  if (worst.length > 0) {
    lines.push(worst.length === 1 ? "the run with findings:" : `worst runs (${worst.length} of ${stats.runsWithFindings.length} with findings):`);
    for (const run of worst) lines.push(runLine(run, color));
  }
  return `${lines.join("\n")}\n`;
}
