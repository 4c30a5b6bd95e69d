/**
 * The entry tree of a session transcript, kept as segments so that memory does not grow with the
 * number of entries. Entries link to a parent through `parentId`; almost every entry's parent is the
 * entry just before it, so the tree is a few runs of consecutive entries ("segments"): a segment
 * starts at an entry whose parent is not the entry before it (a root, or a branch back to an earlier
 * entry) and goes on while each entry follows the one before. The active branch (inputs.md §2) is
 * walked back from the last entry: to its segment's start, then to that segment's parent, and so on.
 *
 * Resolving a branch back to an earlier entry needs id → line. `IdLookup` either keeps every id
 * (`AllIds`, while there are at most ALL_IDS_LIMIT of them) or only the ids that some entry refers
 * to out of order (`TargetIds`, found by an earlier pass): a 1 GB transcript of 4.4 M small entries
 * needed ~180 MB for an id table of every entry; its targets are a few hundred.
 *
 * Semantics (the same as resolving with a table of every id): an entry without `parentId` follows
 * the entry before it; `null` is a root; an id resolves to the latest earlier entry with that id; an
 * id no earlier entry has (or a `parentId` that is no id) is dangling: the branch continues at the
 * entry before it, with a diagnostic.
 */
import { IntColumn } from "../../core/intColumn.js";
import { IdLineTable } from "./idLineTable.js";

/** How an entry links into the tree: its id, and its `parentId`. */
export interface EntryRefs {
  readonly id: string | undefined;
  /** `undefined`: no `parentId`; `null`: a root; a string: an id; `{ invalid }`: a `parentId` that is no id. */
  readonly parent: string | null | undefined | { readonly invalid: string };
}

export interface DanglingParent {
  readonly line: number;
  readonly parentId: string;
}

/** id → latest line with that id, for the ids the lookup keeps. */
export interface IdLookup {
  record(id: string, line: number): void;
  resolve(id: string): number | undefined;
}

/** Ids of entries that come before the one they link to, in a transcript of more than this many: see TargetIds. */
export const ALL_IDS_LIMIT = 1 << 20;

/** Every id, until there are more than ALL_IDS_LIMIT (`overflowed`). */
export class AllIds implements IdLookup {
  private readonly table = new IdLineTable();
  overflowed = false;

  constructor(private readonly limit = ALL_IDS_LIMIT) {}

  record(id: string, line: number): void {
    this.table.set(id, line);
    if (this.table.size > this.limit) this.overflowed = true;
  }

  resolve(id: string): number | undefined {
    return this.table.get(id);
  }
}

const NOT_SEEN = -1;

/** Only the ids some entry links to out of order, collected by `collectTargets` beforehand. */
export class TargetIds implements IdLookup {
  constructor(private readonly table: IdLineTable) {}

  record(id: string, line: number): void {
    if (this.table.get(id) !== undefined) this.table.set(id, line);
  }

  resolve(id: string): number | undefined {
    const line = this.table.get(id);
    return line === undefined || line === NOT_SEEN ? undefined : line;
  }
}

/** Collects, entry by entry, the parent ids that are not the id of the entry just before. */
export class TargetCollector {
  readonly targets = new IdLineTable();
  private lastId: string | undefined;

  add(refs: EntryRefs): void {
    if (typeof refs.parent === "string" && refs.parent !== this.lastId) this.targets.set(refs.parent, NOT_SEEN);
    this.lastId = refs.id;
  }
}

const ROOT = 0;

export class BranchTree {
  // Segments are few, so these columns stay small.
  private readonly starts = new IntColumn();
  private readonly parents = new IntColumn();
  private readonly danglingIds = new Map<number, string>();
  private lastEntry = ROOT;
  private lastId: string | undefined;

  constructor(private readonly ids: IdLookup) {}

  add(line: number, refs: EntryRefs): void {
    const parent = this.parentLine(line, refs.parent);
    if (this.starts.length === 0 || parent !== this.lastEntry) {
      this.starts.push(line);
      this.parents.push(parent);
    }
    if (refs.id !== undefined) this.ids.record(refs.id, line);
    this.lastEntry = line;
    this.lastId = refs.id;
  }

  private parentLine(line: number, parent: EntryRefs["parent"]): number {
    if (parent === undefined) return this.lastEntry;
    if (parent === null) return ROOT;
    if (typeof parent === "string") {
      if (parent === this.lastId) return this.lastEntry; // the common case: no lookup
      const found = this.ids.resolve(parent);
      if (found !== undefined) return found;
    }
    this.danglingIds.set(line, typeof parent === "string" ? parent : parent.invalid);
    return this.lastEntry;
  }

  /** The index of the segment that holds `line` (the last one starting at or before it). */
  private segmentOf(line: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts.at(mid) <= line) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The active branch: line ranges `[from, to]` (entries in them are on it), in file order, and its dangling links. */
  activeBranch(): { ranges: Int32Array; dangling: DanglingParent[] } {
    const bounds: number[] = [];
    for (let line = this.lastEntry; line !== ROOT; ) {
      const segment = this.segmentOf(line);
      bounds.push(line, this.starts.at(segment));
      line = this.parents.at(segment);
    }
    const ranges = Int32Array.from(bounds.reverse());
    const onBranch = (line: number) => inRanges(ranges, line);
    const dangling: DanglingParent[] = [];
    for (const [line, parentId] of this.danglingIds) if (onBranch(line)) dangling.push({ line, parentId });
    return { ranges, dangling };
  }
}

/** Whether `line` is in one of `ranges` (pairs `from, to`, sorted, disjoint). */
export function inRanges(ranges: Int32Array, line: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (line < ranges[2 * mid]!) high = mid - 1;
    else if (line > ranges[2 * mid + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}
