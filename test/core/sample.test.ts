/**
 * Integration check on the canonical sample session (a copy in test/data/), replayed through the core
 * with the production xxhash digest under looplens' default config (rolling detectors on). Expected,
 * per the sample's description: run-poll 10 known-poll warnings (calls 11-20) and 4 blocks (21-24);
 * run-compact one compaction_loop_persisted abort at call 7; run-ok nothing.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/findings.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import type { EventLine } from "../helpers/events.js";
import { configWith, range, replayLines, rows, type Row } from "../helpers/replay.js";

const SAMPLE = fileURLToPath(new URL("../data/session.events.jsonl", import.meta.url));

describe("sample session (session.events.jsonl)", () => {
  let runs: RunReport[];
  beforeAll(async () => {
    const lines = readFileSync(SAMPLE, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as EventLine);
    runs = replayLines(lines, configWith(), await loadXxhashDigest()).runs;
  });

  it("has the three runs of one session", () => {
    expect(runs.map((run) => [run.run, run.agent, run.calls, run.compactions])).toEqual([
      ["run-poll", "main", 24, 0],
      ["run-compact", "main", 8, 1],
      ["run-ok", "main", 2, 0],
    ]);
    expect(new Set(runs.map((run) => run.session)).size).toBe(1);
  });

  it("run-poll: known-poll warnings at calls 11-20, blocks at 21-24, stopping at 21", () => {
    const poll = runs.find((run) => run.run === "run-poll")!;
    expect(rows([...poll.findings])).toEqual([
      ...range(11, 20).map((n): Row => ["run-poll", n, "known_poll_no_progress", "warning", n - 1, false]),
      ...range(21, 24).map((n): Row => ["run-poll", n, "known_poll_no_progress", "critical", n - 1, n > 21]),
    ]);
    expect(poll.firstStop).toEqual({ kind: "block", call: 21 });
  });

  it("run-compact: aborts at call 7, the third identical outcome after the compaction", () => {
    const compact = runs.find((run) => run.run === "run-compact")!;
    expect(rows([...compact.findings])).toEqual([["run-compact", 7, "compaction_loop_persisted", "abort", 3, false]]);
    expect(compact.firstStop).toEqual({ kind: "abort", call: 7 });
  });

  it("run-ok: nothing", () => {
    expect(runs.find((run) => run.run === "run-ok")!.findings).toEqual([]);
  });
});
