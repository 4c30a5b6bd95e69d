/**
 * `--since`/`--until` on a warm cache (watch.md §2 "Where"): a unit whose cached runs all started
 * outside the window is not read back. Its entry's summary keeps the start times of its runs as a
 * range (`RunTimes`), and a hit whose range lies outside the window gives its runs as counts only
 * (`OutsideRuns`): the report counts them among the runs the filters hid, as it would have counted
 * them one by one (filters.ts `RunSelection`), and shows none of them.
 *
 * A run is in the window when its start time, as `Date.parse` reads it, is (filters.ts `inWindow`):
 * a run without one, or with one that does not parse, never is. So the range is over the runs whose
 * time parses; the others are only counted (the undated ones, which the summary counts apart).
 */
import type { ReplayedRun } from "../../core/findings.js";
import type { ReportFilters } from "../../reporters/model.js";
import { addRunLevels, type RunLevelCounts } from "../levelCounts.js";

/** The window in ms since the epoch (inclusive); an end not given is open. */
export interface RunWindow {
  readonly since?: number;
  readonly until?: number;
}

/** When a unit's runs started: the earliest and latest time that parses (null: none does), and the runs without one. */
export interface RunTimes {
  readonly from: number | null;
  readonly to: number | null;
  readonly undated: number;
}

/** A unit's runs that were not read back, as the summary and the filters count them. */
export interface OutsideRuns {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly counts: RunLevelCounts;
  readonly undated: number;
}

/** The start times of runs, gathered one run at a time. */
export class RunTimesTally {
  private from: number | null = null;
  private to: number | null = null;
  private undated = 0;

  add(run: Pick<ReplayedRun, "startedAt">): void {
    const started = run.startedAt ?? null;
    if (started === null) {
      this.undated++;
      return;
    }
    const at = Date.parse(started);
    if (Number.isNaN(at)) return;
    if (this.from === null || at < this.from) this.from = at;
    if (this.to === null || at > this.to) this.to = at;
  }

  finish(): RunTimes {
    return { from: this.from, to: this.to, undated: this.undated };
  }
}

/**
 * The window of the filters, when units may be left unread for it: only `--since`/`--until` decide,
 * so not with `--agent` (whether it matches any run needs every run: filters.ts `runTests`).
 * `readsRuns`: something else reads every run (the config header of agent overrides).
 */
export function skipWindow(filters: ReportFilters, readsRuns: boolean): RunWindow | undefined {
  if ((filters.since === undefined && filters.until === undefined) || filters.agent !== undefined || readsRuns) return undefined;
  return {
    ...(filters.since !== undefined && { since: Date.parse(filters.since) }),
    ...(filters.until !== undefined && { until: Date.parse(filters.until) }),
  };
}

const isTime = (value: unknown): value is number | null => value === null || (typeof value === "number" && Number.isFinite(value));

/** Whether no run of these times is in the window (times of an entry that does not have them, as written by an older build: false). */
export function allOutside(times: RunTimes | undefined, window: RunWindow): boolean {
  if (times === undefined || !isTime(times.from) || !isTime(times.to) || typeof times.undated !== "number") return false;
  if (times.from === null || times.to === null) return true;
  return (window.since !== undefined && times.to < window.since) || (window.until !== undefined && times.from > window.until);
}

/** Two units' runs left unread, together. */
export function addOutside(sum: OutsideRuns | undefined, more: OutsideRuns): OutsideRuns {
  if (sum === undefined) return more;
  return {
    runs: sum.runs + more.runs,
    calls: sum.calls + more.calls,
    compactions: sum.compactions + more.compactions,
    counts: addRunLevels(sum.counts, more.counts),
    undated: sum.undated + more.undated,
  };
}
