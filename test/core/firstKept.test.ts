/** Keeping the first few items in an order, one at a time (core/firstKept.ts); worstOf is tested on it in worstFirst.test.ts. */
import { describe, expect, it } from "vitest";
import { FirstKept } from "../../src/core/firstKept.js";

describe("FirstKept", () => {
  it("keeps the first items by key, ties in the order offered, whatever the item kept", () => {
    const keeper = new FirstKept<string, number>(3, (a, b) => a - b);
    const offered: Array<[string, number]> = [["a", 5], ["b", 1], ["c", 5], ["d", 1], ["e", 0], ["f", 1]];
    for (const [item, key] of offered) keeper.offer(item, key);
    expect(keeper.items()).toEqual(["e", "b", "d"]);
    // A key equal to the last kept one comes later, so it would not be kept; a smaller one would.
    expect(keeper.wouldKeep(1)).toBe(false);
    expect(keeper.wouldKeep(0)).toBe(true);
    expect(new FirstKept<string, number>(0, (a, b) => a - b).wouldKeep(-1)).toBe(false);
  });
});
