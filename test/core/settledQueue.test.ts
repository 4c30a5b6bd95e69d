import { describe, expect, it } from "vitest";
import { SettledQueue } from "../../src/core/settledQueue.js";

/** A tiny deterministic generator, so that a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("SettledQueue", () => {
  it("hands out only the settled front, in order", () => {
    const queue = new SettledQueue<string>();
    const out: string[] = [];
    for (const item of ["a", "b", "c"]) queue.push(item);
    queue.settle("b");
    queue.release((item) => out.push(item));
    expect(out).toEqual([]); // "a" is still open: "b" waits behind it
    queue.settle("a");
    queue.release((item) => out.push(item));
    expect(out).toEqual(["a", "b"]);
    expect(queue.drain()).toEqual(["c"]);
  });

  it("keeps an item that was settled and then reopened", () => {
    const queue = new SettledQueue<string>();
    const out: string[] = [];
    queue.push("a");
    queue.push("b");
    queue.settle("b");
    queue.unsettle("b");
    queue.settle("a");
    queue.release((item) => out.push(item));
    expect(out).toEqual(["a"]);
    expect(queue.drain()).toEqual(["b"]);
  });

  it("what leaves plus what is left is the order of arrival, over many random settlings", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      const queue = new SettledQueue<number>();
      const out: number[] = [];
      const n = 3000; // past the 1024 items after which the handed-out front is dropped
      for (let i = 0; i < n; i++) {
        queue.push(i);
        const earlier = Math.floor(next() * (i + 1));
        if (next() < 0.7) queue.settle(earlier);
        queue.release((item) => out.push(item));
      }
      const rest = queue.drain();
      expect([...out, ...rest]).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(queue.drain()).toEqual([]);
    }
  });
});
