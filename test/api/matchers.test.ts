import { describe, expect, it } from "vitest";
import { failureMessage as failure } from "../helpers/failure.js";
import "../../src/vitest.js";
import { analyze, format } from "../../src/index.js";

const STUCK = "fixtures/ping-pong.jsonl"; // ping_pong warnings from call 10, a block at call 20
const HEALTHY = "fixtures/healthy.jsonl";

describe("toHaveNoLoopFindings", () => {
  it("passes on a healthy transcript, and fails on a stuck one with the findings table, plain", async () => {
    await expect(HEALTHY).toHaveNoLoopFindings();
    const message = await failure(expect(STUCK).toHaveNoLoopFindings());
    expect(message).toContain(`expected "${STUCK}" to have no loop findings at or above warning, but it has 11:`);
    expect(message).toContain(format(await analyze(STUCK), "table", { width: 120 }));
    expect(message).not.toMatch(/\u001b\[/);
  });

  it("counts findings at or above a level, and takes the analysis options", async () => {
    await expect(STUCK).toHaveNoLoopFindings({ atOrAbove: "abort" });
    expect(await failure(expect(STUCK).toHaveNoLoopFindings({ atOrAbove: "block" }))).toContain("but it has 1:");
    await expect(STUCK).toHaveNoLoopFindings({ set: ["warningThreshold=30", "criticalThreshold=40"] });
    await expect(STUCK).not.toHaveNoLoopFindings();
  });
});

describe("toHaveLoopFinding", () => {
  it("matches on detector, level and call", async () => {
    await expect(STUCK).toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
    await expect(STUCK).toHaveLoopFinding({ detector: "ping_pong", level: "warning", call: 10, tool: "read" });
    await expect(STUCK).not.toHaveLoopFinding({ detector: "generic_repeat" });
    const message = await failure(expect(STUCK).toHaveLoopFinding({ detector: "ping_pong", call: 5 }));
    expect(message).toContain(`expected "${STUCK}" to have a loop finding {"detector":"ping_pong","call":5}, but it has 0 such`);
    expect(message).toContain("ping_pong");
  });

  it("reads what analyze reads: here canonical events, under a config", async () => {
    const events = Array.from({ length: 6 }, (_, i) => ({ type: "tool_call", id: `c${i}`, tool: "exec", args: { command: "make" } }) as const);
    await expect(events).toHaveLoopFinding({ detector: "generic_repeat", level: "warning", call: 4 }, { set: { warningThreshold: 3, criticalThreshold: 8 } });
  });
});
