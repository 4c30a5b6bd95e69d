/** Gateway logs through the real CLI: live findings, attribution, echoes, accounting, bad lines. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ndjsonFindings, runCli } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tempDir.js";

const SAMPLE = "fixtures/gateway/openclaw-2026-05-02.log";
const DAY = "fixtures/gateway/openclaw-2026-05-03.log";
const EDGES = "test/data/gateway/edge-cases.log";

type Json = Record<string, any>;

function analyzeJson(...args: string[]): { doc: Json; stderr: string } {
  const result = runCli(["analyze", ...args, "--format", "json"]);
  expect(result.status).toBe(0);
  return { doc: JSON.parse(result.stdout) as Json, stderr: result.stderr };
}

/** [run, line, call, tool, detector, level, count, afterStop] of each finding. */
const rows = (findings: Json[]) => findings.map((f) => [f.run, f.line, f.call, f.tool, f.detector, f.level, f.count, f.afterStop]);

describe("the sample Gateway log (one run)", () => {
  it("is detected as a Gateway log and yields its polling warning, the hook echo merged", () => {
    const result = runCli(["analyze", SAMPLE, "--format", "ndjson", "--fail-on", "block"]);
    expect(result.status).toBe(0); // a warning does not meet --fail-on block
    expect(result.stderr).toBe("");
    expect(ndjsonFindings(result.stdout)).toEqual([
      {
        run: "7c1e-run",
        agent: null,
        session: "5b0c7e1a",
        file: SAMPLE,
        line: 25,
        call: 11,
        tool: "command_status",
        detector: "known_poll_no_progress",
        level: "warning",
        count: 10,
        threshold: { name: "warningThreshold", value: null },
        afterStop: false,
        message: "Polling loop warning: command_status repeated 10 times",
        source: "log",
      },
    ]);
  });

  it("counts the run's tool starts, its compaction and its guard lines", () => {
    const { doc } = analyzeJson(SAMPLE);
    expect(doc.runs).toHaveLength(1);
    expect(doc.runs[0]).toMatchObject({
      run: "7c1e-run",
      source: "log",
      calls: 12,
      compactions: 1,
      live: { started: true, ended: true, guard: { armed: 1, persisted: 0, windowsClosed: 1 } },
    });
    expect(doc.summary.lines).toEqual({ read: 32, used: 20, ignored: 12, skipped: 0 }); // the overflow line is used
  });
});

describe("a day of Gateway log: concurrent runs, echoes, compactions, guard lines, noise", () => {
  let doc: Json;
  let stderr: string;
  beforeAll(() => ({ doc, stderr } = analyzeJson(DAY)));

  it("every detector event exactly once, attributed to its run (echo lines merged, not counted)", () => {
    expect(rows(doc.liveFindings)).toEqual([
      ["run-alpha", 49, 11, "process", "known_poll_no_progress", "warning", 10, false],
      ["run-bravo", 52, 11, "read", "generic_repeat", "warning", 10, false],
      ["run-alpha", 104, 21, "process", "known_poll_no_progress", "critical", 20, false],
      ["run-charlie", 109, 11, "browser", "unknown_tool_repeat", "critical", 10, false],
      ["run-alpha", 112, 22, "process", "known_poll_no_progress", "critical", 20, true],
      ["run-delta", 137, 8, "exec", "compaction_loop_persisted", "abort", 3, false],
      ["run-echo", 162, 10, "exec", "ping_pong", "warning", 10, false],
      ["run-foxtrot", 179, null, "gateway_status", "global_circuit_breaker", "critical", 30, false],
      [null, 183, null, "exec", "generic_repeat", "critical", 20, false],
    ]);
    expect(doc.summary.live).toEqual({ runs: 6, findings: { warning: 3, critical: 5, abort: 1, total: 9 }, outsideRuns: 1 });
  });

  it("live runs carry tool starts, compactions and guard lines, with session and agent from the log", () => {
    const live = doc.runs.filter((r: Json) => r.source === "log");
    expect(live.map((r: Json) => [r.run, r.agent, r.session, r.calls, r.compactions, r.live.guard, r.findings.length])).toEqual([
      ["run-alpha", "main", "sess-alpha", 22, 0, { armed: 0, persisted: 0, windowsClosed: 0 }, 3],
      ["run-bravo", "ops", "sess-bravo", 12, 0, { armed: 0, persisted: 0, windowsClosed: 0 }, 1],
      ["run-charlie", "main", "sess-charlie", 11, 0, { armed: 0, persisted: 0, windowsClosed: 0 }, 1],
      ["run-delta", "main", "sess-delta", 8, 1, { armed: 1, persisted: 1, windowsClosed: 0 }, 1],
      ["run-echo", "main", "sess-echo", 13, 1, { armed: 1, persisted: 0, windowsClosed: 1 }, 1],
      ["run-foxtrot", "ops", "sess-foxtrot", 3, 0, { armed: 0, persisted: 0, windowsClosed: 0 }, 1],
    ]);
  });

  it("accounts for every line; bad lines are reported and skipped", () => {
    expect(doc.summary.lines).toEqual({ read: 185, used: 119, ignored: 64, skipped: 2 }); // 11 `[tools] T failed` lines and an overflow used
    expect(doc.diagnostics).toEqual([
      { file: DAY, line: 27, reason: "not valid JSON" },
      { file: DAY, line: 116, reason: "not valid JSON" },
    ]);
    expect(stderr).toBe(`${DAY}:27: not valid JSON\n${DAY}:116: not valid JSON\n`);
  });

  it("`looplens events` prints the live events; read back, they give the same live findings", () => {
    const printed = runCli(["events", DAY, "--quiet"]);
    expect(printed.status).toBe(0);
    const events = ndjsonFindings(printed.stdout);
    expect(events.filter((e) => e.type === "live_marker" && e.marker === "tool_start")).toHaveLength(69);
    expect(events.find((e) => e.type === "live_finding" && e.line === 49)).toMatchObject({
      run: "run-alpha",
      call: 11,
      tool: "process",
      detector: "known_poll_no_progress",
      level: "warning",
      count: 10,
      echoLines: [51, 53],
    });
    const file = join(tempDir("looplens-"), "live.jsonl");
    writeFileSync(file, printed.stdout);
    const original = doc;
    const replayed = analyzeJson(file).doc;
    const key = (f: Json) => [f.run, f.call, f.tool, f.detector, f.level, f.count, f.afterStop, f.message];
    expect(replayed.liveFindings.map(key)).toEqual(original.liveFindings.map(key));
    expect(replayed.runs.map((r: Json) => [r.run, r.calls, r.compactions, r.live])).toEqual(original.runs.map((r: Json) => [r.run, r.calls, r.compactions, r.live]));
  });

  it("the table has a live section per run and the findings outside any run", () => {
    const table = runCli(["analyze", DAY, "--quiet"]).stdout;
    expect(table).toContain("Live runs (what the runtime logged, from Gateway logs)");
    expect(table).toMatch(/live run run-delta · agent main · session sess-delta\n  .* · 8 tool starts · 1 compaction · guard armed 1, persisted 1/);
    expect(table).toMatch(/\n 11 +49 +process +known_poll_no_progress +warning +10 +51,53\n/);
    expect(table).toContain("Live findings outside any run (logged while no run was open)");
    expect(table).toMatch(/\n 183 +exec +generic_repeat +block +20 +184\n/);
    expect(table).toContain("of which from Gateway logs: 6 live runs, 9 live findings, 1 outside any run");
  });
});

describe("edge cases: no tool starts, near misses, echoes of nothing, bad lines", () => {
  let doc: Json;
  // --strict: skipped lines make the exit status 2, and an input that ends in exit 2 prints no
  // report; the report is read without it.
  beforeAll(() => {
    const strict = runCli(["analyze", EDGES, "--quiet", "--strict", "--format", "json"]);
    expect([strict.status, strict.stdout]).toEqual([2, ""]);
    ({ doc } = analyzeJson(EDGES, "--quiet"));
  });

  it("only exact template lines become findings; repeated blocks with the same count stay apart", () => {
    expect(rows(doc.liveFindings)).toEqual([
      ["run-info", 3, null, "exec", "generic_repeat", "critical", 20, false],
      ["run-info", 5, null, "exec", "generic_repeat", "critical", 20, true],
      ["run-info", 8, null, "web_search", "generic_repeat", "warning", 10, true],
      ["run-info", 9, null, "exec", "ping_pong", "critical", 20, true],
      ["run-info", 11, null, "read", "generic_repeat", "warning", 10, true],
      ["run-info", 28, null, "exec", "global_circuit_breaker", "critical", 30, true],
      [null, 30, null, "browser", "unknown_tool_repeat", "critical", 10, false],
    ]);
  });

  it("near misses, other formats and broken lines are skipped with a reason; echoes of nothing are ignored with a note", () => {
    expect(doc.summary.lines).toEqual({ read: 31, used: 14, ignored: 4, skipped: 13 }); // line 23, `[tools] exec failed`, is used
    const reasons = new Map<number, string>(doc.diagnostics.map((d: Json) => [d.line, d.reason]));
    for (let line = 12; line <= 20; line++) expect(reasons.get(line)).toMatch(/^near miss: message resembles ".*"/);
    expect(reasons.get(17)).toContain('is logged by subsystem "gateway", not agents/loop-detection');
    expect(reasons.get(21)).toMatch(/^echo of a loop event not logged before it/);
    expect(reasons.get(22)).toMatch(/^hook loop message not recognised/);
    expect(reasons.get(24)).toBe('not a Gateway log line (no "_meta" object)');
    expect(reasons.get(25)).toBe('"0" is a binding without a subsystem name');
    expect(reasons.get(26)).toBe('subsystem "agents/tools" line without a message');
    expect(reasons.get(31)).toBe("truncated last line (not valid JSON)");
  });
});

describe("input handling", () => {
  it("standard input with --input-format gateway-log, and --fail-on counts live blocks", () => {
    const result = runCli(["analyze", "-", "--input-format", "gateway-log", "-f", "ndjson", "--fail-on", "block"], { input: readFileSync(DAY) });
    expect(result.status).toBe(1);
    expect(ndjsonFindings(result.stdout).map((f) => [f.file, f.line])).toContainEqual(["-", 183]);
  });
});
