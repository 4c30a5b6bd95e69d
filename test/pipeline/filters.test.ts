/**
 * Filters as a pure function of a finished report (src/pipeline/filters.ts): a hand-made event file
 * of runs that differ in agent, session, start time, tool and how bad their loop is, analysed and
 * built into a report, then filtered.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { filterReport, type ReportFilters } from "../../src/pipeline/filters.js";
import { buildReport } from "../../src/pipeline/report.js";
import type { ReportModel } from "../../src/reporters/model.js";
import { DEFAULT_CONFIG } from "../../src/core/config.js";
import { analyzePaths } from "../helpers/inProcess.js";
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

let report: ReportModel;

beforeAll(async () => {
  const file = join(tempDir("looplens-filters-"), "runs.jsonl");
  writeFileSync(file, `${RUNS.flatMap(events).join("\n")}\n`);
  const analysis = await analyzePaths([file]);
  const config = { effective: { ...DEFAULT_CONFIG, enabled: true }, sources: {}, notices: [], file: null, usesLooplensDefault: true, agentOverrides: [] };
  report = buildReport(analysis, config, "0.0.0");
});

const shownRuns = (filters: ReportFilters) => filterReport(report, filters).shown.replayed.map((run) => run.run);

describe("filterReport", () => {
  it("no filter: the very same report", () => {
    const { selected, shown } = filterReport(report, {});
    expect(selected).toBe(report);
    expect(shown).toBe(report);
    expect(report.summary.filtered).toBeUndefined();
  });

  it("runs carry the time of their first dated event, or null", () => {
    expect(report.replayed.map((run) => run.startedAt)).toEqual(["2026-05-01T08:00:00.000Z", "2026-05-01T09:00:00.000Z", "2026-05-02T10:00:00.000Z", "2026-05-03T10:00:00.000Z", null]);
  });

  it("--run and --session select whole runs; the summary counts only them and says what was hidden", () => {
    expect(shownRuns({ run: ["warned", "undated"] })).toEqual(["warned", "undated"]);
    const { shown } = filterReport(report, { session: ["s1"] });
    expect(shown.replayed.map((run) => run.run)).toEqual(["quiet", "warned"]);
    expect(shown.summary.runs).toBe(2);
    expect(shown.summary.calls).toBe(15);
    const kept = report.replayed.filter((run) => run.session === "s1").flatMap((run) => run.findings).length;
    expect(kept).toBeGreaterThan(0);
    expect(shown.summary.findings).toEqual({ warning: kept, critical: 0, abort: 0, total: kept });
    expect(shown.summary.filtered).toEqual({ by: { session: ["s1"] }, runsHidden: 3, runsUndated: 0, findingsHidden: report.summary.findings.total - kept });
    // What was read is not filtered: files and lines are the input's.
    expect(shown.summary.lines).toEqual(report.summary.lines);
  });

  it("--agent matches the agent id and its sub-agents (ID/…)", () => {
    expect(shownRuns({ agent: "ops" })).toEqual(["blocked-late", "blocked-early"]);
    expect(shownRuns({ agent: "ops/helper" })).toEqual(["blocked-early"]);
  });

  it("--agent matches the kind of agent by input format (canonical events are no agent's kind)", () => {
    // The input is canonical events: "openclaw" names no run here, so nothing is filtered.
    const { shown } = filterReport(report, { agent: "openclaw" });
    expect(shown.replayed).toHaveLength(5);
    expect(shown.summary.filtered?.agentMatchedNoRun).toBe(true);
    const asOpenClaw = { ...report, files: report.files.map((f) => ({ ...f, format: "openclaw-session" })) };
    expect(filterReport(asOpenClaw, { agent: "openclaw" }).shown.replayed).toHaveLength(5);
    expect(filterReport(asOpenClaw, { agent: "openclaw" }).shown.summary.filtered?.agentMatchedNoRun).toBeUndefined();
    expect(filterReport(asOpenClaw, { agent: "codex" }).shown.summary.filtered?.agentMatchedNoRun).toBe(true);
  });

  it("--agent with no run of that agent hides nothing (a what-if under its override), and says so", () => {
    const { shown } = filterReport(report, { agent: "nobody" });
    expect(shown.replayed).toHaveLength(5);
    expect(shown.summary.filtered).toMatchObject({ runsHidden: 0, findingsHidden: 0, agentMatchedNoRun: true });
  });

  it("--tool and --detector keep matching findings; their runs stay, counted", () => {
    const { shown } = filterReport(report, { tool: ["grep", "exec_x"] });
    expect(shown.replayed).toHaveLength(5);
    expect(shown.replayed.flatMap((run) => run.findings).every((f) => f.tool === "grep" || f.tool === "exec_x")).toBe(true);
    expect(shown.summary.runsWith).toEqual({ warning: 2, critical: 2, abort: 0 });
    expect(filterReport(report, { detector: ["ping_pong"] }).shown.summary.findings.total).toBe(0);
    expect(filterReport(report, { detector: ["generic_repeat"] }).shown.summary.findings.total).toBe(report.summary.findings.total);
  });

  it("--since/--until select by start time (inclusive); runs without a time are left out and counted", () => {
    expect(shownRuns({ since: "2026-05-02T00:00:00.000Z" })).toEqual(["blocked-late", "blocked-early"]);
    expect(shownRuns({ until: "2026-05-01T09:00:00.000Z" })).toEqual(["quiet", "warned"]);
    expect(shownRuns({ since: "2026-05-01T09:00:00.000Z", until: "2026-05-02T10:00:00.000Z" })).toEqual(["warned", "blocked-late"]);
    expect(filterReport(report, { since: "2000-01-01T00:00:00.000Z" }).shown.summary.filtered).toMatchObject({ runsHidden: 1, runsUndated: 1 });
  });

  it("--top N lists the worst runs first (blocks before warnings, earlier stop first, then more findings); the summary counts all selected", () => {
    const { shown, selected } = filterReport(report, { top: 3 });
    // blocked-early stops at call 21 (its 21st identical call), blocked-late too but has more findings.
    expect(shown.replayed.map((run) => run.run)).toEqual(["blocked-late", "blocked-early", "warned"]);
    expect(shown.summary.runs).toBe(5);
    expect(shown.summary.filtered?.listed).toEqual({ runs: 3, of: 5 });
    expect(selected.replayed).toHaveLength(5);
    expect(filterReport(report, { top: 1, agent: "main" }).shown.replayed.map((run) => run.run)).toEqual(["warned"]);
  });
});
