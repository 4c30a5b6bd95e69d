/**
 * Tracing replay (core/trace.ts) and the marks of windowCounts.ts: tracing changes no finding, traces
 * every finding it is asked for, and the calls marked as counted add up to each finding's count,
 * for every detector, under both generations and several configs, on random sessions.
 */
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../../src/core/events.js";
import type { ResolvedConfig } from "../../src/core/config.js";
import { EventPreparer } from "../../src/core/prepare.js";
import type { Hashing } from "../../src/core/hashing.js";
import { Replayer, type ProfileForRun } from "../../src/core/replay.js";
import { TracingReplayer } from "../../src/core/trace.js";
import { windowCount } from "../../src/core/windowCounts.js";
import { call, failure, repeat, result, textResult, type EventLine } from "../helpers/events.js";
import { newestConfig, newestHashing } from "../helpers/newestReplay.js";
import { canonicalText, randomSessions } from "../helpers/randomSessions.js";
import { configWith, hashing, toLoopEvents } from "../helpers/replay.js";

interface Generation {
  readonly name: string;
  readonly hashing: Hashing;
  readonly config: ResolvedConfig;
  readonly profileFor?: ProfileForRun;
  readonly reached?: readonly string[];
}

const NEWEST: ProfileForRun = () => ({ profile: "newest", reason: "test" });
const GENERATIONS: Generation[] = [
  { name: "configurable", hashing, config: configWith(), reached: ["compaction_loop_persisted", "generic_repeat", "known_poll_no_progress", "ping_pong", "unknown_tool_repeat"] },
  { name: "configurable, low thresholds", hashing, config: configWith({ warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 7, unknownToolThreshold: 3, historySize: 12 }), reached: ["compaction_loop_persisted", "generic_repeat", "global_circuit_breaker", "known_poll_no_progress", "ping_pong", "unknown_tool_repeat"] },
  { name: "configurable, generic repeat off", hashing, config: configWith({ detectors: { genericRepeat: false }, globalCircuitBreakerThreshold: 8, criticalThreshold: 6, warningThreshold: 4 }), reached: ["compaction_loop_persisted", "global_circuit_breaker", "known_poll_no_progress", "ping_pong", "unknown_tool_repeat"] },
  { name: "newest", hashing: newestHashing, config: newestConfig(), profileFor: NEWEST, reached: ["compaction_loop_persisted", "generic_repeat", "known_poll_no_progress", "ping_pong", "unknown_tool_repeat"] },
];

function trace(events: readonly LoopEvent[], generation: Generation) {
  const prepared = (() => {
    const preparer = new EventPreparer(generation.hashing);
    return events.flatMap((event) => {
      const disposition = preparer.prepare(event);
      return disposition.used ? [disposition.prepared] : [];
    });
  })();
  const plain = new Replayer(() => generation.config, generation.profileFor);
  const tracing = new TracingReplayer(() => generation.config, generation.profileFor, () => true);
  for (const event of prepared) {
    plain.push(event);
    tracing.push(event);
  }
  return { plain: plain.finish(), traced: tracing.finish(), findings: tracing.findings };
}

const eventsOf = (text: string, file: string): LoopEvent[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => ({ file, line: i + 1, ...(JSON.parse(line) as object) }) as LoopEvent);

describe.each(GENERATIONS)("tracing under $name", (generation) => {
  it("changes no finding, traces each one, and its marks add up to every count", () => {
    const detectors = new Set<string>();
    const mismatches: unknown[] = [];
    for (const session of randomSessions(1606, 80)) {
      const { plain, traced, findings } = trace(eventsOf(canonicalText(session), `${session.id}.jsonl`), generation);
      expect(traced).toEqual(plain);
      expect(findings.map((t) => t.finding)).toEqual(plain.flatMap((run) => [...run.findings]));
      for (const t of findings) {
        detectors.add(t.finding.detector);
        const total = windowCount(t).total;
        // Every row is tied back to the call that made it.
        if (total !== t.finding.count || t.rows.some((row) => row.call < 1)) mismatches.push([session.id, t.finding.call, t.finding.detector, t.finding.count, total]);
      }
    }
    expect(mismatches).toEqual([]);
    // The random sessions reach the detectors this test is about.
    expect([...detectors].sort()).toEqual(generation.reached);
  });
});

describe("windows of hand-made streaks", () => {
  const lowThresholds = configWith({ warningThreshold: 3, criticalThreshold: 5 });

  it("a history window holds the run's records before the judged call, the judged call not among them", () => {
    const lines: EventLine[] = [...repeat(4, "r", "exec", { command: "make" }, textResult("fail")), call("r", "c9", "exec", { command: "make" })];
    const { findings } = trace(toLoopEvents(lines), { name: "", hashing, config: lowThresholds });
    const last = findings.at(-1)!;
    expect(last.kind).toBe("history");
    expect(last.kind === "history" && [last.probe.call, last.rows.map((row) => row.call)]).toEqual([5, [1, 2, 3, 4]]);
    expect(windowCount(last)).toEqual({ counted: [true, true, true, true], probeCounted: false, total: 4 });
  });

  it("a changed result ends the no-progress streak: older calls are in the window but not counted", () => {
    const lines: EventLine[] = [
      ...repeat(2, "r", "exec", { command: "make" }, textResult("old"), "a"),
      ...repeat(5, "r", "exec", { command: "make" }, textResult("new"), "b"),
      call("r", "c9", "exec", { command: "make" }),
    ];
    const { findings } = trace(toLoopEvents(lines), { name: "", hashing, config: lowThresholds });
    const block = findings.find((t) => t.finding.level === "critical")!;
    expect(windowCount(block).counted).toEqual([false, false, true, true, true, true, true]);
  });

  it("the guard window ties each outcome to its call and result line", () => {
    const lines: EventLine[] = [
      call("r", "a", "read", { path: "x" }),
      result("r", "a", "read", "same"),
      { type: "compaction", run: "r" },
      ...[1, 2, 3].flatMap((i) => [call("r", `b${i}`, "read", { path: "x" }), failure("r", `b${i}`, "read", "ENOENT")]),
    ];
    const { findings } = trace(toLoopEvents(lines), { name: "", hashing, config: configWith() });
    const abort = findings.find((t) => t.kind === "guard")!;
    expect(abort.rows.map((row) => [row.call, row.line])).toEqual([
      [2, 5],
      [3, 7],
      [4, 9],
    ]);
    expect(windowCount(abort).total).toBe(3);
  });

  const newest: Generation = { name: "newest", hashing: newestHashing, config: newestConfig(), profileFor: NEWEST };
  const churnOf = (lines: EventLine[]) => trace(toLoopEvents(lines), newest).findings.filter((t) => t.finding.detector === "argument_churn");

  it("argument churn (newest) counts every call of its stable variants", () => {
    const lines = Array.from({ length: 12 }, (_, i) => [call("r", `c${i}`, "read", { path: ["a", "b", "c"][i % 3] }), failure("r", `c${i}`, "read", "ENOENT")]).flat();
    const churn = churnOf(lines);
    expect(churn.map((t) => [t.finding.call, t.finding.count, windowCount(t).total])).toEqual([
      [11, 10, 10],
      [12, 11, 11],
    ]);
  });

  it("write-mutation churn counts each new body since a body was written again", () => {
    const write = (i: number, body: string): EventLine[] => [call("r", `w${i}`, "write", { path: "notes.md", content: body }), result("r", `w${i}`, "write", textResult("wrote", { changed: true, path: "notes.md" }))];
    const lines = [...[1, 2, 3].flatMap((i) => write(i, `v${i}`)), ...write(4, "v1"), ...[5, 6, 7, 8, 9, 10, 11, 12, 13, 14].flatMap((i) => write(i, `n${i}`))];
    const churn = churnOf(lines);
    expect(churn.length).toBeGreaterThan(0);
    for (const t of churn) expect(windowCount(t).total).toBe(t.finding.count);
  });
});
