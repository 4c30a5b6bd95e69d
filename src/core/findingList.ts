/**
 * A run's findings as everything after replay reads them: how many, and in order. An array is one;
 * so is the list of a run stuck for a very long time, which the pipeline keeps on disk while the run
 * goes on and reads back a block at a time each time it is walked (pipeline/shelvedFindings.ts): a
 * run of 200,000 findings then holds one block of them in memory, not all (issue 34 §5). Hence no
 * indexing and no `slice` on it: readers walk it, with the helpers below where an array had a method.
 */
export interface FindingList<F> extends Iterable<F> {
  readonly length: number;
}

export function someOf<F>(list: FindingList<F>, test: (item: F) => boolean): boolean {
  for (const item of list) if (test(item)) return true;
  return false;
}

export function findIn<F>(list: FindingList<F>, test: (item: F) => boolean): F | undefined {
  for (const item of list) if (test(item)) return item;
  return undefined;
}

/**
 * The items that `keep` keeps: an array of them for an array (as `filter`); for a list kept on disk,
 * a list that filters as it is walked (counted by one walk first), so that it is never whole in memory.
 */
export function filteredList<F>(list: FindingList<F>, keep: (item: F) => boolean): FindingList<F> {
  if (Array.isArray(list)) return (list as readonly F[]).filter(keep);
  let length = 0;
  for (const item of list) if (keep(item)) length++;
  return {
    length,
    *[Symbol.iterator]() {
      for (const item of list) if (keep(item)) yield item;
    },
  };
}

/** The list's items in arrays of at most `size`, in order (a writer's pieces). */
export function* batchesOf<F>(list: FindingList<F>, size: number): Generator<F[]> {
  let batch: F[] = [];
  for (const item of list) {
    batch.push(item);
    if (batch.length < size) continue;
    yield batch;
    batch = [];
  }
  if (batch.length > 0) yield batch;
}
