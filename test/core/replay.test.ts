/**
 * Replay (detection.md "History", "Replay, as looplens does it"): check before record, critical calls
 * not recorded, vetoes, run scoping and session slots, trimming, ping-pong and unknown-streak edge
 * cases through whole event streams, after-stop flags, `enabled` semantics, per-agent configs.
 */
import { describe, expect, it } from "vitest";
import type { ResolvedConfig } from "../../src/core/config.js";
import { call, failure, repeat, result, textResult, type EventLine } from "../helpers/events.js";
import { configWith, findingsOf, range, replayLines, rows, type Row } from "../helpers/replay.js";

const VETO = textResult("blocked", { status: "blocked", deniedReason: "tool-loop" });
const unknown = (run: string, i: number, extra: EventLine = {}): EventLine[] => [
  call(run, `u${i}`, "browser", { step: i }, extra),
  failure(run, `u${i}`, "browser", "Unknown tool: browser", extra),
];
/** Calls `read` with alternating args A/B; `resultFor(side, i)` gives the outcome (undefined = none). */
function alternate(n: number, resultFor: (side: "A" | "B", i: number) => unknown = (side) => textResult(side)): EventLine[] {
  return range(1, n).flatMap((i) => {
    const side = i % 2 ? "A" : "B";
    const value = resultFor(side, i);
    return [call("r", `c${i}`, "read", { path: side }), ...(value === undefined ? [] : [result("r", `c${i}`, "read", value)])];
  });
}

describe("check before record", () => {
  it("the 11th identical call is the first warning, with count 10", () => {
    expect(findingsOf(repeat(11, "r", "read", { path: "a" }, textResult("same")))).toEqual([["r", 11, "generic_repeat", "warning", 10, false]]);
  });
});

describe("critical calls", () => {
  const config = configWith({ unknownToolThreshold: 3 });

  it("are not recorded: a vetoed call leaves the unknown streak as it was", () => {
    const lines = [...range(1, 3).flatMap((i) => unknown("r", i)), ...range(4, 5).flatMap((i) => [call("r", `u${i}`, "browser", { step: i }), result("r", `u${i}`, "browser", VETO)])];
    expect(findingsOf(lines, config)).toEqual([
      ["r", 4, "unknown_tool_repeat", "critical", 3, false],
      ["r", 5, "unknown_tool_repeat", "critical", 3, true],
    ]);
  });

  it("whose outcome the recording shows anyway get that outcome appended as a new record", () => {
    expect(findingsOf(range(1, 5).flatMap((i) => unknown("r", i)), config)).toEqual([
      ["r", 4, "unknown_tool_repeat", "critical", 3, false],
      ["r", 5, "unknown_tool_repeat", "critical", 4, true],
    ]);
  });
});

describe("vetoes", () => {
  it("give no result hash: a veto inside a no-progress streak does not reset it", () => {
    const config = configWith({ warningThreshold: 3, criticalThreshold: 6, globalCircuitBreakerThreshold: 100 });
    const lines = range(1, 8).flatMap((i) => [call("r", `c${i}`, "read", { path: "a" }), result("r", `c${i}`, "read", i === 4 ? VETO : textResult("same"))]);
    expect(findingsOf(lines, config)).toEqual([
      ["r", 4, "generic_repeat", "warning", 3, false],
      ["r", 5, "generic_repeat", "warning", 4, false],
      ["r", 6, "generic_repeat", "warning", 5, false],
      ["r", 7, "generic_repeat", "warning", 6, false],
      ["r", 8, "generic_repeat", "critical", 6, false],
    ]);
  });

  it("already in the input are counted per run", () => {
    const lines = [call("r", "c1", "read", {}), result("r", "c1", "read", VETO), call("s", "c1", "read", {}), result("s", "c1", "read", textResult("x"))];
    expect(replayLines(lines).runs.map((run) => [run.run, run.recordedVetoes])).toEqual([
      ["r", 1],
      ["s", 0],
    ]);
  });
});

describe("warnings and blocks of generic repeats", () => {
  it("warnings count records whatever their outcome; changing outcomes never block", () => {
    const lines = range(1, 25).flatMap((i) => [call("r", `c${i}`, "exec", { command: "make" }), result("r", `c${i}`, "exec", textResult(`attempt ${i}`))]);
    expect(findingsOf(lines)).toEqual(range(11, 25).map((n): Row => ["r", n, "generic_repeat", "warning", n - 1, false]));
  });

  it("the block needs the no-progress streak", () => {
    const rows = findingsOf(repeat(21, "r", "exec", { command: "make" }, textResult("same")));
    expect(rows.at(-2)).toEqual(["r", 20, "generic_repeat", "warning", 19, false]);
    expect(rows.at(-1)).toEqual(["r", 21, "generic_repeat", "critical", 20, false]);
  });
});

describe("run scoping", () => {
  /** Runs A and B take turns with the same call and result, `n` calls each. */
  const interleaved = (n: number, sessionA?: string, sessionB?: string) =>
    range(1, n).flatMap((i) =>
      (["A", "B"] as const).flatMap((run) => {
        const session = run === "A" ? sessionA : sessionB;
        const extra = session === undefined ? {} : { session };
        return [call(run, `c${i}`, "read", { path: "x" }, extra), result(run, `c${i}`, "read", textResult("same"), extra)];
      }),
    );
  const countsOf = (rows: Row[], run: string) => rows.filter((r) => r[0] === run).map((r) => r[4]);

  it("records of other runs are invisible to detection", () => {
    const rows = findingsOf(interleaved(12, "s", "s"));
    expect(rows).toEqual([
      ["A", 11, "generic_repeat", "warning", 10, false],
      ["A", 12, "generic_repeat", "warning", 11, false],
      ["B", 11, "generic_repeat", "warning", 10, false],
      ["B", 12, "generic_repeat", "warning", 11, false],
    ]);
  });

  it("other runs of the same session still take history slots", () => {
    // 30 slots shared by two runs: each sees at most its 15 newest records.
    expect(countsOf(findingsOf(interleaved(20, "s", "s")), "A")).toEqual([10, 11, 12, 13, 14, 15, 15, 15, 15, 15]);
  });

  it("runs of different sessions, or without a session, have their own history", () => {
    const separate = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
    expect(countsOf(findingsOf(interleaved(20, "s1", "s2")), "A")).toEqual(separate);
    expect(countsOf(findingsOf(interleaved(20)), "B")).toEqual(separate);
  });
});

describe("history trimming", () => {
  it("keeps historySize records: a window of 4 can never reach a threshold of 5", () => {
    const lines = repeat(20, "r", "read", { path: "a" }, textResult("same"));
    expect(findingsOf(lines, configWith({ historySize: 4, warningThreshold: 5, criticalThreshold: 6 }))).toEqual([]);
    expect(findingsOf(lines, configWith({ historySize: 5, warningThreshold: 5, criticalThreshold: 6 }))).toEqual(
      range(6, 20).map((n): Row => ["r", n, "generic_repeat", "warning", 5, false]),
    );
  });
});

describe("ping-pong through replay", () => {
  it("warns from the 10th alternating call and blocks at 20 when both sides are stable", () => {
    expect(findingsOf(alternate(20))).toEqual([
      ...range(10, 19).map((n): Row => ["r", n, "ping_pong", "warning", n, false]),
      ["r", 20, "ping_pong", "critical", 20, false],
    ]);
  });

  it("needs the probe to be the other side: repeating the newest side ends it", () => {
    const lines = [...alternate(10), call("r", "c11", "read", { path: "B" }), result("r", "c11", "read", textResult("B")), call("r", "c12", "read", { path: "A" })];
    expect(findingsOf(lines)).toEqual([["r", 10, "ping_pong", "warning", 10, false]]);
  });

  it("only warns while one side's outcome changes", () => {
    const rows = findingsOf(alternate(22, (side, i) => textResult(side === "A" ? `A${i}` : "B")));
    expect(rows).toEqual(range(10, 22).map((n): Row => ["r", n, "ping_pong", "warning", n, false]));
  });

  it("only warns while a call in the tail is unanswered", () => {
    const rows = findingsOf(alternate(21, (side, i) => (i === 12 ? undefined : textResult(side))));
    expect(rows.filter((r) => r[3] === "critical")).toEqual([]);
    expect(rows.map((r) => r[1])).toEqual(range(10, 21));
  });
});

describe("unknown streak", () => {
  it("blocks the 11th call after 10 identical unavailable-tool failures", () => {
    expect(findingsOf(range(1, 11).flatMap((i) => unknown("r", i)))).toEqual([["r", 11, "unknown_tool_repeat", "critical", 10, false]]);
  });

  it("is broken by a pending record", () => {
    const lines = [...range(1, 9).flatMap((i) => unknown("r", i)), call("r", "u10", "browser", { step: 10 }), ...range(11, 21).flatMap((i) => unknown("r", i))];
    expect(findingsOf(lines)).toEqual([["r", 21, "unknown_tool_repeat", "critical", 10, false]]);
  });
});

describe("outcome attachment", () => {
  it("a result attaches to the record of the call it answers (an id-less result: the newest call of its tool)", () => {
    const lines = range(1, 11).flatMap((i) => [
      { type: "tool_call", run: "r", id: `c${i}`, tool: "browser", args: { step: i } },
      { type: "tool_result", run: "r", tool: "browser", error: "Unknown tool: browser" },
    ]);
    expect(findingsOf(lines)).toEqual([["r", 11, "unknown_tool_repeat", "critical", 10, false]]);
  });

  it("a result whose id names no call is not replayed, so the id-less calls stay pending", () => {
    // Pending records carry no unknown-tool name: no streak, and recent-count warnings only.
    const lines = range(1, 11).flatMap((i) => [
      { type: "tool_call", run: "r", tool: "browser", args: { step: i } },
      { type: "tool_result", run: "r", id: `res-${i}`, tool: "browser", error: "Unknown tool: browser" },
    ]);
    expect(findingsOf(lines)).toEqual([]);
  });

  it("an outcome without a hash (absent result) leaves its call pending", () => {
    const lines = [...range(1, 9).flatMap((i) => unknown("r", i)), call("r", "u10", "browser", { step: 10 }), { type: "tool_result", run: "r", id: "u10", tool: "browser" }, call("r", "u11", "browser", { step: 11 })];
    expect(findingsOf(lines)).toEqual([]);
  });
});

describe("after stop", () => {
  it("flags verdicts after the first block of a run; each run has its own first stop", () => {
    const poll = (run: string, n: number) => range(1, n).flatMap((i) => [call(run, `p${i}`, "command_status", { id: 1 }), result(run, `p${i}`, "command_status", textResult("running"))]);
    const { runs } = replayLines([...poll("one", 22), ...poll("two", 21)]);
    expect(runs.map((run) => [run.run, run.calls, run.firstStop])).toEqual([
      ["one", 22, { kind: "block", call: 21 }],
      ["two", 21, { kind: "block", call: 21 }],
    ]);
    expect([...runs[0]!.findings].map((f) => [f.call, f.level, f.count, f.afterStop]).slice(-3)).toEqual([
      [20, "warning", 19, false],
      [21, "critical", 20, false],
      [22, "critical", 21, true],
    ]);
    expect([...runs[1]!.findings].filter((f) => f.afterStop)).toEqual([]);
  });

  it("an abort is a stop too; warnings never are", () => {
    const lines = [
      ...repeat(3, "r", "read", { path: "a" }, textResult("same"), "a"),
      { type: "compaction", run: "r" },
      ...repeat(9, "r", "read", { path: "a" }, textResult("same"), "b"),
    ];
    const [run] = replayLines(lines).runs;
    expect(run!.firstStop).toEqual({ kind: "abort", call: 6 });
    expect(rows([...run!.findings])).toEqual([
      ["r", 6, "compaction_loop_persisted", "abort", 3, false],
      ["r", 11, "generic_repeat", "warning", 10, true],
      ["r", 12, "generic_repeat", "warning", 11, true],
    ]);
    expect(replayLines(repeat(12, "r", "read", {}, textResult("x"))).runs[0]!.firstStop).toBeNull();
  });
});

describe("enabled", () => {
  const stuck = [...repeat(12, "r", "read", {}, textResult("same"), "a"), { type: "compaction", run: "r" }, ...repeat(3, "r", "read", {}, textResult("same"), "b")];

  it("unset: no rolling verdicts, but calls are recorded and the guard aborts", () => {
    const [run] = replayLines(stuck, configWith({ enabled: undefined })).runs;
    expect(rows([...run!.findings])).toEqual([["r", 15, "compaction_loop_persisted", "abort", 3, false]]);
  });

  it("false: nothing at all", () => {
    const [run] = replayLines(stuck, configWith({ enabled: false })).runs;
    expect([run!.findings, run!.guardWindows, run!.compactions]).toEqual([[], [], 1]);
  });
});

describe("per-agent config", () => {
  it("each run is replayed under its agent's config (null when no agent is known)", () => {
    const asked: Array<string | null> = [];
    const configFor = (agent: string | null): ResolvedConfig => {
      asked.push(agent);
      return agent === "strict" ? configWith({ warningThreshold: 3 }) : configWith();
    };
    const lines = [
      ...repeat(4, "s", "read", {}, textResult("x")).map((line) => ({ ...line, agent: "strict" })),
      ...repeat(4, "m", "read", {}, textResult("x")).map((line) => ({ ...line, agent: "main" })),
      ...repeat(4, "n", "read", {}, textResult("x")),
    ];
    expect(findingsOf(lines, configFor)).toEqual([["s", 4, "generic_repeat", "warning", 3, false]]);
    expect(asked).toEqual(["strict", "main", null]);
  });
});
