/**
 * `analyze - --format ndjson` as a pipe (`tail -f session.jsonl | looplens analyze - -f ndjson`):
 * each replayed finding is written as soon as replay makes it, instead of once standard input ends.
 *
 * Only where that is exact, so that the lines are analyze's, in analyze's order:
 * - the input is standard input alone (replay meets its findings in input order: one input, read
 *   in order), the format is ndjson, and no report-wide selection is asked for (`--top`, `--since`,
 *   `--until`, `--agent`: they need every run first); `--run`, `--session`, `--tool`, `--detector`
 *   are tested finding by finding (pipeline/findingFilter.ts);
 * - the adapters' checked shortcuts, which may read an input again, are off (a finding written
 *   cannot be taken back): the same findings, the long way;
 * - only formats that replay their lines in one pass, in order, stream (canonical events, Claude
 *   Code, Codex, OpenHands): the others read their whole input before they replay (an OpenClaw
 *   transcript names its runs in a first pass; Gemini CLI keeps the last copy of each message and
 *   replays in its order), so their findings are written once standard input ends, as before;
 * - live findings (a Gateway log's, or live events in an events file) are settled per run at the
 *   end (core/liveRuns.ts) and written then, in line order among the replayed ones: so from the
 *   first live event on, replayed findings are held too, and written with them at the end.
 */
import type { InputFormat } from "../adapters/adapter.js";
import type { ReplayedFinding } from "../core/findings.js";
import { filteredList } from "../core/findingList.js";
import { findingFilter } from "../pipeline/findingFilter.js";
import type { ReportFilters } from "../pipeline/filters.js";
import { publicFinding } from "../reporters/findingGroups.js";
import { jsonText } from "../reporters/jsonText.js";
import type { Analysis } from "../pipeline/analysis.js";
import type { Io } from "./common.js";

/** Formats that replay their lines in one pass, in line order (checked against the whole-input ndjson on every fixture). */
const STREAMING_FORMATS: ReadonlySet<InputFormat> = new Set(["events", "claude-code", "codex", "openhands"]);

export interface StreamedFindings {
  /** What reading and replay take: the hooks, and no shortcut that may read again. */
  readonly input: {
    readonly onFinding: (finding: ReplayedFinding) => void;
    readonly onFile: (file: string, format: InputFormat) => void;
    readonly onLiveEvent: () => void;
    readonly canReadAgain: false;
  };
  /** Whether any finding was written as it was made. */
  wroteAny(): boolean;
  /** The analysis as still to be written: without the replayed findings already written (ndjson has no summary line to keep). */
  remaining(analysis: Analysis): Analysis;
}

/** Whether `analyze`'s findings are streamed (the result cache is off then: a unit answered from it would stream none). */
export function streamsFindings(paths: readonly string[], format: string, filters: ReportFilters): boolean {
  const reportWide = filters.top !== undefined || filters.since !== undefined || filters.until !== undefined || filters.agent !== undefined;
  return format === "ndjson" && paths.length === 1 && paths[0] === "-" && !reportWide;
}

/** The streaming of `analyze`'s ndjson, when it can be exact (`streamsFindings`); undefined otherwise. */
export function streamedFindings(paths: readonly string[], format: string, filters: ReportFilters, io: Io): StreamedFindings | undefined {
  if (!streamsFindings(paths, format, filters)) return undefined;
  const keep = findingFilter(filters);
  let streaming = false;
  /** Findings written so far, by identity: the report's runs still hold them. */
  const written = new Set<ReplayedFinding>();
  return {
    input: {
      onFile: (_file, fileFormat) => void (streaming = STREAMING_FORMATS.has(fileFormat)),
      onLiveEvent: () => void (streaming = false),
      onFinding: (finding) => {
        if (!streaming) return;
        written.add(finding);
        // The format is not needed: without --agent no test reads it.
        if (keep(finding, undefined)) io.stdout(`${jsonText(publicFinding(finding))}\n`);
      },
      canReadAgain: false,
    },
    wroteAny: () => written.size > 0,
    remaining: (analysis) => {
      const runs = analysis.runs.map((run) => ({ ...run, findings: filteredList(run.findings, (finding) => !written.has(finding)) }));
      return { ...analysis, runs };
    },
  };
}
