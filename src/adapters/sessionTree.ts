/**
 * First pass over a session transcript: which entries are replayed and what the runs are called.
 *
 * Entries form a tree through `parentId`; the active branch is the path from the last entry back to
 * the root (inputs.md §2). Only ids and parent links are kept — a compact id→line table (`IdLineTable`,
 * about 20 bytes an entry) and one int and one byte per line — never the entries themselves, so
 * memory does not grow with the size of tool results. Parents are resolved to earlier lines as they
 * are read, so the walk back always ends (no cycles possible).
 *
 * Reading from bytes: when the source offers undecoded lines and the caller can start the file over,
 * lines are read by `SessionLineScanner` without being parsed, which halves the cost of a transcript.
 * A line so read is only known by its beginning, so the facts taken from it are folded into a
 * checksum, and the second pass, which parses every line, folds the facts of the same lines as parsed
 * into another (`confirm`). When the two differ at the end (a line cut by a crash and continued by the
 * next write, a key given twice), the first pass read something a parse would not have: `confirmed()`
 * is false and the caller reads the file again with this pass parsing every line.
 *
 * Decisions where the format says nothing:
 * - an entry without `parentId` (legacy v1/v2 files) follows the entry before it in the file;
 * - a dangling `parentId` (no earlier entry has that id, e.g. it was on a line cut by a crash) also
 *   continues the branch at the entry before it, with a diagnostic, so one damaged line does not
 *   drop the whole history before it.
 */
import type { StringForm } from "../core/byteText.js";
import { own } from "../core/plainObject.js";
import { describeValue } from "../core/quote.js";
import { IdLineTable } from "./idLineTable.js";
import { textOf } from "./jsonBytes.js";
import type { LineSource } from "./lineSource.js";
import { idText } from "./openclawMessages.js";
import { segmentNames, type RunMarker } from "./runNaming.js";
import { classifySessionLine, entryRunMarker, type SessionLine } from "./sessionEntries.js";
import { SessionLineScanner, type ScannedLine } from "./sessionLineScan.js";

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
  /** Hands the second pass's parse of each line over, in order, to check what was read from bytes. */
  confirm(line: number, parsed: SessionLine): void;
  /** After the second pass: false when a line read from bytes parsed differently (read the file again). */
  confirmed(): boolean;
}

export interface ScanOptions {
  /** Every entry is replayed: no tree is built. */
  readonly allBranches: boolean;
  /** Read lines from their bytes where possible (the caller checks `confirmed()` and can start over). */
  readonly fromBytes: boolean;
}

/** How an entry links into the tree: its id, and its `parentId` as `parentLink` reads it. */
interface EntryRefs {
  readonly id: string | undefined;
  /** `undefined`: no `parentId`; `null`: a root; a string: an id; `{ invalid }`: a `parentId` that is no id. */
  readonly parent: string | null | undefined | { readonly invalid: string };
}

function entryRefs(entry: Record<string, unknown>, form: StringForm): EntryRefs {
  const id = idText(own(entry, "id"), form);
  if (!Object.prototype.hasOwnProperty.call(entry, "parentId")) return { id, parent: undefined };
  const raw = own(entry, "parentId");
  if (raw === null) return { id, parent: null };
  return { id, parent: idText(raw, form) ?? { invalid: describeValue(typeof raw === "string" ? textOf(form, raw) : raw) } };
}

const ROOT = 0;

class EntryTree {
  private readonly lineOfId = new IdLineTable();
  private parents = new Int32Array(1 << 12);
  private readonly danglingIds = new Map<number, string>();
  private lastEntry = ROOT;

  add(line: number, refs: EntryRefs): void {
    if (line >= this.parents.length) this.parents = grown(this.parents, line);
    this.parents[line] = this.parentLine(line, refs.parent);
    if (refs.id !== undefined) this.lineOfId.set(refs.id, line);
    this.lastEntry = line;
  }

  private parentLine(line: number, parent: EntryRefs["parent"]): number {
    if (parent === undefined) return this.lastEntry;
    if (parent === null) return ROOT;
    const found = typeof parent === "string" ? this.lineOfId.get(parent) : undefined;
    if (found !== undefined) return found;
    this.danglingIds.set(line, typeof parent === "string" ? parent : parent.invalid);
    return this.lastEntry;
  }

  /** Marks the lines of the active branch with ON_BRANCH in `flags`; returns its dangling links. */
  markActiveBranch(flags: Uint8Array): DanglingParent[] {
    const dangling: DanglingParent[] = [];
    for (let line = this.lastEntry; line !== ROOT; line = this.parents[line]!) {
      flags[line]! |= ON_BRANCH;
      const parentId = this.danglingIds.get(line);
      if (parentId !== undefined) dangling.push({ line, parentId });
    }
    return dangling.reverse();
  }

  get lines(): number {
    return this.lastEntry;
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T, index: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(index + 1, array.length * 2));
  bigger.set(array);
  return bigger;
}

// Per-line flags of the first pass, one byte a line.
const FROM_BYTES = 1; // read from bytes: confirmed by the second pass
const ON_BRANCH = 2; // replayed

/**
 * A 64-bit checksum (two 32-bit FNV-style lanes) of the facts read from the lines taken from bytes.
 * Not proof against a crafted collision; at worst such a file is replayed along another branch.
 */
class FactChecksum {
  private a = 0x811c9dc5 | 0;
  private b = 0x9747b28c | 0;

  add(code: number, text?: string): void {
    this.mix(code);
    if (text === undefined) return;
    for (let i = 0; i < text.length; i++) this.mix(text.charCodeAt(i));
    this.mix(text.length);
  }

  private mix(value: number): void {
    this.a = Math.imul(this.a ^ value, 0x01000193);
    this.b = Math.imul(this.b ^ value, 0x5bd1e995);
    this.b ^= this.b >>> 13;
  }

  equals(other: FactChecksum): boolean {
    return this.a === other.a && this.b === other.b;
  }
}

/** Folds one line's facts, whether read from bytes or parsed, in the same way. */
function addFacts(sum: FactChecksum, line: number, entry: { refs: EntryRefs; user: boolean; otherMarker: boolean } | undefined): void {
  sum.add(line);
  if (entry === undefined) return sum.add(0); // not an entry: header, or (parsed) a bad line
  const { refs, user, otherMarker } = entry;
  sum.add(refs.id === undefined ? 1 : 2, refs.id);
  const parent = refs.parent;
  if (parent === undefined) sum.add(3);
  else if (parent === null) sum.add(4);
  else if (typeof parent === "string") sum.add(5, parent);
  else sum.add(6, parent.invalid);
  sum.add(otherMarker ? 9 : user ? 8 : 7);
}

function scannedFacts(scanned: ScannedLine) {
  return scanned.kind === "entry" ? { refs: { id: scanned.id, parent: scanned.parent }, user: scanned.user, otherMarker: false } : undefined;
}

function parsedFacts(line: number, parsed: SessionLine) {
  if (parsed.kind !== "entry") return undefined;
  const marker = entryRunMarker(line, parsed.type, parsed.value, parsed.form);
  return { refs: entryRefs(parsed.value, parsed.form), user: marker?.kind === "user", otherMarker: marker !== undefined && marker.kind !== "user" };
}

class FirstPass {
  readonly markers: RunMarker[] = [];
  readonly tree: EntryTree | undefined;
  flags = new Uint8Array(1 << 12);
  readonly scannedSum = new FactChecksum();

  constructor(allBranches: boolean) {
    this.tree = allBranches ? undefined : new EntryTree();
  }

  parsed(line: number, parsed: SessionLine): void {
    if (parsed.kind !== "entry") return;
    this.tree?.add(line, entryRefs(parsed.value, parsed.form));
    const marker = entryRunMarker(line, parsed.type, parsed.value, parsed.form);
    if (marker) this.markers.push(marker);
  }

  scanned(line: number, scanned: ScannedLine): void {
    if (line >= this.flags.length) this.flags = grown(this.flags, line);
    this.flags[line]! |= FROM_BYTES;
    addFacts(this.scannedSum, line, scannedFacts(scanned));
    if (scanned.kind !== "entry") return;
    this.tree?.add(line, { id: scanned.id, parent: scanned.parent });
    if (scanned.user) this.markers.push({ kind: "user", line });
  }
}

export async function scanSession(source: LineSource, options: ScanOptions): Promise<SessionScan> {
  const pass = new FirstPass(options.allBranches);
  if (options.fromBytes && source.forEachRawLine) {
    const scanner = new SessionLineScanner();
    await source.forEachRawLine((bytes, start, end, line, terminated, tooLong) => {
      if (start === end) return; // blank, or too long to read: not an entry either way
      // A line with no newline after it may be cut short: parsed, so that it is never taken as an entry.
      const scanned = terminated ? scanner.scan(bytes, start, end) : undefined;
      if (scanned) return pass.scanned(line, scanned);
      const text = bytes.toString("utf8", start, end);
      pass.parsed(line, classifySessionLine(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, terminated));
    });
  } else {
    await source.forEachLine((text, line, terminated) => pass.parsed(line, classifySessionLine(text, terminated)));
  }
  return finish(pass);
}

/**
 * The scan handed to the second pass. A separate function so that what it returns captures only the
 * per-line flags and markers: a closure made inside `scanSession` would keep the whole id table alive.
 */
function finish(pass: FirstPass): SessionScan {
  const { markers, scannedSum, tree } = pass;
  const flags = tree && tree.lines >= pass.flags.length ? grown(pass.flags, tree.lines) : pass.flags;
  const dangling = tree ? tree.markActiveBranch(flags) : [];
  const replayed = tree ? (line: number) => ((flags[line] ?? 0) & ON_BRANCH) !== 0 : () => true;
  const parsedSum = new FactChecksum();
  return {
    replayed,
    segmentNames: segmentNames(markers.filter((marker) => replayed(marker.line))),
    dangling,
    confirm(line, parsed) {
      if (((flags[line] ?? 0) & FROM_BYTES) !== 0) addFacts(parsedSum, line, parsedFacts(line, parsed));
    },
    confirmed: () => parsedSum.equals(scannedSum),
  };
}
