/**
 * RecentIds (adapters/gateway/recentIds.ts) stands in for a Set that drops its oldest entry past a
 * limit: on any sequence of adds, deletes and lookups it must hold what that Set holds.
 */
import { describe, expect, it } from "vitest";
import { RecentIds } from "../../../src/adapters/gateway/recentIds.js";
import { prng } from "../../helpers/randomSessions.js";

function boundedSet(limit: number) {
  const set = new Set<string>();
  return {
    set,
    add(id: string) {
      set.add(id);
      if (set.size > limit) set.delete(set.values().next().value!);
    },
  };
}

describe("RecentIds", () => {
  it.each([1, 3, 16])("holds what a Set dropping its oldest past %i holds (random operations)", (limit) => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = prng(seed * 31 + limit);
      const ids = new RecentIds(limit);
      const reference = boundedSet(limit);
      for (let step = 0; step < 3000; step++) {
        const id = `id${Math.floor(random() * limit * 3)}`;
        const choice = random();
        if (choice < 0.5) {
          ids.add(id);
          reference.add(id);
        } else if (choice < 0.7) {
          ids.delete(id);
          reference.set.delete(id);
        } else expect(ids.has(id)).toBe(reference.set.has(id));
        expect(ids.size).toBe(reference.set.size);
      }
      for (const id of reference.set) expect(ids.has(id)).toBe(true);
    }
  });

  it("keeps its queue bounded when the same ids come and go without ever reaching the limit", () => {
    const ids = new RecentIds(1000);
    for (let i = 0; i < 100_000; i++) {
      ids.add("again");
      ids.delete("again");
    }
    ids.add("again");
    expect(ids.size).toBe(1);
    expect((ids as unknown as { queue: string[] }).queue.length).toBeLessThanOrEqual(2 * 1000 + 65);
  });

  it("lets go of the ids it dropped: a million ids added once each", () => {
    const ids = new RecentIds(1000);
    for (let i = 0; i < 1_000_000; i++) ids.add(`run-${i}`);
    expect(ids.size).toBe(1000);
    expect(ids.has("run-998999")).toBe(false);
    expect(ids.has("run-999000")).toBe(true);
    expect((ids as unknown as { queue: string[] }).queue.length).toBeLessThanOrEqual(2 * 1000 + 65);
  });
});
