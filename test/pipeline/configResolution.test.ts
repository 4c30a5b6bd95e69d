/** resolveConfig: field-by-field merge, positive-integer fallback, ordering clamps, sources and notices. */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, guardOn, resolveConfig, rollingDetectorsOn, type RawBlock } from "../../src/core/config.js";

const global = (values: Record<string, unknown>): RawBlock => ({ origin: "cfg.json5", where: "tools.loopDetection", source: "global", values });
const agent = (values: Record<string, unknown>, id = "safe-runner"): RawBlock => ({
  origin: "cfg.json5",
  where: "agents.list[1].tools.loopDetection",
  agent: id,
  source: "agent",
  values,
});
const set = (values: Record<string, unknown>): RawBlock => ({ origin: "--set", source: "--set", values });

describe("merge", () => {
  it("uses the documented defaults, with `enabled` unset, when no block is given", () => {
    const { config, sources, notices } = resolveConfig([]);
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(config.enabled).toBeUndefined();
    expect(Object.values(sources).every((s) => s === "default")).toBe(true);
    expect(notices).toEqual([]);
  });

  it("lets the agent block win field by field over the global one", () => {
    const { config, sources } = resolveConfig([
      global({ enabled: true, warningThreshold: 12, historySize: 40 }),
      agent({ warningThreshold: 8, criticalThreshold: 16 }),
    ]);
    expect(config).toMatchObject({ enabled: true, historySize: 40, warningThreshold: 8, criticalThreshold: 16, globalCircuitBreakerThreshold: 30 });
    expect(sources).toMatchObject({ enabled: "global", historySize: "global", warningThreshold: "agent", criticalThreshold: "agent", globalCircuitBreakerThreshold: "default" });
  });

  it("merges detectors and postCompactionGuard one level deeper", () => {
    const { config, sources } = resolveConfig([
      global({ detectors: { genericRepeat: false, pingPong: false }, postCompactionGuard: { windowSize: 5 } }),
      agent({ detectors: { pingPong: true }, postCompactionGuard: {} }),
    ]);
    expect(config.detectors).toEqual({ genericRepeat: false, knownPollNoProgress: true, pingPong: true });
    expect(config.postCompactionGuard.windowSize).toBe(5);
    expect(sources).toMatchObject({ "detectors.genericRepeat": "global", "detectors.knownPollNoProgress": "default", "detectors.pingPong": "agent", "postCompactionGuard.windowSize": "global" });
  });

  it("uses a lone agent block as is", () => {
    const { config, sources } = resolveConfig([agent({ enabled: false, unknownToolThreshold: 4 })]);
    expect(config).toMatchObject({ enabled: false, unknownToolThreshold: 4, warningThreshold: 10 });
    expect(sources.unknownToolThreshold).toBe("agent");
  });

  it("applies --set last", () => {
    const { config, sources } = resolveConfig([global({ criticalThreshold: 25 }), agent({ criticalThreshold: 15 }), set({ criticalThreshold: 12 })]);
    expect(config.criticalThreshold).toBe(12);
    expect(sources.criticalThreshold).toBe("--set");
  });

  it("ignores inherited properties: a `__proto__` key is data", () => {
    const values = JSON.parse('{"__proto__": {"enabled": false, "warningThreshold": 2}, "constructor": {"x": 1}}') as Record<string, unknown>;
    const { config, notices } = resolveConfig([global(values)]);
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(notices).toEqual([]);
  });
});

describe("enabled", () => {
  it("unset: rolling detectors off, guard on; true: both on; false: both off", () => {
    const unset = resolveConfig([global({})]).config;
    const on = resolveConfig([global({ enabled: true })]).config;
    const off = resolveConfig([global({ enabled: false })]).config;
    expect([rollingDetectorsOn(unset), guardOn(unset)]).toEqual([false, true]);
    expect([rollingDetectorsOn(on), guardOn(on)]).toEqual([true, true]);
    expect([rollingDetectorsOn(off), guardOn(off)]).toEqual([false, false]);
  });

  it("an agent's explicit false turns its guard off even when the global block enables everything", () => {
    const { config, sources } = resolveConfig([global({ enabled: true }), agent({ enabled: false })]);
    expect(guardOn(config)).toBe(false);
    expect(sources.enabled).toBe("agent");
  });
});

describe("positive integers only", () => {
  it.each([0, -3, 2.5, "12", null, true, [], {}])("%j falls back to the default with a notice naming file, field, value and value used", (bad) => {
    const { config, sources, notices } = resolveConfig([global({ warningThreshold: bad })]);
    expect(config.warningThreshold).toBe(10);
    expect(sources.warningThreshold).toBe("default");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.origin).toBe("cfg.json5");
    expect(notices[0]!.key).toBe("tools.loopDetection.warningThreshold");
    expect(notices[0]!.message).toMatch(/^tools\.loopDetection\.warningThreshold: .+ is not a positive integer; using the default 10$/);
  });

  it("accepts 1.0 as the integer 1 (JavaScript sees one number)", () => {
    expect(resolveConfig([global({ historySize: 1.0 })]).config.historySize).toBe(1);
  });

  it("an invalid agent value replaces a valid global one and falls back to the default, as the runtime's spread does", () => {
    const { config, notices } = resolveConfig([global({ criticalThreshold: 25 }), agent({ criticalThreshold: "x" })]);
    expect(config.criticalThreshold).toBe(20);
    expect(notices.map((n) => n.message)).toEqual(['agents.list[1].tools.loopDetection.criticalThreshold: "x" is not a positive integer; using the default 20']);
  });

  it("an invalid global value overridden later is still reported, naming what overrides it", () => {
    const { config, notices } = resolveConfig([global({ historySize: 0 }), set({ historySize: 5 })]);
    expect(config.historySize).toBe(5);
    expect(notices.map((n) => n.message)).toEqual(["tools.loopDetection.historySize: 0 is not a positive integer; overridden by --set"]);
  });

  it("checks postCompactionGuard.windowSize like the other numbers", () => {
    const { config, notices } = resolveConfig([global({ postCompactionGuard: { windowSize: -1 } })]);
    expect(config.postCompactionGuard.windowSize).toBe(3);
    expect(notices[0]!.message).toBe("tools.loopDetection.postCompactionGuard.windowSize: -1 is not a positive integer; using the default 3");
  });
});

describe("ordering clamps", () => {
  it("raises critical above warning, then the breaker above the new critical, a notice for each", () => {
    const { config, sources, notices } = resolveConfig([global({ warningThreshold: 30, criticalThreshold: 5, globalCircuitBreakerThreshold: 31 })]);
    expect(config).toMatchObject({ warningThreshold: 30, criticalThreshold: 31, globalCircuitBreakerThreshold: 32 });
    expect(sources).toMatchObject({ warningThreshold: "global", criticalThreshold: "adjusted", globalCircuitBreakerThreshold: "adjusted" });
    expect(notices.map((n) => [n.origin, n.key, n.message])).toEqual([
      ["cfg.json5", "criticalThreshold", "criticalThreshold 5 is not above warningThreshold 30; raised to 31"],
      ["cfg.json5", "globalCircuitBreakerThreshold", "globalCircuitBreakerThreshold 31 is not above criticalThreshold 31; raised to 32"],
    ]);
  });

  it("clamps after defaults: a warning above the default critical moves critical, and the breaker only if needed", () => {
    const { config, notices } = resolveConfig([global({ warningThreshold: 20 })]);
    expect(config).toMatchObject({ criticalThreshold: 21, globalCircuitBreakerThreshold: 30 });
    expect(notices).toHaveLength(1);
  });

  it("clamps equal values too (critical must be strictly above warning)", () => {
    expect(resolveConfig([global({ warningThreshold: 7, criticalThreshold: 7 })]).config.criticalThreshold).toBe(8);
    expect(resolveConfig([global({ criticalThreshold: 30 })]).config.globalCircuitBreakerThreshold).toBe(31);
  });

  it("clamps against the fallback value when the written one was invalid", () => {
    const { config, notices } = resolveConfig([global({ warningThreshold: 25, criticalThreshold: 0 })]);
    expect(config.criticalThreshold).toBe(26);
    expect(notices.map((n) => n.key)).toEqual(["tools.loopDetection.criticalThreshold", "criticalThreshold"]);
  });

  it("never adjusts historySize or unknownToolThreshold", () => {
    const { config, notices } = resolveConfig([global({ historySize: 1, unknownToolThreshold: 1, warningThreshold: 50 })]);
    expect(config).toMatchObject({ historySize: 1, unknownToolThreshold: 1 });
    expect(notices.map((n) => n.key)).toEqual(["criticalThreshold", "globalCircuitBreakerThreshold"]);
  });

  it("names the agent when its override causes the clamp", () => {
    const { notices } = resolveConfig([global({ criticalThreshold: 12 }), agent({ warningThreshold: 12 }, "tight")]);
    expect(notices.map((n) => n.message)).toEqual(["agent tight: criticalThreshold 12 is not above warningThreshold 12; raised to 13"]);
  });

  it("does not name the agent when the global block alone causes it", () => {
    const { notices } = resolveConfig([global({ warningThreshold: 20 }), agent({ detectors: { pingPong: false } })]);
    expect(notices.map((n) => n.message)).toEqual(["criticalThreshold 20 is not above warningThreshold 20; raised to 21"]);
  });
});
