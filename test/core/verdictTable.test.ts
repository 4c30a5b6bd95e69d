/**
 * The eight-row verdict table (detection.md "The rolling detectors"): each row, first match wins,
 * the detectors.* switches, and rows 1-2 that no switch controls. Driven through `evaluate` on
 * measured signals, so every row can be reached in isolation.
 */
import { describe, expect, it } from "vitest";
import { evaluate as evaluateUnder, VERDICT_TABLE, type Signals, type VerdictLimits } from "../../src/core/detectors.js";
import { NO_CHURN } from "../../src/core/profiles/newest/argumentChurn.js";
import { CONFIGURABLE_VERDICTS } from "../../src/core/profiles/configurable.js";
import { NEWEST_FIXED } from "../../src/core/profiles/newest/config.js";
import { NEWEST_VERDICTS } from "../../src/core/profiles/newest/verdicts.js";
import { configWith } from "../helpers/replay.js";

/** The default generation's table (the one detection.md describes). */
const evaluate = (s: Signals, limits: VerdictLimits) => evaluateUnder(s, limits, CONFIGURABLE_VERDICTS);

const quiet: Signals = {
  tool: "read",
  knownPoll: false,
  unknownStreak: 0,
  unknownTool: undefined,
  noProgress: 0,
  pingPong: 0,
  pingPongNoProgress: false,
  recentCount: 0,
  churn: NO_CHURN,
};
const signals = (over: Partial<Signals>): Signals => ({ ...quiet, ...over });
const defaults = configWith();
const allOff = configWith({ detectors: { genericRepeat: false, knownPollNoProgress: false, pingPong: false } });

/** [detector, level, count, threshold name] of the verdict, or undefined. */
function verdict(over: Partial<Signals>, config = defaults) {
  const v = evaluate(signals(over), config);
  return v && [v.detector, v.level, v.count, v.threshold.name];
}

describe("the table", () => {
  it("has the spec's eight rows in order, and the newest generation's churn row before the generic warning", () => {
    const rows = (list: ReadonlyArray<{ detector: string; level: string }>) => list.map((row) => `${row.detector}/${row.level}`);
    expect(rows(VERDICT_TABLE)).toEqual(rows(NEWEST_VERDICTS.rows));
    expect(rows(NEWEST_VERDICTS.rows).filter((row) => row !== "argument_churn/warning")).toEqual(rows(CONFIGURABLE_VERDICTS.rows));
    expect(rows(CONFIGURABLE_VERDICTS.rows)).toEqual([
      "unknown_tool_repeat/critical",
      "global_circuit_breaker/critical",
      "known_poll_no_progress/critical",
      "known_poll_no_progress/warning",
      "ping_pong/critical",
      "ping_pong/warning",
      "generic_repeat/critical",
      "generic_repeat/warning",
    ]);
  });

  it("a call with no repeats passes silently", () => {
    expect(evaluate(quiet, defaults)).toBeUndefined();
  });
});

describe("the newest generation's differences", () => {
  const newest = (over: Partial<Signals>) => evaluateUnder(signals(over), NEWEST_FIXED, NEWEST_VERDICTS);

  it("words the generic block by its outcomes, and every other row as the table does", () => {
    expect(newest({ noProgress: 20, recentCount: 20 })?.message).toMatch(/^CRITICAL: Called read with identical outcomes 20 times/);
    expect(newest({ recentCount: 10 })?.message).toBe(evaluate(signals({ recentCount: 10 }), defaults)?.message);
  });

  it("warns of argument churn between the generic block and the generic warning; the default generation has no such row", () => {
    const churn = { kind: "no-progress", count: 12, variants: 3 } as const;
    expect(newest({ churn, recentCount: 15 })).toMatchObject({ detector: "argument_churn", level: "warning", count: 12, threshold: { name: "warningThreshold", value: 10 } });
    expect(newest({ churn, recentCount: 15, noProgress: 20 })?.detector).toBe("generic_repeat");
    expect(newest({ churn })?.message).toMatch(/^WARNING: read has cycled through 3 repeated argument patterns with the same stable outcome 12 times/);
    expect(verdict({ churn })).toBeUndefined();
  });
});

describe("each row at its threshold, and what one less gives", () => {
  it.each<[string, Partial<Signals>, unknown[], Partial<Signals>, unknown[] | undefined]>([
    ["1 unknown_tool_repeat", { unknownStreak: 10, unknownTool: "browser" }, ["unknown_tool_repeat", "critical", 10, "unknownToolThreshold"], { unknownStreak: 9 }, undefined],
    ["2 global_circuit_breaker", { noProgress: 30, recentCount: 30 }, ["global_circuit_breaker", "critical", 30, "globalCircuitBreakerThreshold"], { noProgress: 29, recentCount: 29 }, ["generic_repeat", "critical", 29, "criticalThreshold"]],
    ["3 known poll critical", { knownPoll: true, noProgress: 20 }, ["known_poll_no_progress", "critical", 20, "criticalThreshold"], { knownPoll: true, noProgress: 19 }, ["known_poll_no_progress", "warning", 19, "warningThreshold"]],
    ["4 known poll warning", { knownPoll: true, noProgress: 10 }, ["known_poll_no_progress", "warning", 10, "warningThreshold"], { knownPoll: true, noProgress: 9 }, undefined],
    ["5 ping_pong critical", { pingPong: 20, pingPongNoProgress: true }, ["ping_pong", "critical", 20, "criticalThreshold"], { pingPong: 19, pingPongNoProgress: true }, ["ping_pong", "warning", 19, "warningThreshold"]],
    ["6 ping_pong warning", { pingPong: 10 }, ["ping_pong", "warning", 10, "warningThreshold"], { pingPong: 9 }, undefined],
    ["7 generic critical", { noProgress: 20, recentCount: 20 }, ["generic_repeat", "critical", 20, "criticalThreshold"], { noProgress: 19, recentCount: 19 }, ["generic_repeat", "warning", 19, "warningThreshold"]],
    ["8 generic warning", { recentCount: 10 }, ["generic_repeat", "warning", 10, "warningThreshold"], { recentCount: 9 }, undefined],
  ])("row %s", (_name, at, expected, below, belowExpected) => {
    expect(verdict(at)).toEqual(expected);
    expect(verdict(below)).toEqual(belowExpected);
  });

  it("reads the thresholds from the config and reports the value crossed", () => {
    const config = configWith({ warningThreshold: 3, criticalThreshold: 5, unknownToolThreshold: 2, globalCircuitBreakerThreshold: 7 });
    expect(evaluate(signals({ recentCount: 3 }), config)?.threshold).toEqual({ name: "warningThreshold", value: 3 });
    expect(evaluate(signals({ noProgress: 5, recentCount: 5 }), config)?.threshold).toEqual({ name: "criticalThreshold", value: 5 });
    expect(evaluate(signals({ unknownStreak: 2 }), config)?.threshold).toEqual({ name: "unknownToolThreshold", value: 2 });
    expect(evaluate(signals({ noProgress: 7 }), config)?.threshold).toEqual({ name: "globalCircuitBreakerThreshold", value: 7 });
  });

  it("the count is the signal, not the threshold", () => {
    expect(verdict({ recentCount: 17 })).toEqual(["generic_repeat", "warning", 17, "warningThreshold"]);
    expect(verdict({ knownPoll: true, noProgress: 24 })).toEqual(["known_poll_no_progress", "critical", 24, "criticalThreshold"]);
  });

  it("messages read like the runtime's and name the unavailable tool", () => {
    expect(evaluate(signals({ unknownStreak: 10, unknownTool: "browser" }), defaults)?.message).toMatch(/^CRITICAL: attempted unavailable tool browser 10 times/);
    expect(evaluate(signals({ tool: "process", knownPoll: true, noProgress: 20 }), defaults)?.message).toMatch(
      /^CRITICAL: Called process with identical arguments and no progress 20 times/,
    );
    expect(evaluate(signals({ recentCount: 10 }), defaults)?.message).toMatch(/^WARNING: You have called read 10 times/);
  });
});

describe("row-specific conditions", () => {
  it("ping-pong critical needs no-progress evidence; without it the same count is a warning", () => {
    expect(verdict({ pingPong: 25 })).toEqual(["ping_pong", "warning", 25, "warningThreshold"]);
  });

  it("known-poll rows count the no-progress streak, not recent repeats", () => {
    expect(verdict({ knownPoll: true, recentCount: 25, noProgress: 3 })).toBeUndefined();
  });

  it("generic warnings count recent repeats whatever their outcome; the block needs the streak", () => {
    expect(verdict({ recentCount: 25, noProgress: 1 })).toEqual(["generic_repeat", "warning", 25, "warningThreshold"]);
    expect(verdict({ recentCount: 25, noProgress: 20 })).toEqual(["generic_repeat", "critical", 20, "criticalThreshold"]);
  });

  it("generic rows never fire for known polls", () => {
    expect(verdict({ knownPoll: true, recentCount: 25, noProgress: 9 })).toBeUndefined();
  });
});

describe("first match wins", () => {
  it.each<[string, Partial<Signals>, string]>([
    ["1 over 2", { unknownStreak: 10, noProgress: 30, recentCount: 30 }, "unknown_tool_repeat/critical"],
    ["2 over 3", { knownPoll: true, noProgress: 30 }, "global_circuit_breaker/critical"],
    ["2 over 5", { noProgress: 30, pingPong: 30, pingPongNoProgress: true }, "global_circuit_breaker/critical"],
    ["3 over 5", { knownPoll: true, noProgress: 20, pingPong: 25, pingPongNoProgress: true }, "known_poll_no_progress/critical"],
    ["4 over 5", { knownPoll: true, noProgress: 10, pingPong: 25, pingPongNoProgress: true }, "known_poll_no_progress/warning"],
    ["5 over 7", { noProgress: 20, recentCount: 20, pingPong: 20, pingPongNoProgress: true }, "ping_pong/critical"],
    ["6 over 7", { noProgress: 25, recentCount: 25, pingPong: 10 }, "ping_pong/warning"],
    ["7 over 8", { noProgress: 20, recentCount: 25 }, "generic_repeat/critical"],
  ])("row %s", (_name, over, expected) => {
    const v = evaluate(signals(over), defaults);
    expect(v && `${v.detector}/${v.level}`).toBe(expected);
  });
});

describe("detector switches", () => {
  it("knownPollNoProgress off: a stuck poll falls through to ping-pong, never to the generic rows", () => {
    const config = configWith({ detectors: { knownPollNoProgress: false } });
    expect(verdict({ knownPoll: true, noProgress: 25, recentCount: 25 }, config)).toBeUndefined();
    expect(verdict({ knownPoll: true, noProgress: 25, pingPong: 12 }, config)).toEqual(["ping_pong", "warning", 12, "warningThreshold"]);
  });

  it("pingPong off: the generic rows decide", () => {
    const config = configWith({ detectors: { pingPong: false } });
    expect(verdict({ pingPong: 25, pingPongNoProgress: true }, config)).toBeUndefined();
    expect(verdict({ pingPong: 25, pingPongNoProgress: true, recentCount: 11 }, config)).toEqual(["generic_repeat", "warning", 11, "warningThreshold"]);
  });

  it("genericRepeat off: both generic rows are silent", () => {
    const config = configWith({ detectors: { genericRepeat: false } });
    expect(verdict({ noProgress: 25, recentCount: 25 }, config)).toBeUndefined();
  });

  it("all off leaves rows 1 and 2 in force", () => {
    expect(verdict({ unknownStreak: 10 }, allOff)).toEqual(["unknown_tool_repeat", "critical", 10, "unknownToolThreshold"]);
    expect(verdict({ noProgress: 30, recentCount: 30 }, allOff)).toEqual(["global_circuit_breaker", "critical", 30, "globalCircuitBreakerThreshold"]);
    expect(verdict({ knownPoll: true, noProgress: 30 }, allOff)).toEqual(["global_circuit_breaker", "critical", 30, "globalCircuitBreakerThreshold"]);
    expect(verdict({ knownPoll: true, noProgress: 29, pingPong: 29, pingPongNoProgress: true, recentCount: 29 }, allOff)).toBeUndefined();
  });
});
