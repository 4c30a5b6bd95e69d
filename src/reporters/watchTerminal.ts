/**
 * `looplens watch` for a person: one block per new finding as it happens — time, level, detector,
 * run and agent, call and tool; count and threshold, where it is; and `analyze`'s explanation line —
 * collapsed per pattern like the table (findingGroups.ts): a pattern's next verdicts do not print
 * new blocks but update one "again" line under it, rewritten in place on a terminal while it is the
 * last thing printed. Under everything, on a terminal only, a status line redrawn as things happen
 * (files watched, active runs, last event, findings so far).
 *
 * Text only: this class keeps what it printed and returns what to write; the command writes it.
 * Every string from the input is sanitized (the explanation is built from sanitized parts).
 */
import { Chalk, type ChalkInstance } from "chalk";
import { levelLabel, type Finding } from "../core/findings.js";
import type { WatchEvent, WatchStats } from "../pipeline/watch/watchEvents.js";
import { callRange, type FindingGroup } from "./findingGroups.js";
import { explanation } from "./explanation.js";
import { plural } from "./phrases.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { levelColor } from "./tableParts.js";
import { clipToWidth, DEFAULT_WIDTH } from "./textFit.js";

export interface WatchTerminalOptions {
  readonly color: boolean;
  /** A terminal: lines are rewritten in place and the status line drawn. */
  readonly tty: boolean;
  readonly width: number | undefined;
  /** `--no-explain`: no plain-words line. */
  readonly explain: boolean;
}

interface Group extends FindingGroup {
  verdicts: number;
  maxCount: number;
  minCount: number;
  last: Finding;
  /** Verdicts not yet printed (written at the next flush). */
  pending: boolean;
}

/** Under a block, lines start here (the time column). */
const INDENT = "          ";

const groupKey = (finding: Finding) => {
  // As the table collapses (findingGroups.ts): a ping-pong alternates between two patterns.
  const pattern = finding.detector === "ping_pong" ? [] : [finding.tool, finding.argsHash];
  return JSON.stringify([finding.detector, finding.level, pattern, finding.afterStop, finding.source ?? "", finding.run, finding.file]);
};

export const clockTime = (at: Date) => at.toTimeString().slice(0, 8);

export class WatchTerminal {
  private readonly chalk: ChalkInstance;
  private readonly groups = new Map<string, Group>();
  /** The group whose block or again-line is the last thing printed, and whether that was its again-line. */
  private last: { key: string; againLine: boolean } | undefined;
  private statusShown = false;

  constructor(private readonly options: WatchTerminalOptions) {
    this.chalk = new Chalk({ level: options.color ? 1 : 0 });
  }

  /** The text for an event (stdout); notices and diagnostics are the command's (stderr). */
  event(event: WatchEvent, at: Date): string {
    switch (event.type) {
      case "finding":
        return this.finding(event.finding, at);
      case "run_named": {
        const who = [event.agent === null ? "" : `agent ${clip(event.agent, ID_WIDTH)}`, event.session === null ? "" : `session ${clip(event.session, ID_WIDTH)}`].filter(Boolean).join(", ");
        const what = event.from === event.to ? `is of ${who}` : `is named ${this.chalk.bold(clip(event.to, ID_WIDTH))}`;
        return this.other(`${INDENT}run ${clip(event.from, ID_WIDTH)} ${what}`, at);
      }
      case "file_renamed":
        return this.other(`${INDENT}${sanitize(event.from)} is now ${sanitize(event.to)}`, at);
      case "finding_revised": {
        const who = [event.agent === null ? "" : `agent ${clip(event.agent, ID_WIDTH)}`, event.session === null ? "" : `session ${clip(event.session, ID_WIDTH)}`].filter(Boolean).join(", ");
        return this.other(`${INDENT}the ${event.detector} ${event.level} at ${sanitize(event.file)}:${event.line} is of ${who || "no known agent"}`, at);
      }
      case "ready":
        return this.other(`${clockTime(at)}  existing content read (${plural(event.findings, "finding")} in it); watching for new ones`, at);
      case "watching":
      case "notice":
      case "diagnostic":
        return "";
    }
  }

  /** Verdicts of patterns already shown, gathered since the last flush, as their again-lines. */
  flush(at: Date): string {
    let out = "";
    for (const [key, group] of this.groups) {
      if (!group.pending) continue;
      group.pending = false;
      out += this.againLine(key, group, at);
    }
    return out;
  }

  /**
   * Before something else is written to the terminal (stderr: a notice, a diagnostic): the status
   * line is cleared, and the last again-line is no longer the last line.
   */
  interrupt(): string {
    this.last = undefined;
    return this.clearStatus();
  }

  /** Clears the status line (before anything else is written to the terminal). */
  clearStatus(): string {
    if (!this.statusShown) return "";
    this.statusShown = false;
    return "\r\u001b[2K";
  }

  /** The status line, drawn without a newline (terminal only). */
  status(stats: WatchStats, at: Date): string {
    if (!this.options.tty) return "";
    const total = stats.printed.warning + stats.printed.critical + stats.printed.abort;
    const last = stats.lastEvent ? `last event ${clockTime(new Date(stats.lastEvent.at))} ${sanitize(baseName(stats.lastEvent.file))}` : "no event yet";
    const polling = stats.mode === "polling" ? " (polling)" : "";
    const text = `watching ${plural(stats.files, "file")}${polling} · ${plural(stats.activeRuns, "active run")} · ${last} · ${plural(total, "new finding")} · ${clockTime(at)}`;
    const out = `${this.clearStatus()}${this.chalk.dim(this.fit(text))}`;
    this.statusShown = true;
    return out;
  }

  private finding(finding: Finding, at: Date): string {
    const key = groupKey(finding);
    const group = this.groups.get(key);
    if (group) {
      group.verdicts++;
      group.last = finding;
      group.maxCount = Math.max(group.maxCount, finding.count);
      group.minCount = Math.min(group.minCount, finding.count);
      group.pending = true;
      return "";
    }
    const fresh: Group = { first: finding, last: finding, verdicts: 1, maxCount: finding.count, minCount: finding.count, pending: false };
    this.groups.set(key, fresh);
    const out = this.flush(at) + this.block(fresh, at);
    this.last = { key, againLine: false };
    return out;
  }

  private block(group: Group, at: Date): string {
    const { chalk } = this;
    const f = group.first;
    const level = levelColor(chalk, f.level)(levelLabel(f.level).toUpperCase().padEnd(7));
    const agent = f.agent === null ? "" : ` (${clip(f.agent, ID_WIDTH)})`;
    const run = f.run === null ? "outside any run" : `run ${clip(f.run, ID_WIDTH)}${agent}`;
    const call = f.call === null ? "" : ` · call ${f.call}`;
    const threshold = f.threshold.value === null ? f.threshold.name : `${f.threshold.name}=${f.threshold.value}`;
    const live = f.source === "log" ? " · logged by the runtime" : "";
    const stop = f.afterStop ? " · after the run's first stop" : "";
    const lines = [
      `${clockTime(at)}  ${level} ${chalk.bold(f.detector)} · ${run}${call} · ${clip(f.tool, ID_WIDTH)}`,
      `${INDENT}count ${f.count}, ${threshold}${live}${stop} · ${sanitize(f.file)}:${f.line}`,
    ];
    if (this.options.explain) lines.push(`${INDENT}${chalk.dim(explanation(group))}`);
    return lines.map((text) => this.line(text)).join("");
  }

  private againLine(key: string, group: Group, at: Date): string {
    const counts = group.minCount === group.maxCount ? `count ${group.maxCount}` : `counts ${group.minCount}–${group.maxCount}`;
    const what = `×${group.verdicts} · calls ${callRange(group)} · ${counts} · last ${clockTime(at)}`;
    const adjacent = this.last?.key === key;
    const f = group.first;
    const text = adjacent
      ? `${INDENT}${this.chalk.dim("again")} ${what}`
      : `${clockTime(at)}  ${levelColor(this.chalk, f.level)(levelLabel(f.level))} again · ${f.detector} · ${f.run === null ? "outside any run" : `run ${clip(f.run, ID_WIDTH)}`} · ${clip(f.tool, ID_WIDTH)} · ${what}`;
    // On a terminal, the pattern's own again-line, if it is the last line, is rewritten in place.
    const rewrite = this.options.tty && adjacent && this.last!.againLine ? "\u001b[1A\r\u001b[2K" : "";
    this.last = { key, againLine: true };
    return rewrite + this.line(text);
  }

  /** A line that is no finding's: pending again-lines first, and no again-line is the last line after it. */
  private other(text: string, at: Date): string {
    const out = this.flush(at) + this.line(text);
    this.last = undefined;
    return out;
  }

  /** One line, fitted to a terminal's width (so that rewriting in place moves up exactly one line). */
  private line(text: string): string {
    return `${this.fit(text)}\n`;
  }

  private fit(text: string): string {
    if (!this.options.tty) return text;
    return clipToWidth(text, Math.max(20, (this.options.width || DEFAULT_WIDTH) - 1));
  }
}

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);
