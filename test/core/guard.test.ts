/**
 * The post-compaction guard (detection.md "Post-compaction guard"): arming, re-arming, window close
 * and its summary, abort only on windowSize identical (tool, args, result) triples; and how replay
 * arms it (compactions only, never when enabled is false) and feeds it (recorded outcomes only).
 */
import { describe, expect, it } from "vitest";
import { PostCompactionGuard, type GuardOutcome } from "../../src/core/postCompactionGuard.js";
import { call, failure, repeat, result, textResult } from "../helpers/events.js";
import { configWith, range, replayLines } from "../helpers/replay.js";

const o = (tool: string, args = "a", res = "r"): GuardOutcome => ({ tool, argsHash: `${tool}:${args}`, resultHash: res });
const feed = (guard: PostCompactionGuard, outcomes: GuardOutcome[]) => outcomes.map((outcome) => guard.observe(outcome).kind);

describe("PostCompactionGuard", () => {
  it("is idle until armed, however often a triple repeats", () => {
    const guard = new PostCompactionGuard(3);
    expect(feed(guard, Array.from({ length: 10 }, () => o("read")))).toEqual(Array(10).fill("idle"));
    expect(guard.isArmed).toBe(false);
    expect(guard.openWindow()).toBeUndefined();
  });

  it("aborts when the window holds windowSize identical triples, naming tool and count", () => {
    const guard = new PostCompactionGuard(3);
    guard.arm(4);
    expect(feed(guard, [o("read"), o("read")])).toEqual(["observed", "observed"]);
    const step = guard.observe(o("read"));
    expect(step).toEqual({
      kind: "abort",
      tool: "read",
      count: 3,
      window: { armedAfterCall: 4, attempts: 3, calls: 3, preCompactionRepeats: 0, tools: ["read"], result: "aborted" },
    });
    expect(guard.isArmed).toBe(false);
    expect(guard.observe(o("read")).kind).toBe("idle");
  });

  it("never aborts while any part of the triple changes; the window closes after windowSize outcomes", () => {
    for (const changing of [
      [o("read", "a", "1"), o("read", "a", "2"), o("read", "a", "3")],
      [o("read", "a"), o("read", "b"), o("read", "c")],
      [o("read", "a"), o("write", "a"), o("read", "a")],
    ]) {
      const guard = new PostCompactionGuard(3);
      guard.arm(0);
      const steps = changing.map((outcome) => guard.observe(outcome));
      expect(steps.map((s) => s.kind)).toEqual(["observed", "observed", "closed"]);
      expect(guard.isArmed).toBe(false);
    }
  });

  it("counts identical triples anywhere in the window, not only consecutive ones", () => {
    const guard = new PostCompactionGuard(3);
    guard.arm(0);
    expect(feed(guard, [o("read"), o("write"), o("read")])).toEqual(["observed", "observed", "closed"]);
    const wide = new PostCompactionGuard(4);
    wide.arm(0);
    // Only the triple just seen is counted: 3 reads in a window of 4 are not enough.
    expect(feed(wide, [o("read"), o("write"), o("read"), o("read")])).toEqual(["observed", "observed", "observed", "closed"]);
  });

  it("reports the closed window: calls observed, pre-compaction repeats, tools in order of appearance", () => {
    const guard = new PostCompactionGuard(4);
    feed(guard, [o("read", "a"), o("exec", "x"), o("grep", "q")]);
    guard.arm(3);
    feed(guard, [o("exec", "x", "new"), o("write", "w"), o("read", "a", "other")]);
    expect(guard.observe(o("write", "v"))).toEqual({
      kind: "closed",
      window: { armedAfterCall: 3, attempts: 4, calls: 4, preCompactionRepeats: 2, tools: ["exec", "write", "read"], result: "closed" },
    });
  });

  it("remembers only the last 16 calls before arming", () => {
    const guard = new PostCompactionGuard(2);
    feed(guard, [o("old"), ...range(1, 16).map((i) => o("filler", String(i)))]);
    guard.arm(17);
    guard.observe(o("old"));
    const step = guard.observe(o("filler", "16"));
    expect(step.kind === "closed" && step.window.preCompactionRepeats).toBe(1);
  });

  it("re-arming clears the window", () => {
    const guard = new PostCompactionGuard(3);
    guard.arm(0);
    expect(feed(guard, [o("read"), o("read")])).toEqual(["observed", "observed"]);
    guard.arm(2);
    expect(feed(guard, [o("read"), o("read"), o("read")])).toEqual(["observed", "observed", "abort"]);
  });

  it("a window still open at the end is reported as open", () => {
    const guard = new PostCompactionGuard(3);
    guard.arm(5);
    guard.observe(o("read"));
    expect(guard.openWindow()).toEqual({ armedAfterCall: 5, attempts: 3, calls: 1, preCompactionRepeats: 0, tools: ["read"], result: "open" });
  });

  it("with windowSize 1, the first outcome after arming aborts", () => {
    const guard = new PostCompactionGuard(1);
    guard.arm(0);
    expect(guard.observe(o("read")).kind).toBe("abort");
  });
});

describe("the guard in replay", () => {
  const same = textResult("same");
  const compaction = { type: "compaction", run: "r" };

  it("is never armed without a compaction", () => {
    const [run] = replayLines(repeat(9, "r", "read", {}, same), configWith({ enabled: undefined })).runs;
    expect([run!.findings, run!.guardWindows]).toEqual([[], []]);
  });

  it("a compaction arms it: the third identical outcome aborts, at the line of that result", () => {
    const lines = [...repeat(2, "r", "read", {}, same, "a"), compaction, ...repeat(3, "r", "read", {}, same, "b")];
    const [run] = replayLines(lines, configWith({ enabled: undefined })).runs;
    expect(run!.findings).toEqual([
      expect.objectContaining({
        call: 5,
        line: lines.length,
        tool: "read",
        detector: "compaction_loop_persisted",
        level: "abort",
        count: 3,
        threshold: { name: "postCompactionGuard.windowSize", value: 3 },
        afterStop: false,
        message: expect.stringContaining("read repeated 3 times with identical args+result post-compaction"),
      }),
    ]);
    expect(run!.guardWindows).toEqual([{ armedAfterCall: 2, attempts: 3, calls: 3, preCompactionRepeats: 3, tools: ["read"], result: "aborted" }]);
  });

  it("closes after windowSize outcomes when results change, and uses the configured windowSize", () => {
    const lines = [compaction, ...range(1, 5).flatMap((i) => [call("r", `c${i}`, "exec", { cmd: "make" }), result("r", `c${i}`, "exec", textResult(`try ${i}`))])];
    const [run] = replayLines(lines, configWith({ postCompactionGuard: { windowSize: 4 } })).runs;
    expect(run!.findings).toEqual([]);
    expect(run!.guardWindows).toEqual([{ armedAfterCall: 0, attempts: 4, calls: 4, preCompactionRepeats: 0, tools: ["exec"], result: "closed" }]);
  });

  it("re-arming on a second compaction clears the window", () => {
    const lines = [compaction, ...repeat(2, "r", "read", {}, same, "a"), compaction, ...repeat(2, "r", "read", {}, same, "b")];
    const [run] = replayLines(lines).runs;
    expect(run!.findings).toEqual([]);
    expect(run!.guardWindows.at(-1)).toEqual(expect.objectContaining({ armedAfterCall: 2, calls: 2, result: "open" }));
    expect(run!.compactions).toBe(2);
  });

  it("sees only recorded outcomes: vetoes and absent results neither count nor consume attempts", () => {
    const veto = textResult("blocked", { status: "blocked", deniedReason: "tool-loop" });
    const lines = [
      compaction,
      call("r", "c1", "read", {}),
      result("r", "c1", "read", same),
      call("r", "c2", "read", {}),
      result("r", "c2", "read", veto),
      call("r", "c3", "read", {}),
      { type: "tool_result", run: "r", id: "c3", tool: "read" },
      ...repeat(2, "r", "read", {}, same, "d"),
    ];
    const [run] = replayLines(lines).runs;
    expect([...run!.findings].map((f) => [f.call, f.detector, f.count])).toEqual([[5, "compaction_loop_persisted", 3]]);
  });

  it("errors are outcomes like any other: identical failures after a compaction abort", () => {
    const fail = (i: number) => [call("r", `c${i}`, "read", { path: "x" }), failure("r", `c${i}`, "read", "ENOENT")];
    const [run] = replayLines([compaction, ...range(1, 3).flatMap(fail)]).runs;
    expect(run!.firstStop).toEqual({ kind: "abort", call: 3 });
  });

  it("is off when enabled is false", () => {
    const lines = [compaction, ...repeat(5, "r", "read", {}, same)];
    const [run] = replayLines(lines, configWith({ enabled: false })).runs;
    expect([run!.findings, run!.guardWindows, run!.firstStop]).toEqual([[], [], null]);
  });

  it("is per run: another run's compaction does not arm it", () => {
    const lines = [{ type: "compaction", run: "other" }, ...repeat(5, "r", "read", {}, same)];
    expect(replayLines(lines).runs.flatMap((run) => [...run.findings])).toEqual([]);
  });
});
