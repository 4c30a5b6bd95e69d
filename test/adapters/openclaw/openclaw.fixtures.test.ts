/** The OpenClaw fixtures (session transcripts, trajectories) through the real CLI, with exact findings. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";
import { openclawFixtures } from "../../helpers/openclawFixtures.js";
import { expectLinesAddUp, findingRows, jsonReport, type FindingRow } from "../../helpers/report.js";

type Row = FindingRow;

/** One analysis of a fixture: its findings (each naming the fixture), runs and line counts. */
function analyze(path: string, ...extra: string[]) {
  const { report, stderr } = jsonReport([path, ...extra]);
  expect(stderr).toBe("");
  expectLinesAddUp(report);
  for (const run of report.runs) expect(run.file).toBe(path);
  return {
    rows: findingRows(report),
    runs: report.runs,
    lines: report.summary.lines,
    agents: new Set(report.runs.map((r) => r.agent)),
    sessions: new Set(report.runs.map((r) => r.session)),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const fixture = (name: string) => openclawFixtures().find((f) => f.path.includes(name))!.path;

describe("fixtures/openclaw", () => {
  it("the committed fixtures are what test/helpers/openclawFixtures.ts writes (UPDATE_FIXTURES=1 rewrites them)", () => {
    for (const { path, text } of openclawFixtures()) {
      const target = join(ROOT, path);
      if (process.env.UPDATE_FIXTURES === "1") {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
      expect(readFileSync(target, "utf8"), path).toBe(text);
    }
  });

  it("poll with veto: warnings from the 11th identical poll, a block at the 21st (really vetoed), again after", () => {
    const path = fixture("7f3e2a10");
    const { rows, agents, sessions, runs } = analyze(path);
    // Call 1 is the exec that started the build; poll n is call n + 1, on line 4 + 2n (plus the label after poll 10).
    const lineOfPoll = (n: number) => 5 + 2 * n + (n > 10 ? 1 : 0);
    expect(rows).toEqual([
      ...range(11, 20).map((n): Row => ["run-build-poll", n + 1, lineOfPoll(n), "process", "known_poll_no_progress", "warning", n - 1, false]),
      ["run-build-poll", 22, lineOfPoll(21), "process", "known_poll_no_progress", "critical", 20, false],
      ["run-build-poll", 23, lineOfPoll(22), "process", "known_poll_no_progress", "critical", 20, true],
    ]);
    expect([...agents]).toEqual(["main"]);
    expect([...sessions]).toEqual(["7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51"]);
    expect(runs.map((r) => [r.run, r.calls, r.recordedVetoes])).toEqual([["run-build-poll", 23, 2]]);
  });

  it("compaction loop: the third identical failure after the compaction aborts; runs named by bootstrap and prompt error", () => {
    const path = fixture("2c9d4b7e");
    const { rows, runs, lines } = analyze(path);
    expect(rows).toEqual([["run-fix-auth", 7, 18, "exec", "compaction_loop_persisted", "abort", 3, false]]);
    expect(runs.map((r) => [r.run, r.calls, r.compactions])).toEqual([
      ["run-fix-auth", 8, 1],
      ["run-docs", 2, 0],
      ["run-history", 1, 0],
    ]);
    expect(lines.skipped).toBe(0);
  });

  it("branches: the abandoned branch's repeats executed, so they are replayed by default; not with --active-branch", () => {
    const path = fixture("9a8b7c6d");
    const active = analyze(path, "--active-branch");
    expect(active.rows).toEqual([]);
    expect(active.runs.map((r) => [r.run, r.calls])).toEqual([["run-deploy", 3]]);
    const all = analyze(path);
    // read (call 1), then fetches 1–12 (calls 2–13); fetch n is on line 4 + 2n.
    expect(all.rows).toEqual([
      ["run-deploy", 12, 26, "web_fetch", "generic_repeat", "warning", 10, false],
      ["run-deploy", 13, 28, "web_fetch", "generic_repeat", "warning", 11, false],
    ]);
    expect(all.agents).toEqual(new Set(["ops"]));
    expect(all.runs.map((r) => [r.run, r.calls])).toEqual([["run-deploy", 15]]);
    // The old flag still works, with a notice that file order is now the default.
    const deprecated = jsonReport([path, "--all-branches"]);
    expect(findingRows(deprecated.report)).toEqual(all.rows);
    expect(deprecated.stderr).toMatch(/--all-branches is deprecated/);
  });

  it("parallel calls: replayed one by one with their own results, they ping-pong to a block at call 20", () => {
    const path = fixture("4e5f6a7b");
    // Message n (n = 1..10) is on line 4 + 3(n - 1) and holds calls 2n - 1 (a) and 2n (b).
    const lineOfCall = (call: number) => 4 + 3 * (Math.ceil(call / 2) - 1);
    expect(analyze(path).rows).toEqual([
      ...range(10, 19).map((call): Row => ["run-compare", call, lineOfCall(call), "read", "ping_pong", "warning", call, false]),
      ["run-compare", 20, lineOfCall(20), "read", "ping_pong", "critical", 20, false],
    ]);
  });

  it("trajectory sidecar: ten unavailable-tool failures, then a block on the 11th call", () => {
    const path = fixture(".trajectory.jsonl");
    const { rows, agents, sessions } = analyze(path);
    expect(rows).toEqual([["run-browse", 11, 24, "browser", "unknown_tool_repeat", "critical", 10, false]]);
    expect([...agents]).toEqual(["main"]);
    expect([...sessions]).toEqual(["b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e"]);
  });

  it("runtime sidecar (2026.5, calls only in snapshots): polls replayed once each, warnings from the 11th", () => {
    const path = fixture("c5d6e7f8");
    const { rows, runs, lines, agents } = analyze(path);
    // Run 1: exec and two reads, then polls 1-14 (call 3 + n); poll n warns with the n - 1 before it
    // from n = 11. Every call of a run is on its model.completed line (7 lines per run: line 5, 12).
    expect(rows).toEqual(range(11, 14).map((n): Row => ["run-nightly-build", 3 + n, 5, "process", "known_poll_no_progress", "warning", n - 1, false]));
    // Run 2's snapshot repeats run 1's 17 calls; only its own 3 polls are replayed.
    expect(runs.map((r) => [r.run, r.calls])).toEqual([
      ["run-nightly-build", 17],
      ["run-nightly-status", 3],
    ]);
    expect([...agents]).toEqual(["main"]);
    expect(lines).toEqual({ read: 14, used: 8, ignored: 6, skipped: 0 });
  });

  it("trajectory bundle: runtime events replayed once, the transcript's compaction arms the guard between attempts", () => {
    const path = fixture("events.jsonl");
    const { rows, agents, runs, lines } = analyze(path);
    // The abort names the line of the third post-compaction result (a runtime tool.result).
    expect(rows).toEqual([["run-migrate", 5, 31, "exec", "compaction_loop_persisted", "abort", 3, false]]);
    expect([...agents]).toEqual(["coder"]);
    expect(runs.map((r) => [r.run, r.calls, r.compactions])).toEqual([["run-migrate", 5, 1]]);
    // Used: 2 starts, 2 ends, 10 runtime tool events, the compaction; the transcript copies are ignored.
    expect(lines).toEqual({ read: 33, used: 15, ignored: 18, skipped: 0 });
  });
});
