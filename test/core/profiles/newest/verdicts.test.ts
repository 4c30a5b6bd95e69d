/**
 * The newest generation's verdicts through whole event streams (generations.md §1, §2, §5, §7),
 * translated from OpenClaw's tool-loop-detection tests: fixed thresholds, no toggles, vetoes in
 * streaks, exec failure streaks across commands, the verdict order.
 */
import { describe, expect, it } from "vitest";
import { call, failure, repeat, result, textResult, type EventLine } from "../../../helpers/events.js";
import { newestConfig, newestFindings, replayNewest } from "../../../helpers/newestReplay.js";
import { range } from "../../../helpers/replay.js";

const VETO = textResult("blocked", { status: "blocked", deniedReason: "tool-loop" });
const execFailure = (output: string, exitCode = 1) => textResult("", { status: "failed", exitCode, aggregated: output });
const levels = (lines: EventLine[]) => newestFindings(lines).map(([, n, detector, level, count]) => [n, detector, level, count]);
const firstOf = (lines: EventLine[], level: string) => levels(lines).find((row) => row[2] === level);

describe("configuration", () => {
  it("is disabled by default: enabled unset reports nothing", () => {
    const config = newestConfig({ enabled: undefined });
    expect(newestFindings(repeat(25, "r", "read", { path: "a" }, textResult("same")), config)).toEqual([]);
  });

  it("ignores thresholds: criticalThreshold 5 still blocks at 20", () => {
    const config = newestConfig({ criticalThreshold: 5, warningThreshold: 2 });
    const found = newestFindings(repeat(21, "r", "read", { path: "a" }, textResult("same")), config);
    expect(found[0]).toEqual(["r", 11, "generic_repeat", "warning", 10, false]);
    expect(found.at(-1)).toEqual(["r", 21, "generic_repeat", "critical", 20, false]);
  });

  it("ignores detector toggles: genericRepeat false still warns", () => {
    const config = newestConfig({ detectors: { genericRepeat: false } });
    expect(newestFindings(repeat(11, "r", "read", { path: "a" }, textResult("same")), config)).toEqual([["r", 11, "generic_repeat", "warning", 10, false]]);
  });
});

describe("generic repeat", () => {
  it("warns on the 11th identical call with count 10", () => {
    expect(firstOf(repeat(11, "r", "read", { path: "a" }, textResult("same")), "warning")).toEqual([11, "generic_repeat", "warning", 10]);
  });

  it("blocks at 20 identical outcomes", () => {
    expect(firstOf(repeat(21, "r", "read", { path: "a" }, textResult("same")), "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });

  it("warns but never blocks while outcomes change", () => {
    const lines = range(1, 25).flatMap((i) => [call("r", `c${i}`, "read", { path: "a" }), result("r", `c${i}`, "read", textResult(`v${i}`))]);
    expect(levels(lines).every((row) => row[2] === "warning")).toBe(true);
  });

  it("records a critical call (replay convention): the streak goes on growing after the block", () => {
    const found = newestFindings(repeat(23, "r", "read", { path: "a" }, textResult("same")));
    expect(found.slice(-3).map((row) => row[4])).toEqual([20, 21, 22]);
  });

  it("ignores repeated history from other runs", () => {
    const lines = [...repeat(15, "other", "read", { path: "a" }, textResult("same")), ...repeat(5, "r", "read", { path: "a" }, textResult("same"), "d")];
    expect(newestFindings(lines).filter((row) => row[0] === "r")).toEqual([]);
  });
});

describe("loop vetoes", () => {
  it("count in the no-progress streak", () => {
    // 15 identical results then vetoes: the vetoes extend the streak to the block.
    const lines = [
      ...repeat(15, "r", "read", { path: "a" }, textResult("same")),
      ...range(1, 6).flatMap((i) => [call("r", `v${i}`, "read", { path: "a" }), result("r", `v${i}`, "read", VETO)]),
    ];
    expect(firstOf(lines, "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });

  it("alone give a streak of their number", () => {
    const lines = range(1, 21).flatMap((i) => [call("r", `v${i}`, "read", { path: "a" }), result("r", `v${i}`, "read", VETO)]);
    expect(firstOf(lines, "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });

  it("older than a changed outcome do not carry over", () => {
    const lines = [
      ...range(1, 10).flatMap((i) => [call("r", `v${i}`, "read", { path: "a" }), result("r", `v${i}`, "read", VETO)]),
      call("r", "x", "read", { path: "a" }),
      result("r", "x", "read", textResult("old")),
      ...repeat(10, "r", "read", { path: "a" }, textResult("new")),
    ];
    // recent count warns, but the streak is only the 10 new outcomes: no block.
    expect(levels(lines).some((row) => row[2] === "critical")).toBe(false);
  });

  it("are counted as recorded by the run report", () => {
    const lines = [call("r", "v", "read", {}), result("r", "v", "read", VETO)];
    expect(replayNewest(lines)[0]?.recordedVetoes).toBe(1);
  });

  it("plugin vetoes still escalate like any repeated outcome", () => {
    const plugin = textResult("blocked", { status: "blocked", deniedReason: "plugin" });
    expect(firstOf(repeat(21, "r", "read", { path: "a" }, plugin), "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });
});

describe("exec terminal failures", () => {
  const run = (outputFor: (i: number) => string, argsFor: (i: number) => unknown, n = 21, exitFor: (i: number) => number = () => 1) =>
    range(1, n).flatMap((i) => [call("r", `e${i}`, "exec", argsFor(i)), result("r", `e${i}`, "exec", execFailure(outputFor(i), exitFor(i)))]);

  it("identical failures with changing commands block at 20", () => {
    expect(firstOf(run(() => "npm ERR! missing script: build", (i) => ({ command: `npm run build --try=${i}` })), "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });

  it("the same command failing with drifting timestamps and pids blocks at 20", () => {
    const output = (i: number) => `2026-05-01T10:00:${String(i).padStart(2, "0")}Z pid ${1000 + i}: attempt ${i} connection refused after ${i}ms`;
    expect(firstOf(run(output, () => ({ command: "curl x" })), "critical")).toEqual([21, "generic_repeat", "critical", 20]);
  });

  it("drifting output with changing commands does not continue the streak", () => {
    const output = (i: number) => `pid ${1000 + i}: connection refused`;
    expect(levels(run(output, (i) => ({ command: `curl ${i}` }))).some((row) => row[2] === "critical")).toBe(false);
  });

  it("a new exit code resets the streak", () => {
    const lines = run(() => "boom", (i) => ({ command: `c${i}` }), 25, (i) => (i === 12 ? 2 : 1));
    expect(levels(lines).some((row) => row[2] === "critical")).toBe(false);
  });

  it("an intervening success resets the streak", () => {
    const lines = [
      ...run(() => "boom", (i) => ({ command: `c${i}` }), 12),
      call("r", "ok", "exec", { command: "true" }),
      result("r", "ok", "exec", textResult("", { status: "completed", exitCode: 0, aggregated: "fine" })),
      ...run(() => "boom", (i) => ({ command: `d${i}` }), 12).map((line) => ({ ...line, id: `x${String(line.id)}` })),
    ];
    expect(levels(lines).some((row) => row[2] === "critical")).toBe(false);
  });

  it("another tool in between resets the streak", () => {
    const lines = [
      ...run(() => "boom", (i) => ({ command: `c${i}` }), 12),
      call("r", "rd", "read", { path: "log" }),
      result("r", "rd", "read", textResult("log")),
      ...run(() => "boom", (i) => ({ command: `d${i}` }), 12).map((line) => ({ ...line, id: `x${String(line.id)}` })),
    ];
    expect(levels(lines).some((row) => row[2] === "critical")).toBe(false);
  });

  it("changing-argument exec vetoes extend the streak up to the global breaker", () => {
    const lines = [
      ...run(() => "boom", (i) => ({ command: `c${i}` }), 20),
      ...range(1, 11).flatMap((i) => [call("r", `v${i}`, "exec", { command: `v${i}` }), result("r", `v${i}`, "exec", VETO)]),
    ];
    const found = levels(lines);
    expect(found.find((row) => row[1] === "global_circuit_breaker")).toEqual([31, "global_circuit_breaker", "critical", 30]);
  });
});

describe("verdict order", () => {
  it("unknown tool blocks at the 11th call (10 failures)", () => {
    const lines = range(1, 11).flatMap((i) => [call("r", `u${i}`, "browser", { step: i }), failure("r", `u${i}`, "browser", "Unknown tool: browser")]);
    expect(firstOf(lines, "critical")).toEqual([11, "unknown_tool_repeat", "critical", 10]);
  });

  it("known polls warn at 10 and block at 20 identical outcomes", () => {
    const lines = repeat(21, "r", "command_status", { id: "p" }, textResult("still running"));
    expect(firstOf(lines, "warning")).toEqual([11, "known_poll_no_progress", "warning", 10]);
    expect(firstOf(lines, "critical")).toEqual([21, "known_poll_no_progress", "critical", 20]);
  });

  it("the global breaker wins over the known-poll block at 30", () => {
    const lines = repeat(31, "r", "command_status", { id: "p" }, textResult("still running"));
    expect(levels(lines).at(-1)).toEqual([31, "global_circuit_breaker", "critical", 30]);
  });

  it("ping-pong with stuck sides warns at 10 and blocks at 20", () => {
    const lines = range(1, 21).flatMap((i) => {
      const side = i % 2 ? "A" : "B";
      return [call("r", `p${i}`, "read", { path: side }), result("r", `p${i}`, "read", textResult(side))];
    });
    expect(firstOf(lines, "warning")).toEqual([10, "ping_pong", "warning", 10]);
    expect(firstOf(lines, "critical")).toEqual([20, "ping_pong", "critical", 20]);
  });

  it("findings carry the fixed threshold they crossed", () => {
    const [finding] = replayNewest(repeat(11, "r", "read", { path: "a" }, textResult("same")))[0]!.findings;
    expect(finding?.threshold).toEqual({ name: "warningThreshold", value: 10 });
  });
});
