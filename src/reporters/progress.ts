/**
 * The progress bar for long reads (cli.md "Long work"): bytes read of the total, lines per second
 * and ETA, redrawn in place on a terminal's stderr at most every REDRAW_MS. Whether to show it at
 * all (a terminal, not json/ndjson, not --quiet, enough input) is the command's decision; this
 * module only renders and throttles, with the clock injected so both can be tested.
 */

export interface ProgressState {
  readonly bytes: number;
  readonly total: number;
  readonly lines: number;
  readonly elapsedMs: number;
}

export const REDRAW_MS = 200;
/** Nothing is drawn in the first moments: short work finishes before a bar would help. */
export const FIRST_DRAW_MS = 300;

const CLEAR_LINE = "\r\u001b[K";

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0);
}

function rate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)}M`;
  if (perSecond >= 1e4) return `${Math.round(perSecond / 1e3)}k`;
  return String(Math.round(perSecond));
}

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, "0")}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** One line of progress, fitted to `width` columns (no line end: it is redrawn in place). */
export function renderProgress(state: ProgressState, width: number): string {
  const fraction = state.total > 0 ? Math.min(1, state.bytes / state.total) : 0;
  const seconds = state.elapsedMs / 1000;
  const bytesPerSecond = seconds > 0 ? state.bytes / seconds : 0;
  const eta = bytesPerSecond > 0 && state.bytes < state.total ? duration((state.total - state.bytes) / bytesPerSecond) : "–";
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const text = ` ${megabytes(state.bytes)}/${megabytes(state.total)} MB · ${rate(seconds > 0 ? state.lines / seconds : 0)} lines/s · ETA ${eta}`;
  const barWidth = Math.max(0, Math.min(30, width - 1 - percent.length - 1 - text.length));
  if (barWidth < 5) return `${percent}${text}`.slice(0, Math.max(0, width - 1));
  const filled = Math.round(fraction * barWidth);
  return `${percent} ${"█".repeat(filled)}${"░".repeat(barWidth - filled)}${text}`;
}

/** Accumulates progress and redraws at most every REDRAW_MS through `write`. */
export class ProgressMeter {
  private bytes = 0;
  private lines = 0;
  private lastDraw = -Infinity;
  private drawn = false;
  private readonly started: number;

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void,
    private readonly now: () => number,
    private readonly width: number,
  ) {
    this.started = now();
  }

  /**
   * Bytes and lines read since the last update. The total is the input's size and fixed: the caller
   * counts each byte once (pipeline/progress.ts), and what the bar shows never passes the total
   * (a file that grew while read, standard input beside files), so its percentage never falls.
   */
  update(bytes: number, lines: number): void {
    this.bytes = this.total > 0 ? Math.min(this.total, this.bytes + bytes) : this.bytes + bytes;
    this.lines += lines;
    const time = this.now();
    if (time - this.started < FIRST_DRAW_MS || time - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = time;
    this.drawn = true;
    this.write(CLEAR_LINE + renderProgress({ bytes: this.bytes, total: this.total, lines: this.lines, elapsedMs: time - this.started }, this.width));
  }

  /** Erases the bar so that the report starts on a clean line. */
  done(): void {
    if (this.drawn) this.write(CLEAR_LINE);
    this.drawn = false;
  }
}
