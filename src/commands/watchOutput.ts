/**
 * Where `looplens watch` writes what it sees: findings and the other stream lines on stdout (as
 * blocks for a person, or `--format ndjson`), notices and diagnostics on stderr (sanitized), the
 * status line redrawn at the bottom of a terminal, and at the end the summary.
 *
 * On a terminal, everything written to stderr first clears the status line (both are the same
 * screen); the findings of one analysis arrive together, and the pattern repeats among them are
 * written once they all have (a microtask later), as one again-line per pattern.
 */
import type { WatchEvent, WatchStats } from "../pipeline/watch/watchEvents.js";
import { sanitize } from "../reporters/sanitize.js";
import { watchNdjsonLine, watchNdjsonSummary } from "../reporters/watchNdjson.js";
import { watchSummaryText } from "../reporters/watchSummary.js";
import { WatchTerminal } from "../reporters/watchTerminal.js";
import type { Io } from "./common.js";

export interface WatchOutputOptions {
  readonly format: "table" | "ndjson";
  readonly color: boolean;
  readonly explain: boolean;
  readonly quiet: boolean;
  /** The human "watching …" line's name for what is watched (`~/.openclaw`, or the paths). */
  readonly label: string;
  readonly stats: () => WatchStats;
}

/** Diagnostics shown as they come; past this, they are only counted (the summary says how many). */
const SHOWN_DIAGNOSTICS = 50;

/** The status line is redrawn at most this often (ms). */
const STATUS_EVERY_MS = 250;

export class WatchOutput {
  private readonly terminal: WatchTerminal | undefined;
  private flushQueued = false;
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  private lastStatus = 0;
  private diagnosticsShown = 0;

  constructor(
    private readonly io: Io,
    private readonly options: WatchOutputOptions,
  ) {
    const tty = io.stdoutIsTTY && options.format === "table";
    this.terminal = options.format === "table" ? new WatchTerminal({ color: options.color, tty, width: io.columns, explain: options.explain }) : undefined;
  }

  /** Writes an event where it goes. */
  write(event: WatchEvent): void {
    const at = new Date();
    switch (event.type) {
      case "notice":
        return this.stderr(`looplens: notice: ${sanitize(event.text)}`);
      case "diagnostic":
        return this.diagnostic(event.diagnostic);
      case "watching":
        this.stderr(`looplens: watching ${this.options.label}: ${watchingCounts(event)}`);
        break;
    }
    if (this.terminal) {
      const text = this.terminal.event(event, at);
      if (text !== "") this.io.stdout(this.terminal.clearStatus() + text);
      this.queueFlush();
    } else {
      const line = watchNdjsonLine(event, at);
      if (line !== undefined) this.io.stdout(line);
    }
  }

  /** The closing summary (the status line cleared): on stdout for a person, a `summary` line in ndjson (and the text on stderr). */
  summary(): void {
    const stats = this.options.stats();
    const ended = new Date();
    this.stopStatus();
    if (this.terminal) {
      this.io.stdout(this.terminal.flush(ended) + this.terminal.clearStatus() + watchSummaryText(stats, ended, this.options.color));
      return;
    }
    this.io.stdout(watchNdjsonSummary(stats, ended));
    if (!this.options.quiet) this.io.stderr(watchSummaryText(stats, ended, false));
  }

  /** Pending again-lines written, the status line taken down (before exiting). */
  close(): void {
    this.stopStatus();
    if (this.terminal) this.io.stdout(this.terminal.flush(new Date()) + this.terminal.clearStatus());
  }

  /** The status line, redrawn (throttled): after output, and as events come in. */
  redraw(): void {
    if (!this.terminal || !this.io.stdoutIsTTY || this.statusTimer) return;
    const wait = Math.max(0, this.lastStatus + STATUS_EVERY_MS - Date.now());
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.lastStatus = Date.now();
      this.io.stdout(this.terminal!.status(this.options.stats(), new Date()));
    }, wait);
  }

  private stopStatus(): void {
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const text = this.terminal!.flush(new Date());
      if (text !== "") this.io.stdout(this.terminal!.clearStatus() + text);
      this.redraw();
    });
  }

  private diagnostic(d: { readonly file: string; readonly line: number; readonly reason: string }): void {
    if (this.diagnosticsShown > SHOWN_DIAGNOSTICS) return;
    this.diagnosticsShown++;
    if (this.diagnosticsShown > SHOWN_DIAGNOSTICS) return this.stderr(`looplens: more diagnostics are counted, not shown (the summary says how many)`);
    this.stderr(`${sanitize(d.file)}:${d.line}: ${sanitize(d.reason)}`);
  }

  private stderr(text: string): void {
    if (this.options.quiet) return;
    if (this.terminal && this.io.stdoutIsTTY) this.io.stdout(this.terminal.interrupt());
    this.io.stderr(`${text}\n`);
    this.redraw();
  }
}

function watchingCounts(event: Extract<WatchEvent, { type: "watching" }>): string {
  const n = (count: number) => count.toLocaleString("en-US");
  const polling = event.mode === "polling" ? ", polling" : "";
  return `${n(event.files)} file${event.files === 1 ? "" : "s"}, ${n(event.activeRuns)} run${event.activeRuns === 1 ? "" : "s"} active in the last 10 min${polling}`;
}
