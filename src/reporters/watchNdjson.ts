/**
 * `looplens watch --format ndjson`: the stream, one JSON object per line on stdout, nothing else
 * there (notices and diagnostics go to stderr).
 *
 * - A finding is a line of `analyze --format ndjson`'s schema, with `observedAt` (the ISO time it was
 *   printed) last; it has no `type`, as analyze's lines have none, so `jq 'select(.level == "critical")'`
 *   reads both streams alike.
 * - The other lines say what happened around the findings, each with a `type`:
 *   `{"type":"watching","paths":[…],"files":N,"activeRuns":N,"mode":"inotify"|"polling",…}` first;
 *   `{"type":"ready","files":N,"findings":N,…}` once existing content is read (what follows is new:
 *   scripts can wait for it);
 *   `{"type":"run_named","run":"<sid>#2","name":"<run id>","agent":…,"session":…,"file":…,…}` when a
 *   run whose findings of `file` were printed under one name gets (another) name, or its agent or
 *   session becomes known: those findings (run `run`, file `file`) are now run `name`, with that
 *   agent and session (the OpenClaw runtime writes a run's name after the run; a Gateway log may
 *   tell a run's session on a later line);
 *   `{"type":"finding_revised","file":…,"line":N,"detector":…,"level":…,"run":…,"agent":…,"session":…,…}`
 *   when a printed finding outside any run (a Gateway log line logged while no run was open) learns
 *   its agent or session (or run) from a later echo of it: the finding printed at that file and line
 *   has them;
 *   `{"type":"file_renamed","from":…,"to":…,…}` when a file with printed findings is renamed (the
 *   live transcript archived as `.reset.<ts>`): those findings are the new path's;
 *   `{"type":"summary",…}` last, when the watch is stopped (SIGINT, SIGTERM).
 */
import type { WatchEvent, WatchStats } from "../pipeline/watch/watchEvents.js";
import { publicFinding } from "./findingGroups.js";
import { jsonText } from "./jsonText.js";
import { worstRuns } from "./watchSummary.js";

/** The line for an event, or undefined for those that go to stderr. */
export function watchNdjsonLine(event: WatchEvent, observedAt: Date): string | undefined {
  const at = observedAt.toISOString();
  switch (event.type) {
    case "finding":
      return line({ ...publicFinding(event.finding), observedAt: at });
    case "watching":
      return line({ type: "watching", paths: event.paths, files: event.files, activeRuns: event.activeRuns, mode: event.mode, observedAt: at });
    case "ready":
      return line({ type: "ready", files: event.files, findings: event.findings, observedAt: at });
    case "run_named":
      return line({ type: "run_named", run: event.from, name: event.to, agent: event.agent, session: event.session, file: event.file, observedAt: at });
    case "file_renamed":
      return line({ type: "file_renamed", from: event.from, to: event.to, observedAt: at });
    case "finding_revised":
      return line({ type: "finding_revised", file: event.file, line: event.line, detector: event.detector, level: event.level, run: event.run, agent: event.agent, session: event.session, observedAt: at });
    case "notice":
    case "diagnostic":
      return undefined;
  }
}

/** The closing line: what was seen over the watch. */
export function watchNdjsonSummary(stats: WatchStats, endedAt: Date): string {
  const total = (counts: WatchStats["seen"]) => ({ ...counts, total: counts.warning + counts.critical + counts.abort });
  return line({
    type: "summary",
    seconds: Math.round((endedAt.getTime() - stats.startedAt) / 1000),
    files: stats.files,
    runs: stats.runs,
    findings: total(stats.seen),
    printed: total(stats.printed),
    diagnostics: stats.diagnostics,
    worstRuns: worstRuns(stats, 5).map((run) => ({ run: run.run, agent: run.agent, session: run.session, file: run.file, findings: run.findings.length })),
    observedAt: endedAt.toISOString(),
  });
}

const line = (value: unknown) => `${jsonText(value)}\n`;
