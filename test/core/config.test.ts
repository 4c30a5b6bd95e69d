/** Config resolution (detection.md "Configuration"): defaults, fallback, clamping, merge, `enabled`. */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, guardOn, resolveConfig, rollingDetectorsOn, type RawBlock } from "../../src/core/config.js";

const global = (values: Record<string, unknown>): RawBlock => ({ origin: "openclaw.json", source: "global", values });
const agent = (values: Record<string, unknown>): RawBlock => ({ origin: "openclaw.json", source: "agent", values });
const resolve = (...blocks: RawBlock[]) => resolveConfig(blocks);

const NUMERIC = {
  historySize: 30,
  warningThreshold: 10,
  criticalThreshold: 20,
  unknownToolThreshold: 10,
  globalCircuitBreakerThreshold: 30,
} as const;

describe("defaults", () => {
  it("are the documented values, with enabled unset and no notices", () => {
    const { config, notices, sources } = resolve();
    expect(config).toEqual({
      enabled: undefined,
      ...NUMERIC,
      detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
      postCompactionGuard: { windowSize: 3 },
    });
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(notices).toEqual([]);
    expect(Object.values(sources).every((source) => source === "default")).toBe(true);
  });

  it("an empty block changes nothing", () => {
    expect(resolve(global({})).config).toEqual(DEFAULT_CONFIG);
  });
});

describe("numeric fields", () => {
  it("accept positive integers as written", () => {
    const values = { historySize: 1, warningThreshold: 2, criticalThreshold: 3, unknownToolThreshold: 1, globalCircuitBreakerThreshold: 4 };
    const { config, notices, sources } = resolve(global({ ...values, postCompactionGuard: { windowSize: 7 } }));
    expect(config).toMatchObject({ ...values, postCompactionGuard: { windowSize: 7 } });
    expect(notices).toEqual([]);
    expect(sources["historySize"]).toBe("global");
    expect(sources["postCompactionGuard.windowSize"]).toBe("global");
  });

  it.each([0, -1, 2.5, "12", null, true, [5], { n: 5 }].map((bad) => [bad]))("fall back to the default on %j, with a notice naming file, field and value used", (bad) => {
    for (const [field, fallback] of Object.entries({ ...NUMERIC, "postCompactionGuard.windowSize": 3 })) {
      const values = field.startsWith("postCompactionGuard.") ? { postCompactionGuard: { windowSize: bad } } : { [field]: bad };
      const { config, notices, sources } = resolve(global(values));
      const value = field.startsWith("postCompactionGuard.") ? config.postCompactionGuard.windowSize : config[field as keyof typeof NUMERIC];
      expect(value).toBe(fallback);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ origin: "openclaw.json", key: field });
      expect(notices[0]!.message).toContain(field);
      expect(notices[0]!.message).toContain(String(fallback));
      expect(sources[field]).toBe("default");
    }
  });
});

describe("clamping", () => {
  it("raises criticalThreshold above warningThreshold, with a notice", () => {
    const { config, notices, sources } = resolve(global({ warningThreshold: 25 }));
    expect(config.criticalThreshold).toBe(26);
    expect(config.globalCircuitBreakerThreshold).toBe(30);
    expect(notices.map((n) => n.key)).toEqual(["criticalThreshold"]);
    expect(sources["criticalThreshold"]).toBe("adjusted");
  });

  it("equal is not above", () => {
    expect(resolve(global({ warningThreshold: 12, criticalThreshold: 12 })).config.criticalThreshold).toBe(13);
    expect(resolve(global({ criticalThreshold: 30 })).config.globalCircuitBreakerThreshold).toBe(31);
  });

  it("clamps critical first, then the breaker against the new critical", () => {
    const { config, notices } = resolve(global({ warningThreshold: 29 }));
    expect(config).toMatchObject({ warningThreshold: 29, criticalThreshold: 30, globalCircuitBreakerThreshold: 31 });
    expect(notices.map((n) => n.key)).toEqual(["criticalThreshold", "globalCircuitBreakerThreshold"]);
    expect(notices[1]!.message).toContain("31");
  });

  it("applies after defaults: an invalid warning falls back to 10 before critical is compared", () => {
    const { config, notices } = resolve(global({ warningThreshold: 0, criticalThreshold: 5 }));
    expect(config).toMatchObject({ warningThreshold: 10, criticalThreshold: 11, globalCircuitBreakerThreshold: 30 });
    expect(notices.map((n) => n.key)).toEqual(["warningThreshold", "criticalThreshold"]);
  });

  it("never adjusts historySize or unknownToolThreshold", () => {
    const { config, notices } = resolve(global({ historySize: 1, unknownToolThreshold: 500 }));
    expect(config).toMatchObject({ historySize: 1, unknownToolThreshold: 500 });
    expect(notices).toEqual([]);
  });
});

describe("agent over global", () => {
  it("the agent block wins field by field; detectors and postCompactionGuard merge one level deeper", () => {
    const { config, sources } = resolve(
      global({ enabled: true, warningThreshold: 5, historySize: 40, detectors: { pingPong: false, genericRepeat: false }, postCompactionGuard: { windowSize: 4 } }),
      agent({ criticalThreshold: 8, historySize: 50, detectors: { pingPong: true } }),
    );
    expect(config).toEqual({
      enabled: true,
      historySize: 50,
      warningThreshold: 5,
      criticalThreshold: 8,
      unknownToolThreshold: 10,
      globalCircuitBreakerThreshold: 30,
      detectors: { genericRepeat: false, knownPollNoProgress: true, pingPong: true },
      postCompactionGuard: { windowSize: 4 },
    });
    expect(sources).toMatchObject({
      enabled: "global",
      historySize: "agent",
      warningThreshold: "global",
      criticalThreshold: "agent",
      "detectors.pingPong": "agent",
      "detectors.genericRepeat": "global",
      "detectors.knownPollNoProgress": "default",
      "postCompactionGuard.windowSize": "global",
    });
  });

  it("an agent's empty detectors or guard block does not erase the global one", () => {
    const { config } = resolve(global({ detectors: { knownPollNoProgress: false }, postCompactionGuard: { windowSize: 6 } }), agent({ detectors: {}, postCompactionGuard: {} }));
    expect(config.detectors.knownPollNoProgress).toBe(false);
    expect(config.postCompactionGuard.windowSize).toBe(6);
  });

  it("an invalid agent value wins the merge, then falls back to the default", () => {
    const { config, notices } = resolve(global({ warningThreshold: 5 }), { ...agent({ warningThreshold: -3 }), origin: "agent.json" });
    expect(config.warningThreshold).toBe(10);
    expect(notices).toEqual([expect.objectContaining({ origin: "agent.json", key: "warningThreshold" })]);
  });

  it("either block alone is used as is", () => {
    expect(resolve(agent({ warningThreshold: 3 })).config.warningThreshold).toBe(3);
    expect(resolve(global({ warningThreshold: 3 })).config.warningThreshold).toBe(3);
  });

  it("the agent's enabled overrides the global one", () => {
    expect(resolve(global({ enabled: true }), agent({ enabled: false })).config.enabled).toBe(false);
    expect(resolve(global({ enabled: false }), agent({ enabled: true })).config.enabled).toBe(true);
    expect(resolve(global({ enabled: false }), agent({})).config.enabled).toBe(false);
  });
});

describe("enabled", () => {
  it("unset: rolling detectors off, guard (and recording) on", () => {
    const { config } = resolve(global({}));
    expect([rollingDetectorsOn(config), guardOn(config)]).toEqual([false, true]);
  });

  it("true: both on", () => {
    const { config } = resolve(global({ enabled: true }));
    expect([rollingDetectorsOn(config), guardOn(config)]).toEqual([true, true]);
  });

  it("false: both off", () => {
    const { config } = resolve(global({ enabled: false }));
    expect([rollingDetectorsOn(config), guardOn(config)]).toEqual([false, false]);
  });
});
