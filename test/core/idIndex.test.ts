/**
 * The index of numbers by id hash (core/idIndex.ts) against a Map of the same entries, through
 * growth and deletions that shift entries back: with a real hash and with every id hashing alike
 * (a hit is then found only by the caller's confirmation).
 */
import { describe, expect, it } from "vitest";
import { IdIndex, type IdHash } from "../../src/core/idIndex.js";
import { prng } from "../helpers/randomSessions.js";

describe("IdIndex", () => {
  for (const [name, hash] of [["FNV hashes", undefined], ["ids that all hash alike", (() => 3) as IdHash], ["few hashes", ((id: string) => id.length % 4) as IdHash]] as const) {
    it(`finds what a Map holds, with ${name}`, () => {
      const index = new IdIndex(hash, 8);
      const expected = new Map<string, number>();
      const random = prng(5);
      const count = hash === undefined ? 5_000 : 600;
      let next = 0;
      const idOf = (n: number) => `id-${n}`;
      const valueOf = new Map<number, string>();
      for (let step = 0; step < count * 3; step++) {
        if (random() < 0.6 || expected.size === 0) {
          const id = idOf(Math.floor(random() * count));
          if (expected.has(id)) continue;
          // Kind 1 keeps a twin of some ids apart (a session and a session-less run of one id).
          const value = next++;
          index.add(id, 0, value);
          if (value % 3 === 0) index.add(id, 1, value + 0.5);
          expected.set(id, value);
          valueOf.set(value, id);
        } else {
          const id = [...expected.keys()][Math.floor(random() * expected.size)]!;
          const value = expected.get(id)!;
          expect(index.remove(id, 0, value)).toBe(true);
          expect(index.remove(id, 0, value)).toBe(false);
          expect(index.remove(id, 1, value + 0.5)).toBe(value % 3 === 0);
          expected.delete(id);
        }
        if (step % 97 === 0) {
          expect(index.count).toBeGreaterThanOrEqual(expected.size);
          for (let n = 0; n < count; n += 7) {
            const id = idOf(n);
            expect(index.find(id, 0, (value) => valueOf.get(value) === id), id).toBe(expected.get(id));
            expect(index.find(id, 1, (value) => valueOf.get(value - 0.5) === id), id).toBe(expected.get(id)! % 3 === 0 ? expected.get(id)! + 0.5 : undefined);
          }
        }
      }
      for (const [id, value] of expected) {
        expect(index.find(id, 0, (v) => valueOf.get(v) === id)).toBe(value);
        if (value % 3 === 0) expect(index.find(id, 1, (v) => valueOf.get(v - 0.5) === id)).toBe(value + 0.5);
      }
      // Emptied, it finds nothing, and takes entries again.
      const [id, value] = [...expected][0]!;
      index.clear();
      expect(index.find(id, 0, () => true)).toBeUndefined();
      expect(index.remove(id, 0, value)).toBe(false);
      index.add(id, 0, value);
      expect(index.find(id, 0, () => true)).toBe(value);
    });
  }
});
