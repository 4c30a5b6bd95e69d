import { describe, expect, it } from "vitest";
import "looplens/vitest";

describe("agent transcripts", () => {
  it("the healthy fixture has no loop findings", async () => {
    await expect("fixtures/healthy.jsonl").toHaveNoLoopFindings({ atOrAbove: "warning" });
  });

  it("the stuck fixture is blocked by the ping-pong detector at call 20", async () => {
    await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
  });

  it("raising the thresholds lets it through", async () => {
    const config = { enabled: true, warningThreshold: 30, criticalThreshold: 40 };
    await expect("fixtures/ping-pong.jsonl").toHaveNoLoopFindings({ config });
  });
});
