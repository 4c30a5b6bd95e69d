/**
 * A sum of floating-point numbers kept exactly, read back correctly rounded: the same value in
 * whatever order and grouping its terms were added. Money is summed with it where a report adds
 * many runs' costs (the summary's totals): those runs are added one by one when kept in memory,
 * segment by segment when spilled (runSpill.ts) and unit by unit from a cache entry, and a plain
 * `a + b + c` rounds differently for each grouping — a report of fractional costs said
 * `70.1313` or `70.13130000000001` depending on the memory budget. Token counts are whole numbers
 * (exact in a double up to 2^53) and need none of this.
 *
 * The terms are held as non-overlapping partials (Shewchuk, "Adaptive precision floating-point
 * arithmetic", 1997; the algorithm of Python's `math.fsum`): their exact sum is the sum of every term
 * added, and the value is that sum rounded once, half to even. A handful of partials at most for
 * money (values of similar magnitude); they are plain numbers, so they travel in a worker message, a
 * spill segment or a cache entry as an array.
 */

/** The partials of an exact sum: non-overlapping, in increasing magnitude. */
export type ExactParts = readonly number[];

export class ExactSum {
  private readonly parts: number[] = [];

  constructor(from?: ExactParts) {
    if (from !== undefined) this.addParts(from);
  }

  /** One more finite term. */
  add(value: number): void {
    const parts = this.parts;
    let x = value;
    let kept = 0;
    for (let i = 0; i < parts.length; i++) {
      let y = parts[i]!;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) parts[kept++] = lo;
      x = hi;
    }
    parts.length = kept;
    parts.push(x);
  }

  /** Another exact sum's terms (its partials are terms whose exact sum is its sum). */
  addParts(other: ExactParts): void {
    for (const part of other) this.add(part);
  }

  partials(): ExactParts {
    return this.parts.slice();
  }

  /** The exact sum rounded to the nearest double, ties to even. */
  value(): number {
    const parts = this.parts;
    let n = parts.length;
    if (n === 0) return 0;
    let hi = parts[--n]!;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = parts[--n]!;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // Half-way cases: the partials below `lo` say on which side of the tie the exact sum lies.
    if (n > 0 && ((lo < 0 && parts[n - 1]! < 0) || (lo > 0 && parts[n - 1]! > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}
