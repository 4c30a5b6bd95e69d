/** Usage figures for people (reporters/usageText.ts): compact counts, money, "not recorded". */
import { describe, expect, it } from "vitest";
import { addUsage, EMPTY_SUM, type Usage, type UsageSum } from "../../src/core/usage.js";
import { compactCount, costText, moneyText, tokensText, usageSummary } from "../../src/reporters/usageText.js";

const sumOf = (...turns: (Usage | undefined)[]): UsageSum => turns.reduce<UsageSum>(addUsage, EMPTY_SUM);

describe("compactCount", () => {
  it.each([
    [0, "0"],
    [912, "912"],
    [999, "999"],
    [999.6, "1k"],
    [1000, "1k"],
    [1049, "1k"],
    [1050, "1.1k"],
    [4321, "4.3k"],
    [9949, "9.9k"],
    [9950, "10k"],
    [187_400, "187k"],
    [999_499, "999k"],
    // Rounds up to 1,000k: written in the next unit.
    [999_500, "1M"],
    [4_312_000, "4.3M"],
    [2_000_000, "2M"],
    [43_000_000, "43M"],
    [1_234_000_000, "1.2B"],
    [5e15, "5000T"],
  ])("%d → %s", (count, text) => {
    expect(compactCount(count)).toBe(text);
  });
});

describe("moneyText", () => {
  it.each([
    [0, "$0.00"],
    [12.4, "$12.40"],
    [0.01, "$0.01"],
    [0.004999, "$0.005"],
    [0.0031, "$0.0031"],
    [0.00314159, "$0.0031"],
    [0.0001, "$0.0001"],
    [0.00009, "<$0.0001"],
    [1234.5, "$1,234.50"],
    [1_234_567.891, "$1,234,567.89"],
    [-2.5, "-$2.50"],
  ])("%d → %s", (amount, text) => {
    expect(moneyText(amount)).toBe(text);
  });
});

describe("sums in words", () => {
  it("say 'not recorded' for what no turn recorded, never 0", () => {
    const none = sumOf(undefined, undefined);
    expect(tokensText(none)).toBe("not recorded");
    expect(costText(none)).toBe("not recorded");
    expect(usageSummary(none)).toBe("usage not recorded");
    expect(usageSummary(EMPTY_SUM)).toBe("usage not recorded");
  });

  it("show tokens alone when no money is recorded, and a recorded zero cost as $0.00", () => {
    expect(usageSummary(sumOf({ total: 4_300_000 }))).toBe("4.3M tokens");
    expect(usageSummary(sumOf({ total: 187_000, cost: 0 }))).toBe("187k tokens ($0.00)");
    expect(usageSummary(sumOf({ total: 4_300_000, cost: 12.4 }))).toBe("4.3M tokens ($12.40)");
    expect(usageSummary(sumOf({ cost: 1 }))).toBe("tokens not recorded ($1.00)");
  });

  it("say over how many turns a partial figure was recorded", () => {
    const sum = sumOf({ total: 900, cost: 0.5 }, { total: 100 }, undefined);
    expect(tokensText(sum)).toBe("1k in 2 of 3 turns");
    expect(costText(sum)).toBe("$0.50 in 1 of 3 turns");
    expect(usageSummary(sum)).toBe("1k tokens in 2 of 3 turns ($0.50 in 1 of 3 turns)");
  });
});
