/** A transcript analysed with the Gateway log of the same runs: replay vs live, per run id. */
import { beforeAll, describe, expect, it } from "vitest";
import { ndjsonFindings, runCli } from "../../helpers/cli.js";

const DIR = "fixtures/gateway/pair";
const TRANSCRIPT = `${DIR}/session.events.jsonl`;
const LOG = `${DIR}/openclaw-2026-05-05.log`;
const LIVE_CONFIG = `${DIR}/openclaw.json`;

type Json = Record<string, any>;

function analyze(...args: string[]): Json {
  const result = runCli(["analyze", TRANSCRIPT, LOG, "--format", "json", ...args]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

/** [run, detector, level, replay calls, live calls, agreement, earlier] per comparison row. */
const summary = (doc: Json) =>
  doc.comparison.rows.map((row: Json) => [
    row.run,
    row.detector,
    row.level,
    row.replay && [row.replay.firstCall, row.replay.lastCall, row.replay.findings],
    row.live && [row.live.firstCall, row.live.lastCall, row.live.findings],
    row.agreement,
    row.earlier,
  ]);

describe("replay vs live", () => {
  let doc: Json;
  beforeAll(() => {
    doc = analyze();
  });

  it("under looplens' defaults: the runtime (warnings at 8, no ping-pong) warned earlier, blocked at the same calls, and missed the ping-pong", () => {
    expect(doc.comparison.runs).toEqual(["pair-poll", "pair-exec", "pair-read"]);
    expect(summary(doc)).toEqual([
      ["pair-poll", "known_poll_no_progress", "warning", [11, 20, 10], [9, 9, 1], "both", "live"],
      ["pair-poll", "known_poll_no_progress", "critical", [21, 22, 2], [21, 22, 2], "both", "same"],
      ["pair-exec", "generic_repeat", "warning", null, [9, 9, 1], "live_only", null],
      ["pair-read", "ping_pong", "warning", [10, 12, 3], null, "replay_only", null],
    ]);
    const row = doc.comparison.rows[0];
    expect(row.replay).toEqual({ file: TRANSCRIPT, line: 22, firstCall: 11, lastCall: 20, findings: 10, maxCount: 19 });
    expect(row.live).toEqual({ file: LOG, line: 20, firstCall: 9, lastCall: 9, findings: 1, maxCount: 8 });
  });

  it("under the runtime's own config the two agree everywhere", () => {
    const agreeing = analyze("--config", LIVE_CONFIG);
    expect(summary(agreeing)).toEqual([
      ["pair-poll", "known_poll_no_progress", "warning", [9, 20, 12], [9, 9, 1], "both", "same"],
      ["pair-poll", "known_poll_no_progress", "critical", [21, 22, 2], [21, 22, 2], "both", "same"],
      ["pair-exec", "generic_repeat", "warning", [9, 9, 1], [9, 9, 1], "both", "same"],
    ]);
    expect(agreeing.comparison.runs).toContain("pair-read"); // lined up, and neither side found anything
  });

  it("a run only in the log is a live run but is not compared; replayed and live runs stay apart in `runs`", () => {
    expect(doc.runs.map((r: Json) => [r.run, r.source ?? "replay", r.calls])).toEqual([
      ["pair-poll", "replay", 22],
      ["pair-exec", "replay", 9],
      ["pair-read", "replay", 12],
      ["pair-poll", "log", 22],
      ["pair-exec", "log", 9],
      ["pair-read", "log", 12],
      ["pair-heartbeat", "log", 1],
    ]);
    expect(doc.summary.lines).toEqual({ read: 178, used: 155, ignored: 23, skipped: 0 });
  });

  it("ndjson lists replayed findings, then live ones (files in the order given), live ones marked source log", () => {
    const findings = ndjsonFindings(runCli(["analyze", TRANSCRIPT, LOG, "-f", "ndjson"]).stdout);
    expect(findings.filter((f) => f.source === undefined)).toHaveLength(15);
    expect(findings.filter((f) => f.source === "log").map((f) => [f.run, f.call, f.level])).toEqual([
      ["pair-poll", 9, "warning"],
      ["pair-poll", 21, "critical"],
      ["pair-poll", 22, "critical"],
      ["pair-exec", 9, "warning"],
    ]);
    expect(findings.findIndex((f) => f.source === "log")).toBe(15);
  });

  it("the table shows the comparison per run", () => {
    const table = runCli(["analyze", DIR]).stdout;
    expect(table).toContain("Replay vs live (runs lined up by run id; replay under this config, calls as numbered)");
    expect(table).toMatch(/\n known_poll_no_progress +process +warning +11–20 ×10 +9 +both, live first\n/);
    expect(table).toMatch(/\n known_poll_no_progress +process +block +21–22 ×2 +21–22 ×2 +both, same call\n/);
    expect(table).toMatch(/\n generic_repeat +exec +warning +— +9 +live only\n/);
    expect(table).toMatch(/\n ping_pong +read +warning +10–12 ×3 +— +replay only\n/);
    const agreeing = runCli(["analyze", DIR, "--config", LIVE_CONFIG]).stdout;
    expect(agreeing).toContain("run pair-read\n  neither the replay nor the live runtime found anything: they agree");
  });

  it("without a Gateway log there is no comparison", () => {
    const alone = JSON.parse(runCli(["analyze", TRANSCRIPT, "-f", "json"]).stdout) as Json;
    expect(alone.comparison).toBeUndefined();
    expect(alone.liveFindings).toBeUndefined();
    expect(alone.runs.every((r: Json) => r.source === undefined)).toBe(true);
  });
});
