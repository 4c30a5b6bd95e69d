/** The newest generation's post-compaction guard (generations.md §8), translated from OpenClaw's guard tests. */
import { describe, expect, it } from "vitest";
import { NewestGuard } from "../../../../src/core/profiles/newest/guard.js";
import { call, result, textResult, type EventLine } from "../../../helpers/events.js";
import { newestConfig, replayNewest } from "../../../helpers/newestReplay.js";

const same = { tool: "read", argsHash: "read:a", resultHash: "r1" };

describe("NewestGuard", () => {
  it("arms for the built-in window of 3 and aborts on the third identical outcome", () => {
    const guard = new NewestGuard();
    guard.arm(0);
    expect(guard.observe(same).kind).toBe("observed");
    expect(guard.observe(same).kind).toBe("observed");
    const step = guard.observe(same);
    expect(step.kind).toBe("abort");
    if (step.kind === "abort") expect(step.count).toBe(3);
  });

  it("closes the window on abort", () => {
    const guard = new NewestGuard();
    guard.arm(0);
    for (let i = 0; i < 3; i++) guard.observe(same);
    expect(guard.openWindow()).toBeUndefined();
    expect(guard.observe(same).kind).toBe("idle");
  });

  it("never aborts while results change, and closes with a summary", () => {
    const guard = new NewestGuard();
    guard.arm(4);
    guard.observe({ ...same, resultHash: "a" });
    guard.observe({ ...same, resultHash: "b" });
    const step = guard.observe({ tool: "exec", argsHash: "exec:x", resultHash: "c" });
    expect(step.kind).toBe("closed");
    if (step.kind === "closed") expect(step.window).toMatchObject({ armedAfterCall: 4, calls: 3, tools: ["exec", "read"], result: "closed" });
  });

  it("counts pre-compaction repeats against a 16-call baseline", () => {
    const guard = new NewestGuard();
    for (let i = 0; i < 20; i++) guard.observe({ tool: "read", argsHash: `read:${i}`, resultHash: "x" });
    guard.arm(20);
    guard.observe({ tool: "read", argsHash: "read:2", resultHash: "y" }); // fell out of the 16
    guard.observe({ tool: "read", argsHash: "read:10", resultHash: "y" });
    const step = guard.observe({ tool: "read", argsHash: "read:19", resultHash: "y" });
    expect(step.kind === "closed" && step.window.preCompactionRepeats).toBe(2);
  });

  it("re-arming closes the open window and reports it, then starts from scratch", () => {
    const guard = new NewestGuard();
    guard.arm(1);
    guard.observe(same);
    guard.observe(same);
    const closed = guard.arm(3);
    expect(closed).toMatchObject({ armedAfterCall: 1, calls: 2, result: "closed" });
    expect(guard.observe(same).kind).toBe("observed");
  });

  it("does nothing while not armed", () => {
    expect(new NewestGuard().observe(same).kind).toBe("idle");
  });
});

describe("guard in replay", () => {
  const compaction = (run: string): EventLine => ({ type: "compaction", run });
  const reads = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => [call("r", `${prefix}${i}`, "read", { path: "a" }), result("r", `${prefix}${i}`, "read", textResult("same"))]).flat();

  it("ignores postCompactionGuard.windowSize: aborts at 3 even when 5 is configured", () => {
    const runs = replayNewest([...reads(1, "a"), compaction("r"), ...reads(3, "b")], newestConfig({ postCompactionGuard: { windowSize: 5 } }));
    const abort = [...runs[0]!.findings].find((f) => f.detector === "compaction_loop_persisted");
    expect(abort).toMatchObject({ call: 4, count: 3, threshold: { name: "postCompactionGuard.windowSize", value: 3 } });
  });

  it("is off when enabled is exactly false", () => {
    const runs = replayNewest([compaction("r"), ...reads(3, "b")], newestConfig({ enabled: false }));
    expect(runs[0]!.findings).toEqual([]);
    expect(runs[0]!.guardWindows).toEqual([]);
  });

  it("is on when enabled is unset", () => {
    const runs = replayNewest([compaction("r"), ...reads(3, "b")], newestConfig({ enabled: undefined }));
    expect([...runs[0]!.findings].map((f) => f.detector)).toEqual(["compaction_loop_persisted"]);
  });

  it("never sees vetoes", () => {
    const veto = textResult("blocked", { status: "blocked", deniedReason: "tool-loop" });
    const lines = [compaction("r"), ...Array.from({ length: 3 }, (_, i) => [call("r", `v${i}`, "read", { path: "a" }), result("r", `v${i}`, "read", veto)]).flat()];
    const runs = replayNewest(lines, newestConfig({ enabled: undefined }));
    expect(runs[0]!.findings).toEqual([]);
    expect(runs[0]!.guardWindows).toMatchObject([{ calls: 0, result: "open" }]);
  });

  it("a second compaction reports the first window as closed", () => {
    const runs = replayNewest([compaction("r"), ...reads(1, "a"), compaction("r"), ...reads(1, "b")], newestConfig({ enabled: undefined }));
    expect(runs[0]!.guardWindows.map((w) => [w.calls, w.result])).toEqual([
      [1, "closed"],
      [1, "open"],
    ]);
  });
});
