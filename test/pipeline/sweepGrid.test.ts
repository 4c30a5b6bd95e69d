/** The --vary SPEC grammar, its errors, and the grid it spans. */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/pipeline/errors.js";
import { gridPoints, MAX_GRID_SIZE, parseAxes, parseVary } from "../../src/pipeline/sweepGrid.js";

const valuesOf = (option: string) => parseVary(option).values;

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("--vary SPEC grammar", () => {
  it("a range a..b:step is inclusive of b when b is on a step", () => {
    expect(valuesOf("criticalThreshold=10..30:5")).toEqual([10, 15, 20, 25, 30]);
    expect(valuesOf("criticalThreshold=10..28:5")).toEqual([10, 15, 20, 25]);
  });

  it("the step defaults to 1, a single-value range is one value, and a > b counts down", () => {
    expect(valuesOf("warningThreshold=3..6")).toEqual([3, 4, 5, 6]);
    expect(valuesOf("warningThreshold=7..7:3")).toEqual([7]);
    expect(valuesOf("criticalThreshold=30..20:5")).toEqual([30, 25, 20]);
  });

  it("a list keeps the order given and tolerates spaces", () => {
    expect(valuesOf("warningThreshold=8, 5,10")).toEqual([8, 5, 10]);
    expect(valuesOf("historySize=12")).toEqual([12]);
  });

  it("takes any numeric or boolean key, dotted", () => {
    expect(parseVary("postCompactionGuard.windowSize=2..4")).toEqual({ key: "postCompactionGuard.windowSize", values: [2, 3, 4] });
    expect(parseVary("detectors.pingPong=true,false")).toEqual({ key: "detectors.pingPong", values: [true, false] });
    expect(parseVary("enabled=false")).toEqual({ key: "enabled", values: [false] });
  });

  it.each([
    ["criticalThreshold", /expected NAME=SPEC/],
    ["=10..20", /expected NAME=SPEC/],
    ["criticalThreshold=", /no values/],
    ["criticalThreshold=10..30:0", /step "0" must be a positive integer/],
    ["criticalThreshold=10..30:-5", /step "-5" must be a positive integer/],
    ["criticalThreshold=10..30:", /step "" must be a positive integer/],
    ["criticalThreshold=10..30:x", /step "x" must be a positive integer/],
    ["criticalThreshold=0..10", /start 0 is not a positive integer/],
    ["criticalThreshold=-5..10", /start -5 is not a positive integer/],
    ["criticalThreshold=10..2.5", /expected a range/],
    ["criticalThreshold=10...20", /expected a range/],
    ["criticalThreshold=a..b", /start "a" is not an integer/],
    ["criticalThreshold=10,0", /value 0 is not a positive integer/],
    ["criticalThreshold=10,-1", /value -1 is not a positive integer/],
    ["criticalThreshold=10,2.5", /value "2.5" is not an integer/],
    ["criticalThreshold=10,,20", /empty value/],
    ["criticalThreshold=10,10", /10 is listed twice/],
    ["criticalThreshold=99999999999999999999", /not a positive integer/],
    ["criticalThreshhold=10", /unknown config key "criticalThreshhold" \(did you mean criticalThreshold\?\)/],
    ["detectors=true", /unknown config key "detectors"/],
    ["__proto__=1", /unknown config key "__proto__"/],
    ["detectors.pingPong=true..false", /is a boolean: list its values/],
    ["detectors.pingPong=1", /is a boolean: "1" is not true or false/],
    ["enabled=yes", /is a boolean/],
    [`criticalThreshold=1..${MAX_GRID_SIZE + 1}`, new RegExp(`${MAX_GRID_SIZE + 1} values; a sweep takes at most ${MAX_GRID_SIZE}`)],
    ["criticalThreshold=1..1000000000000", /values; a sweep takes at most/],
  ])("rejects %s", (option, message) => {
    const error = errorOf(() => parseVary(option));
    expect(error).toMatch(message);
    expect(error).toContain(`--vary ${JSON.stringify(option)}`);
  });
});

describe("the grid", () => {
  it("is the cross product, first --vary outermost and the last changing fastest", () => {
    const axes = parseAxes(["criticalThreshold=10..20:10", "warningThreshold=5,8", "detectors.pingPong=true,false"]);
    expect(gridPoints(axes)).toEqual([
      { criticalThreshold: 10, warningThreshold: 5, "detectors.pingPong": true },
      { criticalThreshold: 10, warningThreshold: 5, "detectors.pingPong": false },
      { criticalThreshold: 10, warningThreshold: 8, "detectors.pingPong": true },
      { criticalThreshold: 10, warningThreshold: 8, "detectors.pingPong": false },
      { criticalThreshold: 20, warningThreshold: 5, "detectors.pingPong": true },
      { criticalThreshold: 20, warningThreshold: 5, "detectors.pingPong": false },
      { criticalThreshold: 20, warningThreshold: 8, "detectors.pingPong": true },
      { criticalThreshold: 20, warningThreshold: 8, "detectors.pingPong": false },
    ]);
    expect(Object.keys(gridPoints(axes)[0]!)).toEqual(["criticalThreshold", "warningThreshold", "detectors.pingPong"]);
  });

  it("needs at least one --vary, each key once, and at most MAX_GRID_SIZE configs", () => {
    expect(errorOf(() => parseAxes([]))).toMatch(/at least one --vary/);
    expect(errorOf(() => parseAxes(["criticalThreshold=10", "criticalThreshold=20"]))).toMatch(/criticalThreshold is varied twice/);
    expect(errorOf(() => parseAxes(["criticalThreshold=1..100", "warningThreshold=1..11"]))).toMatch(/the grid has 1100 configs \(100 × 11\)/);
    expect(gridPoints(parseAxes(["criticalThreshold=1..100", "warningThreshold=1..10"]))).toHaveLength(MAX_GRID_SIZE);
  });
});
