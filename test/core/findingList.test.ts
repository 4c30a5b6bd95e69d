/**
 * The helpers that walk a run's findings where an array had a method (core/findingList.ts): the same
 * answers for an array and for a list that is only walked (as one read back from disk is).
 */
import { describe, expect, it } from "vitest";
import { batchesOf, filteredList, findIn, someOf, type FindingList } from "../../src/core/findingList.js";

/** A list that can only be walked, counting its walks. */
function walkedOnly(items: readonly number[]): FindingList<number> & { walks: number } {
  const list = {
    length: items.length,
    walks: 0,
    *[Symbol.iterator]() {
      list.walks++;
      yield* items;
    },
  };
  return list;
}

describe("finding list helpers", () => {
  const items = [1, 2, 3, 4, 5, 6, 7];

  it("find and test as an array's methods do", () => {
    for (const list of [items, walkedOnly(items)]) {
      expect(someOf(list, (n) => n > 6)).toBe(true);
      expect(someOf(list, (n) => n > 7)).toBe(false);
      expect(findIn(list, (n) => n % 3 === 0)).toBe(3);
      expect(findIn(list, (n) => n > 7)).toBeUndefined();
    }
  });

  it("filter an array into an array, and a walked list into a list that filters as it is walked", () => {
    expect(filteredList(items, (n) => n % 2 === 0)).toEqual([2, 4, 6]);
    const walked = walkedOnly(items);
    const even = filteredList(walked, (n) => n % 2 === 0);
    expect(Array.isArray(even)).toBe(false);
    expect(even.length).toBe(3);
    expect([...even]).toEqual([2, 4, 6]);
    expect([...even]).toEqual([2, 4, 6]);
    // Counted once, then walked again each time it is read.
    expect(walked.walks).toBe(3);
  });

  it("cut a list into batches of at most the size, in order", () => {
    expect([...batchesOf(walkedOnly(items), 3)]).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect([...batchesOf(items, 7)]).toEqual([items]);
    expect([...batchesOf([], 3)]).toEqual([]);
  });
});
