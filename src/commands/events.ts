/**
 * `looplens events [paths…]`: the canonical events (inputs.md §1) the detectors see, one JSON object
 * per line, so users can inspect and hand-edit what replay uses. `file` and `line` say where each
 * event came from (the original input's file and line); the events adapter reads them back, so the
 * printed stream analyses with every finding at the original location.
 *
 * A Gateway log holds nothing to replay; for it this prints the live events looplens read from it
 * (`live_marker`: run boundaries, tool starts, compactions, guard lines; `live_finding`: detector
 * events with their echoes merged), already attributed to runs. They read back as the same report.
 */
import { liveEventFields } from "../adapters/events/liveEventsJson.js";
import type { LoopEvent } from "../core/events.js";
import { isLiveEvent, type LiveEvent } from "../core/liveEvents.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { jsonText } from "../reporters/jsonText.js";
import { readEvents } from "../pipeline/analysis.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";
import { inputPaths, nothingUsable, reportDiagnostics, strictViolation, type CommonOptions, type Io } from "./common.js";
import { EXIT } from "../pipeline/errors.js";
import { startInputProgress } from "../pipeline/progress.js";
import { progressDisplay } from "./progressDisplay.js";
import type { FilterOptions } from "./filterOptions.js";
import type { OutputOptions } from "./output.js";

/** Canonical key order: what the event is, whose it is, then its payload, then where it came from. */
export function canonicalEventJson(event: LoopEvent): string {
  const { type, run, session, agent, ts, file, line } = event;
  const payload: Record<string, unknown> = {};
  if (event.type === "tool_call" || event.type === "tool_result") {
    if (event.id !== undefined) payload.id = event.id;
    if (event.tool !== undefined) payload.tool = event.tool;
  }
  if (event.type === "tool_call" && event.format !== undefined) payload.format = event.format;
  if (event.type === "tool_call" && event.args !== undefined) payload.args = event.args;
  // A model turn (cost.md §1): its key on each call it made, and its usage on the `turn` event after them.
  if ((event.type === "tool_call" || event.type === "turn") && event.turn !== undefined) payload.turn = event.turn;
  if ((event.type === "tool_call" || event.type === "turn") && event.usage !== undefined) payload.usage = event.usage;
  if (event.type === "run_start" && event.harnessVersion !== undefined) payload.harnessVersion = event.harnessVersion;
  if (event.type === "tool_result") {
    if (event.error !== undefined) payload.error = event.error;
    else if (event.result !== undefined) payload.result = event.result;
    if (event.unknownTool !== undefined) payload.unknownTool = event.unknownTool;
  }
  return jsonText({ type, run, session, agent, ts, ...payload, file, line });
}

/** The canonical JSON of a live event (liveEventsJson.ts reads it back). */
export function liveEventJson(event: LiveEvent): string {
  return jsonText(liveEventFields(event));
}

export type EventsOptions = CommonOptions & OutputOptions & Pick<FilterOptions, "run" | "session">;

/** `--run`, `--session`: only the events of those runs (live events outside any run have none). */
function eventFilter(options: EventsOptions): (event: LoopEvent | LiveEvent) => boolean {
  const runs = options.run !== undefined && options.run.length > 0 ? new Set(options.run) : undefined;
  const sessions = options.session !== undefined && options.session.length > 0 ? new Set(options.session) : undefined;
  return (event) => (runs === undefined || runs.has(event.run ?? "")) && (sessions === undefined || sessions.has(event.session ?? ""));
}

export function runEvents(paths: string[], options: EventsOptions, io: Io): Promise<number> {
  // The heap's growth is held once the process is large, as for analyze (v8Tuning.ts).
  return withHeapWatched(() => printEvents(paths, options, io));
}

async function printEvents(paths: string[], options: EventsOptions, io: Io): Promise<number> {
  const wanted = eventFilter(options);
  const digest = await loadXxhashDigest();
  const files = await inputPaths(paths, io, options.quiet, options.agentHome);
  // The bar is on stderr; when stdout is the same terminal, it is erased before each write.
  const shown = await startInputProgress(files, progressDisplay(io, { quiet: options.quiet }));
  const lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    if (io.stdoutIsTTY) shown.clear();
    io.stdout(lines.join(""));
    lines.length = 0;
  };
  let result: Awaited<ReturnType<typeof readEvents>>;
  try {
    // Between chunks of input, what was printed waits to go out: into a slow pipe, the whole output
    // waited in memory otherwise.
    const afterChunk = () => {
      flush();
      return io.stdoutDrained?.();
    };
    result = await readEvents(files, digest, { ...options, afterChunk, ...(shown.progress && { progress: shown.progress }) }, (event) => {
      if (!wanted(event)) return;
      lines.push(`${isLiveEvent(event) ? liveEventJson(event) : canonicalEventJson(event)}\n`);
      if (lines.length >= 1024) flush();
    });
  } finally {
    shown.clear();
  }
  flush();
  reportDiagnostics(io, result.diagnostics, result.diagnosticsTotal, options.quiet);
  // Events are a stream, printed as they are read: those before a bad line stay printed under
  // --strict (with -o the file is not replaced). Nothing usable printed no event anyway.
  if (strictViolation(io, options, result.lines.skipped)) return EXIT.usage;
  if (nothingUsable(io, result)) return EXIT.usage;
  return EXIT.ok;
}
