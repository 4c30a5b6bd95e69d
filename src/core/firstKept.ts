/**
 * Keeping the first few of many items in an order, one item at a time: the worst runs of a report
 * read back from disk (worstFirst.ts), the findings nearest a place (`looplens explain`).
 */

/**
 * The first `limit` of the items offered one at a time, in the order of their keys (`compare`
 * negative: `a` first), ties in the order offered: a stable sort sliced, holding only `limit` items.
 * The item kept can be smaller than what it was ranked by (the HTML page keeps a one-line summary).
 */
export class FirstKept<T, K> {
  private readonly kept: Array<{ readonly item: T; readonly key: K }> = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: K, b: K) => number,
  ) {}

  /** Whether an item of this key would be kept now (a caller can skip making the item). */
  wouldKeep(key: K): boolean {
    const { kept, limit } = this;
    // A later item loses ties: it enters only ahead of a key strictly after its own.
    return limit > 0 && (kept.length < limit || this.compare(key, kept[limit - 1]!.key) < 0);
  }

  offer(item: T, key: K): void {
    if (!this.wouldKeep(key)) return;
    const { kept } = this;
    let at = kept.length;
    while (at > 0 && this.compare(key, kept[at - 1]!.key) < 0) at--;
    kept.splice(at, 0, { item, key });
    if (kept.length > this.limit) kept.pop();
  }

  items(): T[] {
    return this.kept.map(({ item }) => item);
  }
}
