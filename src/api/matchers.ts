/**
 * Test matchers over transcripts, for vitest (`import "looplens/vitest"`) and jest
 * (`expect.extend(loopMatchers)`): the received value is what `analyze` takes (a fixture path,
 * paths, lines, events). Framework-free: they use only `this.isNot`, so this module needs neither.
 */
import { analyze } from "./analyze.js";
import { format } from "./format.js";
import type { AnalyzeInput, AnalyzeOptions, DetectorName, Finding, FindingLevel, LevelThreshold, Report } from "./types.js";

export interface NoLoopFindingsOptions extends AnalyzeOptions {
  /** Findings below this level do not count (default: warning, so every finding counts). */
  readonly atOrAbove?: LevelThreshold;
}

/** What a finding must be to match; fields left out match any. */
export interface LoopFindingQuery {
  readonly detector?: DetectorName;
  /** Exactly this level (`block` is `critical`). */
  readonly level?: LevelThreshold;
  /** The call ordinal in its run. */
  readonly call?: number;
  readonly tool?: string;
  readonly run?: string;
}

export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

const RANK: Readonly<Record<FindingLevel, number>> = { warning: 1, critical: 2, abort: 3 };
const levelOf = (threshold: LevelThreshold): FindingLevel => (threshold === "block" ? "critical" : threshold);

/** Every finding of a report once: its runs', then the live ones logged while no run was open. */
export function reportFindings(report: Report): Finding[] {
  return [...report.runs.flatMap((run) => run.findings), ...(report.liveFindings ?? []).filter((finding) => finding.run === null)];
}

function describe(received: unknown): string {
  if (typeof received === "string") return JSON.stringify(received);
  if (Array.isArray(received) && received.every((item) => typeof item === "string")) return JSON.stringify(received);
  return "the input";
}

/** The findings table as `looplens analyze` prints it, without colour, wide enough not to cut much. */
function table(report: Report): string {
  return format(report, "table", { color: false, width: 120 });
}

function matches(finding: Finding, query: LoopFindingQuery): boolean {
  return (
    (query.detector === undefined || finding.detector === query.detector) &&
    (query.level === undefined || finding.level === levelOf(query.level)) &&
    (query.call === undefined || finding.call === query.call) &&
    (query.tool === undefined || finding.tool === query.tool) &&
    (query.run === undefined || finding.run === query.run)
  );
}

export const loopMatchers = {
  async toHaveNoLoopFindings(this: { readonly isNot?: boolean }, received: AnalyzeInput, options: NoLoopFindingsOptions = {}): Promise<MatcherResult> {
    const { atOrAbove = "warning", ...analyzeOptions } = options;
    const report = await analyze(received, analyzeOptions);
    const floor = RANK[levelOf(atOrAbove)];
    const found = reportFindings(report).filter((finding) => RANK[finding.level] >= floor);
    const pass = found.length === 0;
    const what = `${describe(received)} to have ${this.isNot ? "" : "no "}loop findings at or above ${atOrAbove}`;
    return { pass, message: () => `expected ${what}, but it has ${found.length}:\n\n${table(report)}` };
  },

  async toHaveLoopFinding(this: { readonly isNot?: boolean }, received: AnalyzeInput, query: LoopFindingQuery, options: AnalyzeOptions = {}): Promise<MatcherResult> {
    const report = await analyze(received, options);
    const found = reportFindings(report).filter((finding) => matches(finding, query));
    const what = `${describe(received)} ${this.isNot ? "not " : ""}to have a loop finding ${JSON.stringify(query)}`;
    return { pass: found.length > 0, message: () => `expected ${what}, but it has ${found.length} such; its report:\n\n${table(report)}` };
  },
};
