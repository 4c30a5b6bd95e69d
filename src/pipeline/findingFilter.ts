/**
 * The filters as a test of one finding at a time, for outputs that write findings as they are made
 * (`looplens watch`, `analyze -` streaming ndjson), where no whole report is there to filter: a
 * finding passes when its run passes `--run`, `--session` and `--agent` (filters.ts
 * `streamedRunTests`: the run's own id, session and agent, or the kind of agent that recorded its
 * file) and it passes `--tool` and `--detector`. The report-wide selections (`--top`, `--since`,
 * `--until`, and `--agent`'s "no run is this agent's: show every run") need the whole input.
 */
import type { InputFormat } from "../adapters/adapter.js";
import type { Finding } from "../core/findings.js";
import { streamedRunTests, type ReportFilters } from "./filters.js";

export type FindingFilter = (finding: Finding, format: InputFormat | undefined) => boolean;

export function findingFilter(filters: Pick<ReportFilters, "run" | "session" | "agent" | "tool" | "detector">): FindingFilter {
  let format: InputFormat | undefined;
  const runs = streamedRunTests(filters, () => format);
  const tools = filters.tool !== undefined && filters.tool.length > 0 ? new Set(filters.tool) : undefined;
  const detectors = filters.detector !== undefined && filters.detector.length > 0 ? new Set<string>(filters.detector) : undefined;
  return (finding, fileFormat) => {
    format = fileFormat;
    if (tools && !tools.has(finding.tool)) return false;
    if (detectors && !detectors.has(finding.detector)) return false;
    return runs.others(finding) && (runs.agent === undefined || runs.agent(finding));
  };
}
