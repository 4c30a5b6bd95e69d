/**
 * First pass over a session transcript: which entries are replayed and what the runs are called.
 *
 * Entries form a tree through `parentId`; the active branch is the path from the last entry back to
 * the root (inputs.md §2). Only ids and parent links are kept — a compact id→line table (`IdLineTable`,
 * about 20 bytes an entry) and one int per line — never the entries themselves, so memory does not
 * grow with the size of tool results. Parents are
 * resolved to earlier lines as they are read, so the walk back always ends (no cycles possible).
 *
 * Decisions where the format says nothing:
 * - an entry without `parentId` (legacy v1/v2 files) follows the entry before it in the file;
 * - a dangling `parentId` (no earlier entry has that id, e.g. it was on a line cut by a crash) also
 *   continues the branch at the entry before it, with a diagnostic, so one damaged line does not
 *   drop the whole history before it.
 */
import { own } from "../core/plainObject.js";
import { describeValue } from "../core/quote.js";
import { IdLineTable } from "./idLineTable.js";
import type { LineSource } from "./lineSource.js";
import { idText } from "./openclawMessages.js";
import { segmentNames, type RunMarker } from "./runNaming.js";
import { classifySessionLine, entryRunMarker } from "./sessionEntries.js";

export interface DanglingParent {
  readonly line: number;
  readonly parentId: string;
}

export interface SessionScan {
  /** Whether the entry on this line is replayed (on the active branch, or every entry with --all-branches). */
  replayed(line: number): boolean;
  /** Explicit run names per segment of the replayed entries (see runNaming). */
  readonly segmentNames: ReadonlyArray<string | undefined>;
  /** Dangling parent links that the active branch passes through. */
  readonly dangling: readonly DanglingParent[];
}

const ROOT = 0;

class EntryTree {
  private readonly lineOfId = new IdLineTable();
  private parents = new Int32Array(1 << 12);
  private readonly danglingIds = new Map<number, string>();
  private lastEntry = ROOT;

  add(line: number, entry: Record<string, unknown>): void {
    if (line >= this.parents.length) {
      const grown = new Int32Array(Math.max(line + 1, this.parents.length * 2));
      grown.set(this.parents);
      this.parents = grown;
    }
    this.parents[line] = this.parentLine(line, entry);
    const id = idText(own(entry, "id"));
    if (id !== undefined) this.lineOfId.set(id, line);
    this.lastEntry = line;
  }

  private parentLine(line: number, entry: Record<string, unknown>): number {
    if (!Object.prototype.hasOwnProperty.call(entry, "parentId")) return this.lastEntry;
    const raw = own(entry, "parentId");
    if (raw === null) return ROOT;
    const parentId = idText(raw);
    const parent = parentId !== undefined ? this.lineOfId.get(parentId) : undefined;
    if (parent !== undefined) return parent;
    this.danglingIds.set(line, parentId ?? describeValue(raw));
    return this.lastEntry;
  }

  activeBranch(): { lines: Uint8Array; dangling: DanglingParent[] } {
    const lines = new Uint8Array(this.lastEntry + 1);
    const dangling: DanglingParent[] = [];
    for (let line = this.lastEntry; line !== ROOT; line = this.parents[line]!) {
      lines[line] = 1;
      const parentId = this.danglingIds.get(line);
      if (parentId !== undefined) dangling.push({ line, parentId });
    }
    dangling.reverse();
    return { lines, dangling };
  }
}

export async function scanSession(source: LineSource, allBranches: boolean): Promise<SessionScan> {
  const markers: RunMarker[] = [];
  const tree = allBranches ? undefined : new EntryTree();
  await source.forEachLine((text, line, terminated) => {
    const classified = classifySessionLine(text, terminated);
    if (classified.kind !== "entry") return;
    tree?.add(line, classified.value);
    const marker = entryRunMarker(line, classified.type, classified.value);
    if (marker) markers.push(marker);
  });
  if (!tree) return { replayed: () => true, segmentNames: segmentNames(markers), dangling: [] };
  return onBranch(tree.activeBranch(), markers);
}

/**
 * The scan of the active branch. A separate function so that the closure it returns captures only
 * the branch marks: a closure made inside `scanSession` would keep the whole id table alive.
 */
function onBranch({ lines, dangling }: { lines: Uint8Array; dangling: DanglingParent[] }, markers: readonly RunMarker[]): SessionScan {
  const replayed = (line: number) => lines[line] === 1;
  return { replayed, segmentNames: segmentNames(markers.filter((marker) => replayed(marker.line))), dangling };
}
