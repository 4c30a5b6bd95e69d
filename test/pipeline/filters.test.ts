/**
 * Filters as the report model applies them (src/pipeline/filters.ts, report.ts): a hand-made event file
 * of runs that differ in agent, session, start time, tool and how bad their loop is, analysed and
 * built into a report under each set of filters.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReportFilters } from "../../src/pipeline/filters.js";
import type { Analysis } from "../../src/pipeline/analysis.js";
import type { ReportModel } from "../../src/reporters/model.js";
import { analyzePaths } from "../helpers/inProcess.js";
import { reportModel, shownRuns } from "../helpers/reportModel.js";
import { tempDir } from "../helpers/tempDir.js";

interface RunSpec {
  readonly run: string;
  readonly agent: string;
  readonly session: string;
  /** Start time of the run (`ts` of its first event); none: the input dates nothing. */
  readonly ts?: string;
  readonly tool: string;
  /** Identical calls: 10+ warn, 20+ block (generic_repeat). */
  readonly calls: number;
}

const RUNS: RunSpec[] = [
  { run: "quiet", agent: "main", session: "s1", ts: "2026-05-01T08:00:00Z", tool: "read", calls: 3 },
  { run: "warned", agent: "main", session: "s1", ts: "2026-05-01T09:00:00Z", tool: "read", calls: 12 },
  { run: "blocked-late", agent: "ops", session: "s2", ts: "2026-05-02T10:00:00Z", tool: "exec_x", calls: 24 },
  { run: "blocked-early", agent: "ops/helper", session: "s3", ts: "2026-05-03T10:00:00Z", tool: "grep", calls: 21 },
  { run: "undated", agent: "main", session: "s4", tool: "read", calls: 11 },
];

function events(spec: RunSpec): string[] {
  const base = { run: spec.run, agent: spec.agent, session: spec.session };
  const lines: object[] = [{ type: "run_start", ...base, ...(spec.ts !== undefined && { ts: spec.ts }) }];
  for (let i = 0; i < spec.calls; i++) {
    lines.push({ type: "tool_call", ...base, id: `${spec.run}-${i}`, tool: spec.tool, args: { same: true } });
    lines.push({ type: "tool_result", ...base, id: `${spec.run}-${i}`, tool: spec.tool, result: { content: [{ type: "text", text: "same" }] } });
  }
  return lines.map((line) => JSON.stringify(line));
}

let analysis: Analysis;
let report: ReportModel;

beforeAll(async () => {
  const file = join(tempDir("looplens-filters-"), "runs.jsonl");
  writeFileSync(file, `${RUNS.flatMap(events).join("\n")}\n`);
  analysis = await analyzePaths([file]);
  report = reportModel(analysis);
});

/** The report under these filters (of `from`, the analysis of RUNS by default). */
const filtered = (filters: ReportFilters, from: Analysis = analysis) => reportModel(from, { filters, failOn: "warning" });
const runIds = (filters: ReportFilters) => shownRuns(filtered(filters)).map((run) => run.run);

describe("filters", () => {
  it("no filter: every run, and no word of filters", () => {
    expect(shownRuns(filtered({}))).toEqual(shownRuns(report));
    expect(filtered({}).summary).toEqual(report.summary);
    expect(report.summary.filtered).toBeUndefined();
  });

  it("runs carry the time of their first dated event, or null", () => {
    expect(shownRuns(report).map((run) => run.startedAt)).toEqual(["2026-05-01T08:00:00.000Z", "2026-05-01T09:00:00.000Z", "2026-05-02T10:00:00.000Z", "2026-05-03T10:00:00.000Z", null]);
  });

  it("--run and --session select whole runs; the summary counts only them and says what was hidden", () => {
    expect(runIds({ run: ["warned", "undated"] })).toEqual(["warned", "undated"]);
    const shown = filtered({ session: ["s1"] });
    expect(shownRuns(shown).map((run) => run.run)).toEqual(["quiet", "warned"]);
    expect(shown.summary.runs).toBe(2);
    expect(shown.summary.calls).toBe(15);
    const kept = shownRuns(report).filter((run) => run.session === "s1").flatMap((run) => [...run.findings]).length;
    expect(kept).toBeGreaterThan(0);
    expect(shown.summary.findings).toEqual({ warning: kept, critical: 0, abort: 0, total: kept });
    expect(shown.summary.filtered).toEqual({ by: { session: ["s1"] }, runsHidden: 3, runsUndated: 0, findingsHidden: report.summary.findings.total - kept });
    // What was read is not filtered: files and lines are the input's.
    expect(shown.summary.lines).toEqual(report.summary.lines);
  });

  it("--agent matches the agent id and its sub-agents (ID/…)", () => {
    expect(runIds({ agent: "ops" })).toEqual(["blocked-late", "blocked-early"]);
    expect(runIds({ agent: "ops/helper" })).toEqual(["blocked-early"]);
  });

  it("--agent matches the kind of agent by input format (canonical events are no agent's kind)", () => {
    // The input is canonical events: "openclaw" names no run here, so nothing is filtered.
    const shown = filtered({ agent: "openclaw" });
    expect(shownRuns(shown)).toHaveLength(5);
    expect(shown.summary.filtered?.agentMatchedNoRun).toBe(true);
    const asOpenClaw = { ...analysis, files: analysis.files.map((f) => ({ ...f, format: "openclaw-session" })) };
    expect(shownRuns(filtered({ agent: "openclaw" }, asOpenClaw))).toHaveLength(5);
    expect(filtered({ agent: "openclaw" }, asOpenClaw).summary.filtered?.agentMatchedNoRun).toBeUndefined();
    expect(filtered({ agent: "codex" }, asOpenClaw).summary.filtered?.agentMatchedNoRun).toBe(true);
  });

  it("--agent with no run of that agent hides nothing (a what-if under its override), and says so", () => {
    const shown = filtered({ agent: "nobody" });
    expect(shownRuns(shown)).toHaveLength(5);
    expect(shown.summary.filtered).toMatchObject({ runsHidden: 0, findingsHidden: 0, agentMatchedNoRun: true });
  });

  it("--tool and --detector keep matching findings; their runs stay, counted", () => {
    const shown = filtered({ tool: ["grep", "exec_x"] });
    expect(shownRuns(shown)).toHaveLength(5);
    expect(shownRuns(shown).flatMap((run) => [...run.findings]).every((f) => f.tool === "grep" || f.tool === "exec_x")).toBe(true);
    expect(shown.summary.runsWith).toEqual({ warning: 2, critical: 2, abort: 0 });
    expect(filtered({ detector: ["ping_pong"] }).summary.findings.total).toBe(0);
    expect(filtered({ detector: ["generic_repeat"] }).summary.findings.total).toBe(report.summary.findings.total);
  });

  it("--since/--until select by start time (inclusive); runs without a time are left out and counted", () => {
    expect(runIds({ since: "2026-05-02T00:00:00.000Z" })).toEqual(["blocked-late", "blocked-early"]);
    expect(runIds({ until: "2026-05-01T09:00:00.000Z" })).toEqual(["quiet", "warned"]);
    expect(runIds({ since: "2026-05-01T09:00:00.000Z", until: "2026-05-02T10:00:00.000Z" })).toEqual(["warned", "blocked-late"]);
    expect(filtered({ since: "2000-01-01T00:00:00.000Z" }).summary.filtered).toMatchObject({ runsHidden: 1, runsUndated: 1 });
  });

  it("--top N lists the worst runs first (blocks before warnings, earlier stop first, then more findings); the summary counts all selected", () => {
    const shown = filtered({ top: 3 });
    // blocked-early stops at call 21 (its 21st identical call), blocked-late too but has more findings.
    expect(shownRuns(shown).map((run) => run.run)).toEqual(["blocked-late", "blocked-early", "warned"]);
    expect(shown.summary.runs).toBe(5);
    expect(shown.summary.filtered?.listed).toEqual({ runs: 3, of: 5 });
    // `--fail-on` judges every run selected, not only those listed.
    const failing = shownRuns(report).filter((run) => run.findings.length > 0).length;
    expect(failing).toBeGreaterThan(3);
    expect(shown.facts().gate.failing.runs).toBe(failing);
    expect(shownRuns(filtered({ top: 1, agent: "main" })).map((run) => run.run)).toEqual(["warned"]);
  });
});
