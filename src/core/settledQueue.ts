/**
 * Items in order of first appearance, handed out from the front as they settle (replay.ts): a run's
 * report leaves as soon as it can no longer change and every run before it has left, so what leaves,
 * followed by what is left at the end, is in order of first appearance. Which items are settled is
 * the queue's own business: the items themselves (run reports) carry no mark of it.
 */
export class SettledQueue<T> {
  private readonly items: Array<T | undefined> = [];
  private head = 0;
  /** Settled items not handed out yet (few: those behind an unsettled one). */
  private readonly settled = new Set<T>();

  push(item: T): void {
    this.items.push(item);
  }

  settle(item: T): void {
    this.settled.add(item);
  }

  /** The item changes again after all (a run that reopens). */
  unsettle(item: T): void {
    this.settled.delete(item);
  }

  /** Hands out, in order, the settled items at the front. */
  release(out: (item: T) => void): void {
    const items = this.items;
    while (this.head < items.length && this.settled.delete(items[this.head]!)) {
      const item = items[this.head]!;
      items[this.head++] = undefined;
      out(item);
    }
    // Drop the handed-out front now and then, not at every item (a splice moves the whole array).
    if (this.head >= 1024 && this.head * 2 >= items.length) {
      items.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The items not handed out, in order; the queue is empty afterwards. */
  drain(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items.length = 0;
    this.head = 0;
    this.settled.clear();
    return rest;
  }
}
