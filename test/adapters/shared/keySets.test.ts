import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { IdSet, KeySet } from "../../../src/adapters/shared/keySets.js";
import { KeyHash } from "../../../src/adapters/shared/textHash.js";

describe("KeySet", () => {
  it("answers as a Set of the same keys would, through growth", () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 2 ** 53 - 1 }), fc.integer({ min: 0, max: 300 }), fc.constantFrom(0, 2 ** 32, 2 ** 53 - 1));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 2000 }), fc.array(key, { maxLength: 200 }), (added, asked) => {
        const set = new KeySet();
        const reference = new Set<number>();
        for (const k of added) {
          set.add(k);
          reference.add(k);
        }
        expect(set.size).toBe(reference.size);
        for (const k of [...added, ...asked]) expect(set.has(k)).toBe(reference.has(k));
        const seen: number[] = [];
        set.forEach((k) => seen.push(k));
        expect(seen.sort((a, b) => a - b)).toEqual([...reference].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it("is empty again after clear", () => {
    const set = new KeySet();
    for (let k = 0; k < 1000; k++) set.add(k * 7919);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has(7919)).toBe(false);
  });
});

describe("IdSet and KeyHash", () => {
  it("tells ids apart and finds them again", () => {
    const ids = new IdSet();
    const added = Array.from({ length: 5000 }, (_, i) => `call_${i.toString(36)}`);
    for (const id of added) ids.add(id);
    expect(added.every((id) => ids.has(id))).toBe(true);
    expect(["call_x_", "", "toolu_01", "call_1 "].some((id) => ids.has(id))).toBe(false);
  });

  it("keeps parts of different kinds apart", () => {
    const of = (build: (key: KeyHash) => void) => {
      const key = new KeyHash();
      build(key);
      return key.value();
    };
    expect(of((k) => k.number(5))).not.toBe(of((k) => (k.tag(1), k.text("5"))));
    expect(of((k) => k.number(0))).toBe(of((k) => k.number(-0)));
    expect(of((k) => (k.text("ab"), k.text("c")))).not.toBe(of((k) => (k.text("a"), k.text("bc"))));
    expect(of((k) => k.absent())).not.toBe(of((k) => k.text("")));
    const value = of((k) => k.text("x"));
    expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
  });
});

describe("KeySet in segments", () => {
  it("holds 200 000 hash-like keys as a Set would, each segment grown many times", () => {
    const set = new KeySet();
    const reference = new Set<number>();
    let state = 12345;
    const next = () => {
      // two 26/27-bit halves of a 53-bit key, from a simple LCG (deterministic)
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const hi = state >>> 11;
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return hi * 2 ** 32 + state;
    };
    for (let i = 0; i < 200_000; i++) {
      const key = next();
      expect(set.has(key)).toBe(reference.has(key));
      set.add(key);
      reference.add(key);
    }
    expect(set.size).toBe(reference.size);
    let visited = 0;
    set.forEach((key) => {
      visited++;
      if (!reference.has(key)) throw new Error(`unexpected key ${key}`);
    });
    expect(visited).toBe(reference.size);
    for (const key of [0, 1, 2 ** 53 - 1, 2 ** 52]) expect(set.has(key)).toBe(reference.has(key));
  });
});
