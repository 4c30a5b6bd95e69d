/** The library's report filters, read as the CLI reads `--run`, `--since`, … (commands/filterOptions.ts). */
import { InvalidArgumentError } from "commander";
import { parseTime, reportFilters } from "../commands/filterOptions.js";
import { UsageError } from "../pipeline/errors.js";
import type { ReportFilters } from "../reporters/model.js";
import type { ReportFilterOptions } from "./types.js";

/** `agent` filters runs too, as `--agent` does on `analyze`; a bad value is a UsageError naming its field. */
export function apiFilters(filters: ReportFilterOptions = {}, agent: string | undefined, now: Date): ReportFilters {
  if (filters.top !== undefined && (!Number.isSafeInteger(filters.top) || filters.top < 1)) throw new UsageError("filters.top: expected a whole number of runs, 1 or more.");
  return reportFilters(
    {
      ...(filters.run && { run: [...filters.run] }),
      ...(filters.session && { session: [...filters.session] }),
      ...(filters.tool && { tool: [...filters.tool] }),
      ...(filters.detector && { detector: [...filters.detector] }),
      ...(filters.since !== undefined && { since: timeOf("since", filters.since, now) }),
      ...(filters.until !== undefined && { until: timeOf("until", filters.until, now) }),
      ...(filters.top !== undefined && { top: filters.top }),
      ...(agent !== undefined && { agent }),
    },
    now,
  );
}

/** The ISO date of a `since`/`until` value (reportFilters reads it back unchanged). */
function timeOf(field: "since" | "until", value: string, now: Date): string {
  try {
    return parseTime(value, now);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(`filters.${field}: ${error.message}`);
    throw error;
  }
}
