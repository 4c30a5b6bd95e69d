/**
 * When the progress bar is shown (cli.md "Long work"): on a terminal's stderr, for more than a few
 * megabytes of input, never for machine-readable output (json, ndjson) and never under --quiet;
 * nor on a TERM=dumb terminal, which cannot erase the line the bar is redrawn on.
 */
import { ProgressMeter } from "../reporters/progress.js";
import type { Io } from "./common.js";
import type { StartProgress } from "../pipeline/progress.js";

export const PROGRESS_MIN_BYTES = 8 << 20;

const MACHINE_FORMATS = new Set(["json", "ndjson"]);

export function progressDisplay(io: Io, options: { quiet?: boolean; format?: string }): StartProgress | undefined {
  if (!io.stderrIsTTY || io.env.TERM === "dumb" || options.quiet || (options.format !== undefined && MACHINE_FORMATS.has(options.format))) return undefined;
  return (totalBytes) => {
    if (totalBytes < PROGRESS_MIN_BYTES) return undefined;
    const meter = new ProgressMeter(totalBytes, io.stderr, () => performance.now(), io.stderrColumns || io.columns || 80);
    return { update: (bytes, lines) => meter.update(bytes, lines), done: () => meter.done() };
  };
}
