/**
 * The filter flags (cli.md "Selecting and writing") and their parsing into `ReportFilters`
 * (pipeline/filters.ts). Times are read here, in the command: `--since 2h` is two hours before now,
 * and the pipeline only ever sees ISO dates.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { DETECTOR_NAMES } from "../core/detectorInfo.js";
import type { DetectorName } from "../core/detectors.js";
import { RUN_ORDERS, type RunOrder } from "../core/worstFirst.js";
import { AGENT_KINDS, type ReportFilters } from "../pipeline/filters.js";

export interface FilterOptions {
  run?: string[];
  session?: string[];
  agent?: string;
  tool?: string[];
  detector?: DetectorName[];
  since?: string;
  until?: string;
  top?: number;
  sort?: RunOrder;
}

/** Repeatable and comma-separated: `--run a,b --run c` is three runs. */
export const listOption = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== ""),
];

const detectorList = (value: string, previous: DetectorName[] = []) => {
  const names = listOption(value);
  const unknown = names.filter((name) => !DETECTOR_NAMES.includes(name as DetectorName));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown detector ${unknown.map((n) => JSON.stringify(n)).join(", ")} (detectors: ${DETECTOR_NAMES.join(", ")}).`);
  return [...previous, ...(names as DetectorName[])];
};

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`/`--until` values: a duration back from now (`90m`, `2h`, `3d`, `1w`; units s m h d w,
 * combinable as `1d12h`) or a date (`2026-05-01`, midnight UTC, or any ISO date-time).
 */
export function parseTime(value: string, now: Date): string {
  const text = value.trim();
  if (isRelativeTime(text)) {
    let ms = 0;
    for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit!]!;
    return new Date(now.getTime() - ms).toISOString();
  }
  // A date, not any string Date.parse accepts: "5" or "May" would be surprising dates.
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return new Date(at).toISOString();
  }
  throw new InvalidArgumentError("expected a duration back from now (30m, 2h, 3d, 1w) or an ISO date (2026-05-01, 2026-05-01T12:00Z).");
}

/** Whether `--since`/`--until` was given as a duration back from now (its date moves with every run). */
export function isRelativeTime(value: string | undefined): boolean {
  return value !== undefined && /^(\d+(\.\d+)?[smhdw])+$/.test(value.trim());
}

/** Checks the form when the flag is read; the value is turned into a date against the command's clock. */
const timeForm = (value: string) => {
  parseTime(value, new Date(0));
  return value;
};

const topCount = (value: string) => {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError("expected a whole number of runs, 1 or more.");
  return Number(value);
};

/** Run filters (all commands that read runs); `findings`: also the finding filters and `--top`. */
export function addFilterOptions(command: Command, what: { findings: boolean }): Command {
  command
    .option("--run <ids>", "only these runs (repeatable, or comma-separated)", listOption)
    .option("--session <ids>", "only the runs of these sessions (repeatable, or comma-separated)", listOption)
    .option("--since <when>", "only runs started at or after this: a duration back from now (30m, 2h, 3d, 1w) or an ISO date; runs whose input records no time are left out", timeForm)
    .option("--until <when>", "only runs started at or before this (same forms as --since)", timeForm);
  if (!what.findings) return command;
  return command
    .option("--tool <names>", "only findings of these tools (repeatable, or comma-separated)", listOption)
    .addOption(new Option("--detector <names>", "only findings of these detectors (repeatable, or comma-separated)").choices(DETECTOR_NAMES).argParser(detectorList))
    .option("--top <n>", "list only the N worst runs, worst first: aborts before blocks before warnings, then the earliest first stop, then the most findings (the summary still counts every selected run)", topCount)
    .addOption(new Option("--sort <order>", "order of the worst-runs list and --top: stops (worst first), tokens or cost (the runs that spent most first; runs that recorded none last)").choices(RUN_ORDERS).default("stops"));
}

/** The help text of `--agent` on the commands that filter by it. */
export const AGENT_FILTER_HELP = `apply this agent's loopDetection override to every run, and show only the runs of this agent (its id, ID/… sub-agents, or the kind: ${AGENT_KINDS.join(", ")}); when no run is this agent's, every run is shown, replayed under its override`;

/** Parses the filter flags; `now` is the command's clock (passed in so tests can fix it). */
export function reportFilters(options: FilterOptions, now: Date): ReportFilters {
  const since = options.since === undefined ? undefined : parseTime(options.since, now);
  const until = options.until === undefined ? undefined : parseTime(options.until, now);
  return {
    ...(options.run !== undefined && { run: options.run }),
    ...(options.session !== undefined && { session: options.session }),
    ...(options.agent !== undefined && { agent: options.agent }),
    ...(options.tool !== undefined && { tool: options.tool }),
    ...(options.detector !== undefined && { detector: options.detector }),
    ...(since !== undefined && { since }),
    ...(until !== undefined && { until }),
    ...(options.top !== undefined && { top: options.top }),
  };
}
