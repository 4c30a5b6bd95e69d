/**
 * The reporters as pure functions of the report model (src/reporters/model.ts): a model built by
 * the pipeline (buildReport) from a small hand-made analysis of one replayed run and one live run
 * of the same id, and what each format makes of it. Also the comparison the pipeline computes.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/core/config.js";
import type { LiveFinding, LiveRun, ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import type { Analysis } from "../../src/pipeline/analysis.js";
import { compareReplayWithLive } from "../../src/pipeline/comparison.js";
import type { ReportModel } from "../../src/reporters/model.js";
import { configHeader, renderFormat, reportModel } from "../helpers/reportModel.js";

const config = { ...DEFAULT_CONFIG, enabled: true };

function replayed(call: number, level: ReplayedFinding["level"], afterStop = false): ReplayedFinding {
  return {
    run: "r1",
    agent: "main",
    session: "s1",
    file: "t.jsonl",
    line: 2 * call,
    call,
    tool: "process",
    detector: "known_poll_no_progress",
    level,
    count: call - 1,
    threshold: { name: level === "warning" ? "warningThreshold" : "criticalThreshold", value: level === "warning" ? 10 : 20 },
    afterStop,
    message: `${level} at ${call}`,
    argsHash: "process:abc",
  };
}

function live(call: number): LiveFinding {
  return { ...replayed(call, "warning"), file: "gw.log", line: 100 + call, threshold: { name: "warningThreshold", value: null }, source: "log", echoLines: [101 + call] };
}

const replayedRun: ReplayedRun = {
  run: "r1",
  agent: "main",
  session: "s1",
  file: "t.jsonl",
  calls: 22,
  compactions: 0,
  findings: [...Array.from({ length: 10 }, (_, i) => replayed(11 + i, "warning")), replayed(21, "critical"), replayed(22, "critical", true)],
  firstStop: { kind: "block", call: 21 },
  guardWindows: [],
  recordedVetoes: 0,
};

const liveRun: LiveRun = {
  ...replayedRun,
  file: "gw.log",
  findings: [live(9)],
  firstStop: null,
  source: "log",
  live: { started: true, ended: true, guard: { armed: 0, persisted: 0, windowsClosed: 0 } },
};

function analysis(withLog: boolean): Analysis {
  return {
    files: [{ file: "t.jsonl", format: "events" }, ...(withLog ? [{ file: "gw.log", format: "gateway-log" }] : [])],
    unusable: [],
    runs: [replayedRun],
    liveRuns: withLog ? [liveRun] : [],
    liveFindings: withLog ? [...liveRun.findings] : [],
    lines: { read: 60, used: 50, ignored: 10, skipped: 0 },
    transcript: { copies: 2, duplicates: 0, reconstructedCalls: 1 },
    diagnostics: [],
    diagnosticsTotal: 0,
  };
}

function model(withLog: boolean): ReportModel {
  return reportModel(analysis(withLog), { config: configHeader(config) });
}

/** A format's text of the analysis, with or without the Gateway log (or of `runs` alone). */
const render = (format: string, of: boolean | ReplayedRun[], verbose = false) =>
  renderFormat(format, typeof of === "boolean" ? analysis(of) : { ...analysis(false), runs: of }, { config: configHeader(config), verbose }, { color: false, width: 100 });

describe("the report model", () => {
  it("counts replayed and live runs in its summary, once", () => {
    const { summary } = model(true);
    expect(summary).toMatchObject({ files: 2, runs: 2, calls: 44, findings: { warning: 11, critical: 2, abort: 0, total: 13 } });
    expect(summary.live).toEqual({ runs: 1, findings: { warning: 1, critical: 0, abort: 0, total: 1 }, outsideRuns: 0 });
    expect(summary.transcripts).toEqual({ copiesSkipped: 2, duplicatesSkipped: 0, reconstructedCalls: 1 });
    expect(model(false).live).toBeUndefined();
  });

  it("lines the replayed run up with the live run of the same id", () => {
    const comparison = compareReplayWithLive([replayedRun], [liveRun]);
    expect(comparison.runs).toEqual(["r1"]);
    expect(comparison.rows.map((row) => [row.level, row.agreement, row.earlier, row.replay?.firstCall ?? null, row.live?.firstCall ?? null])).toEqual([
      ["warning", "both", "live", 11, 9],
      ["critical", "replay_only", null, 21, null],
    ]);
    expect(model(true).facts().comparison).toEqual(comparison);
  });
});

describe("reporters", () => {
  it("table: one collapsed row per pattern, the stop, the summary with the transcript counts", () => {
    const text = render("table", false);
    expect(text).toMatch(/11–20 +t\.jsonl:22 +process +known_poll_no_progress +warning ×10 +10–19 +warningThreshold=10/);
    expect(text).toContain("would have been blocked at call 21 under this config");
    expect(text).toMatch(/22 +t\.jsonl:44 +process .* block .* ⏹/);
    // The transcript counts in one plain line; each kind, with what it is, under --verbose.
    // (wrapped at spaces to the width of 100)
    expect(text.replace(/\s+/g, " ")).toContain(" Summary 1 file, 60 lines (50 used, 10 ignored, 0 skipped) transcripts: 2 repeated entries counted once, 1 call known only from its result (--verbose says more) 1 run,");
    expect(text).not.toContain("rewritten");
    expect(text).not.toContain("Replay vs live");
    // --verbose: one row per verdict.
    const verbose = render("table", false, true);
    expect(verbose.split("\n").filter((line) => /known_poll_no_progress/.test(line))).toHaveLength(12);
    expect(verbose).toContain(
      "\n  transcripts:\n    2 rewritten copies of earlier entries skipped (a session file that repeats its history)\n    1 call rebuilt from a tool result whose call the transcript lacks\n",
    );
    expect(verbose).not.toContain("--verbose says more");
  });

  it("table: the live section and the comparison when a Gateway log was read", () => {
    const text = render("table", true);
    expect(text).toContain("Live runs (what the runtime logged, from Gateway logs)");
    expect(text).toMatch(/Replay vs live/);
    expect(text).toMatch(/both, live first/);
    expect(text).toMatch(/replay only/);
  });

  it("json: the summary and comparison of the model, runs replayed then live", () => {
    const doc = JSON.parse(render("json", true)) as Record<string, unknown> & { runs: Array<{ source?: string }>; summary: unknown; comparison: unknown };
    expect(doc.summary).toEqual(JSON.parse(JSON.stringify(model(true).summary)));
    expect(doc.comparison).toEqual(JSON.parse(JSON.stringify(model(true).facts().comparison)));
    expect(doc.runs.map((run) => run.source ?? "replay")).toEqual(["replay", "log"]);
    expect(JSON.parse(render("json", false))).not.toHaveProperty("comparison");
  });

  it("markdown and github show the comparison too", () => {
    expect(render("markdown", true)).toMatch(/### Replay vs live[\s\S]*\| r1 \| known_poll_no_progress \| process \| block \| 21–22 ×2 \| — \| replay only \|/);
    expect(render("markdown", false)).not.toContain("Replay vs live");
    expect(render("markdown", false)).toContain("| transcripts | 2 repeated entries counted once, 1 call known only from its result (--verbose says more) |");
    expect(render("markdown", false, true)).toContain("| transcripts | 2 rewritten copies of earlier entries skipped (a session file that repeats its history); 1 call rebuilt");
    const notices = render("github", true).split("\n").filter((line) => line.startsWith("::notice"));
    expect(notices).toEqual([expect.stringMatching(/^::notice file=t\.jsonl,line=42,title=looplens replay vs live · known_poll_no_progress · block::run r1, process: replay only/)]);
  });

  it("json: the text is JSON.stringify(document, null, 2) of itself, for no run, one batch of runs and several", () => {
    // Runs are written in batches of 64 (reporters/json.ts): sizes on both sides of each edge.
    for (const count of [0, 1, 63, 64, 65, 128, 130]) {
      const runs = Array.from({ length: count }, (_, i) => ({ ...replayedRun, run: `r${i}`, findings: i % 2 === 0 ? replayedRun.findings : [] }));
      const text = renderFormat("json", { ...analysis(count % 2 === 0), runs }, { config: configHeader(config) });
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      expect((JSON.parse(text) as { runs: unknown[] }).runs).toHaveLength(count + (count % 2 === 0 ? 1 : 0));
    }
  });

  it("json: a run of many findings, written a piece of them at a time, is the same text, between other runs or alone", () => {
    // Runs of more than 1024 findings are written in pieces (reporters/json.ts): sizes on both sides.
    const many = (run: string, count: number): ReplayedRun => ({ ...replayedRun, run, findings: Array.from({ length: count }, (_, i) => ({ ...replayed(11 + i, "warning"), run, line: 100 + i })) });
    const small = (run: string): ReplayedRun => ({ ...replayedRun, run });
    for (const runs of [[many("m", 1025)], [small("a"), many("m", 2049), small("b")], [many("m", 1024), many("n", 3000), small("c")]]) {
      const text = render("json", runs);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      const doc = JSON.parse(text) as { runs: Array<{ run: string; findings: Array<{ line: number }> }> };
      expect(doc.runs.map((run) => [run.run, run.findings.length])).toEqual(runs.map((run) => [run.run, run.findings.length]));
      expect(doc.runs.map((run) => [...run.findings].map((f) => f.line))).toEqual(runs.map((run) => [...run.findings].map((f) => f.line)));
    }
  });

  it("ndjson: findings of interleaved runs come out in line order, runs that follow each other as replayed", () => {
    const at = (run: string, lines: number[]): ReplayedRun => ({ ...replayedRun, run, findings: lines.map((line, i) => ({ ...replayed(11 + i, "warning"), run, line })), firstStop: null });
    const lineOrder = (runs: ReplayedRun[]) => {
      return render("ndjson", runs).trim().split("\n").map((line) => JSON.parse(line) as { run: string; line: number }).map((f) => `${f.run}:${f.line}`);
    };
    // Run a began first but has a finding after all of b's (an events file interleaves runs).
    expect(lineOrder([at("a", [10, 40]), at("b", [20, 30])])).toEqual(["a:10", "b:20", "b:30", "a:40"]);
    // One line with two findings keeps their replay order.
    expect(lineOrder([at("a", [10, 50]), at("b", [50, 60])])).toEqual(["a:10", "a:50", "b:50", "b:60"]);
    expect(lineOrder([at("a", [10, 20]), at("b", [30, 40])])).toEqual(["a:10", "a:20", "b:30", "b:40"]);
  });

  it("ndjson: every finding once, replayed and live, in input order", () => {
    const lines = render("ndjson", true).trim().split("\n").map((line) => JSON.parse(line) as { file: string; call: number; source?: string });
    expect(lines).toHaveLength(13);
    expect(lines.filter((line) => line.source === "log").map((line) => line.call)).toEqual([9]);
  });
});
