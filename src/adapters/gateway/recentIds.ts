/**
 * A set of at most `limit` ids that forgets the one added longest ago first: a `Set` in insertion
 * order, with its oldest entry dropped past the limit.
 *
 * Not a `Set` with `delete(set.values().next().value)`: V8 leaves a deleted entry in place until the
 * table is rebuilt and every iterator walks over them, so dropping the oldest of 65,536 ids cost a
 * walk over all those dropped before it. On a Gateway log of 300,000 runs that was 43% of the
 * analysis (5.3 of 12.2 s). Here the order is a queue of (id, when added); an entry whose id was
 * deleted or added again since is stale and skipped once.
 */
export class RecentIds {
  /** Each id held, with the number it was added under (its live entry in the queue). */
  private readonly held = new Map<string, number>();
  private queue: string[] = [];
  private numbers: number[] = [];
  private head = 0;
  private added = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.held.size;
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  delete(id: string): void {
    this.held.delete(id);
  }

  /** Like `Set.add`: an id already held keeps its place. */
  add(id: string): void {
    if (this.held.has(id)) return;
    this.held.set(id, this.added);
    this.queue.push(id);
    this.numbers.push(this.added++);
    if (this.held.size > this.limit) this.dropOldest();
    // Stale entries (ids deleted, or added again later) are cut out before they outnumber the live
    // ones, and the dropped ones before the head once they are as many as the limit: a log of a
    // million runs, each closed once, kept every run id in the queue (~40 bytes a run) otherwise.
    if (this.head >= this.limit + 64 || this.queue.length - this.head > 2 * this.limit + 64) this.compact();
  }

  private dropOldest(): void {
    while (this.head < this.queue.length) {
      const id = this.queue[this.head]!;
      const number = this.numbers[this.head]!;
      this.head++;
      if (this.held.get(id) === number) {
        this.held.delete(id);
        return;
      }
    }
  }

  private compact(): void {
    const queue: string[] = [];
    const numbers: number[] = [];
    for (let at = this.head; at < this.queue.length; at++) {
      if (this.held.get(this.queue[at]!) !== this.numbers[at]) continue;
      queue.push(this.queue[at]!);
      numbers.push(this.numbers[at]!);
    }
    this.queue = queue;
    this.numbers = numbers;
    this.head = 0;
  }
}
