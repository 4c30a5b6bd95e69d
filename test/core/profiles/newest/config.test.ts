/** How the newest generation reads tools.loopDetection (generations.md §1): only `enabled`, everything else reported as ignored. */
import { describe, expect, it } from "vitest";
import type { RawBlock } from "../../../../src/core/config.js";
import { NEWEST_FIXED, resolveNewestConfig } from "../../../../src/core/profiles/newest/config.js";

const block = (values: Record<string, unknown>, extra: Partial<RawBlock> = {}): RawBlock => ({ origin: "openclaw.json", where: "tools.loopDetection", source: "global", values, ...extra });

describe("resolveNewestConfig", () => {
  it("keeps the fixed thresholds 30/10/20/10/30 whatever the file says", () => {
    const { config } = resolveNewestConfig([block({ enabled: true, historySize: 5, warningThreshold: 2, criticalThreshold: 3, unknownToolThreshold: 4, globalCircuitBreakerThreshold: 6 })]);
    expect([config.historySize, config.warningThreshold, config.criticalThreshold, config.unknownToolThreshold, config.globalCircuitBreakerThreshold]).toEqual([30, 10, 20, 10, 30]);
    expect(config.enabled).toBe(true);
  });

  it("reports each ignored field once, naming the file and the field", () => {
    const { notices } = resolveNewestConfig([block({ criticalThreshold: 12, detectors: { pingPong: false }, postCompactionGuard: { windowSize: 5 } })]);
    expect(notices.map((n) => [n.origin, n.key])).toEqual([
      ["openclaw.json", "tools.loopDetection.criticalThreshold"],
      ["openclaw.json", "tools.loopDetection.detectors.pingPong"],
      ["openclaw.json", "tools.loopDetection.postCompactionGuard.windowSize"],
    ]);
    expect(notices.every((n) => n.message.includes("ignored by the newest OpenClaw build"))).toBe(true);
  });

  it("has no toggles: every detector stays on", () => {
    expect(resolveNewestConfig([block({ detectors: { genericRepeat: false } })]).config.detectors).toEqual(NEWEST_FIXED.detectors);
  });

  it("merges per agent keeping only enabled: the agent's value, else the global one", () => {
    const global = block({ enabled: true, criticalThreshold: 40 });
    const agentOff = block({ enabled: false }, { where: "agents.list[0].tools.loopDetection", source: "agent", agent: "a" });
    const agentSilent = block({ warningThreshold: 3 }, { where: "agents.list[1].tools.loopDetection", source: "agent", agent: "b" });
    expect(resolveNewestConfig([global, agentOff]).config.enabled).toBe(false);
    expect(resolveNewestConfig([global, agentSilent]).config.enabled).toBe(true);
    expect(resolveNewestConfig([global, agentSilent]).config.warningThreshold).toBe(10);
  });

  it("leaves enabled unset when no block sets it (detection off, guard on)", () => {
    expect(resolveNewestConfig([block({})]).config.enabled).toBeUndefined();
  });

  it("marks every ignored key's source as fixed", () => {
    const { sources } = resolveNewestConfig([block({ enabled: true })]);
    expect(sources.criticalThreshold).toBe("fixed");
    expect(sources["postCompactionGuard.windowSize"]).toBe("fixed");
    expect(sources.enabled).toBe("global");
  });
});
