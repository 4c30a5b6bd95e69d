/** Normalised usage and its sums (core/usage.ts): absent is never 0, total from the parts, JSON shape. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addUsage, EMPTY_SUM, isEmpty, mergeSums, normaliseUsage, uncachedInput, usageJson, type Usage, type UsageSum } from "../../src/core/usage.js";
import { usageArbitrary } from "../helpers/usageArbitrary.js";

const sumOf = (turns: readonly (Usage | undefined)[]): UsageSum => turns.reduce<UsageSum>(addUsage, EMPTY_SUM);

describe("normaliseUsage", () => {
  it("keeps what was recorded, fills total from the parts, and drops what is not a count", () => {
    expect(normaliseUsage({ input: 10, output: 5, cacheRead: 0 })).toEqual({ input: 10, output: 5, cacheRead: 0, total: 15 });
    // A recorded total is the total, even when the parts say otherwise.
    expect(normaliseUsage({ input: 10, output: 5, total: 99 })).toEqual({ input: 10, output: 5, total: 99 });
    expect(normaliseUsage({ input: -1, output: Number.NaN, cacheWrite: "7", cost: 0 })).toEqual({ cost: 0 });
    expect(normaliseUsage({})).toBeUndefined();
    expect(normaliseUsage({ total: Infinity })).toBeUndefined();
  });

  it("keeps a recorded zero cost (a local model) apart from no cost", () => {
    expect(normaliseUsage({ output: 3, cost: 0 })?.cost).toBe(0);
    expect(normaliseUsage({ output: 3 })).not.toHaveProperty("cost");
  });
});

describe("uncachedInput", () => {
  it("takes the cached counts out of a prompt count, never below zero", () => {
    expect(uncachedInput(1_000, 600, undefined, 100)).toBe(300);
    expect(uncachedInput(10, 30)).toBe(0);
    expect(uncachedInput(undefined, 5)).toBeUndefined();
  });
});

describe("sums", () => {
  it("leave a field absent when no turn recorded it, and count turns that recorded nothing", () => {
    const sum = sumOf([{ input: 4, total: 4 }, undefined, { output: 2, total: 2 }]);
    expect(sum).toEqual({ turns: 3, tokenTurns: 2, costTurns: 0, input: 4, output: 2, total: 6 });
    expect(sum).not.toHaveProperty("cost");
    expect(sum).not.toHaveProperty("cacheRead");
  });

  it("add recorded costs only, and say how many turns recorded one", () => {
    const sum = sumOf([{ total: 10, cost: 0.5 }, { total: 20 }, { total: 5, cost: 0.25 }]);
    expect(sum.cost).toBe(0.75);
    expect(sum.costTurns).toBe(2);
    expect(usageJson(sum)).toEqual({ turns: 3, total: 35, cost: 0.75, turnsWithoutCost: 1 });
  });

  it("merge as if the turns of both had been added one by one", () => {
    fc.assert(
      fc.property(fc.array(fc.option(usageArbitrary, { nil: undefined })), fc.array(fc.option(usageArbitrary, { nil: undefined })), (a, b) => {
        // Tokens are integers, exact in any order; money only in the same order, so compare tokens and counts.
        const merged = mergeSums(sumOf(a), sumOf(b));
        const whole = sumOf([...a, ...b]);
        const { cost: mergedCost, ...mergedRest } = merged;
        const { cost: wholeCost, ...wholeRest } = whole;
        expect(mergedRest).toEqual(wholeRest);
        expect(mergedCost === undefined).toBe(wholeCost === undefined);
        if (mergedCost !== undefined) expect(mergedCost).toBeCloseTo(wholeCost!, 9);
      }),
    );
  });

  it("equal the per-field sums of the recording turns, left to right", () => {
    fc.assert(
      fc.property(fc.array(fc.option(usageArbitrary, { nil: undefined }), { maxLength: 30 }), (turns) => {
        const sum = sumOf(turns);
        expect(sum.turns).toBe(turns.length);
        for (const field of ["input", "output", "cacheRead", "cacheWrite", "total", "cost"] as const) {
          const recorded = turns.filter((t) => t?.[field] !== undefined).map((t) => t![field]!);
          if (recorded.length === 0) expect(sum).not.toHaveProperty(field);
          else expect(sum[field]).toBe(recorded.reduce((x, y) => x + y));
        }
        expect(isEmpty(sum)).toBe(turns.every((t) => t === undefined));
      }),
    );
  });
});

describe("usageJson", () => {
  it("writes the count, the token parts, total, cost, then the partial counts, in that order", () => {
    const sum = sumOf([{ cacheWrite: 1, cacheRead: 2, output: 3, input: 4, total: 10, cost: 1.5 }, undefined]);
    const json = usageJson(sum);
    expect(Object.keys(json)).toEqual(["turns", "input", "output", "cacheRead", "cacheWrite", "total", "cost", "turnsWithoutTokens", "turnsWithoutCost"]);
    expect(json).toEqual({ turns: 2, input: 4, output: 3, cacheRead: 2, cacheWrite: 1, total: 10, cost: 1.5, turnsWithoutTokens: 1, turnsWithoutCost: 1 });
  });

  it("writes no partial count for a figure no turn recorded, nor for one every turn did", () => {
    expect(usageJson(sumOf([{ total: 3, cost: 1 }, { total: 4, cost: 0 }]))).toEqual({ turns: 2, total: 7, cost: 1 });
    expect(usageJson(sumOf([undefined]))).toEqual({ turns: 1 });
    expect(usageJson(EMPTY_SUM)).toEqual({ turns: 0 });
  });
});
