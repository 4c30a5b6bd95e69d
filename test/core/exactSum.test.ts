/**
 * core/exactSum.ts: the correctly rounded sum of every term added, whatever their order and grouping
 * (the summary's money merges runs, spilled segments and cache entries in groups that depend on memory
 * and the cache). Checked against an exact reference in BigInt arithmetic.
 */
import { describe, expect, it } from "vitest";
import { ExactSum } from "../../src/core/exactSum.js";

/** A non-negative finite double as m · 2^(e) with e ≥ -1074, scaled to an integer by 2^1074. */
function scaled(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // Subnormals have no implicit bit and the exponent of the smallest normal.
  return exponent === 0 ? fraction : (fraction | (1n << 52n)) << BigInt(exponent - 1);
}

/** The exact sum of non-negative doubles, rounded to the nearest double, ties to even. */
function referenceSum(terms: readonly number[]): number {
  const total = terms.reduce((sum, x) => sum + scaled(x), 0n);
  const length = total.toString(2).length;
  if (length <= 53) return Number(total) * 2 ** -1074;
  const shift = length - 53;
  let kept = total >> BigInt(shift);
  const rest = total - (kept << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (rest > half || (rest === half && (kept & 1n) === 1n)) kept++;
  return Number(kept) * 2 ** (shift - 1074);
}

/** A seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Money as transcripts record it: decimals of a few places, of very different sizes, some zero. */
function costs(next: () => number, count: number): number[] {
  return Array.from({ length: count }, () => {
    const kind = next();
    if (kind < 0.1) return 0;
    const places = 1 + Math.floor(next() * 9);
    const scale = 10 ** Math.floor(next() * 5 - 2);
    return Number((next() * scale).toFixed(places));
  });
}

function sumOf(terms: readonly number[]): number {
  const sum = new ExactSum();
  for (const term of terms) sum.add(term);
  return sum.value();
}

/** The terms cut into random groups, each summed apart and merged by its partials, in random order. */
function groupedSum(terms: readonly number[], next: () => number): number {
  const groups: number[][] = [];
  for (const term of terms) {
    if (groups.length === 0 || next() < 0.3) groups.push([]);
    groups[groups.length - 1]!.push(term);
  }
  groups.sort(() => next() - 0.5);
  const total = new ExactSum();
  for (const group of groups) {
    const part = new ExactSum();
    for (const term of group) part.add(term);
    total.addParts(part.partials());
  }
  return total.value();
}

describe("ExactSum", () => {
  it("is the correctly rounded sum, where adding in order is not", () => {
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
    expect(sumOf([0.1, 0.2, 0.3])).toBe(0.6);
    // A tie broken by a term below the last bit: 1 + 2^-53 + 2^-53 is 1 + 2^-52 exactly.
    expect(1 + 2 ** -53 + 2 ** -53).toBe(1);
    expect(sumOf([1, 2 ** -53, 2 ** -53])).toBe(1 + 2 ** -52);
    expect(sumOf([1e100, 1, -1e100])).toBe(1);
    expect(sumOf([])).toBe(0);
  });

  it("gives the reference sum whatever the order and grouping of the terms (seeded property)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const terms = costs(next, 1 + Math.floor(next() * 60));
      const expected = referenceSum(terms);
      expect(sumOf(terms), `seed ${seed}`).toBe(expected);
      expect(sumOf([...terms].reverse()), `seed ${seed} reversed`).toBe(expected);
      expect(groupedSum(terms, next), `seed ${seed} grouped`).toBe(expected);
    }
  });

  it("a sum rebuilt from its partials is the same sum", () => {
    const next = random(7);
    const sum = new ExactSum();
    for (const term of costs(next, 200)) sum.add(term);
    expect(new ExactSum(sum.partials()).value()).toBe(sum.value());
  });
});
