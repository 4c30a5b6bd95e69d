/**
 * First pass over a session transcript: which entries are replayed and what the runs are called.
 *
 * By default every executed call is replayed once, in file order (inputs.md §2): no tree is needed,
 * only the run markers of the entries that will be replayed — not those of entries that an earlier
 * file of the session already held, nor rewritten copies of user messages (transcriptCopies.ts), so
 * that the run segments of both passes agree. A user message's copy key needs `message.timestamp`,
 * at the end of the line: it is read from there when the line ends as OpenClaw writes it
 * (`userFacts`), else the line is parsed; there is one per run.
 *
 * With `activeBranch`, entries form a tree through `parentId`; the active branch is the path from
 * the last entry back to the root, computed by `BranchTree` (branchTree.ts) from ids and parent
 * links only — never the entries themselves, so memory does not grow with the size of tool results,
 * nor (past ALL_IDS_LIMIT entries, with one more pass) with the number of entries.
 *
 * Reading from bytes: when the source offers undecoded lines and the caller can start the file over,
 * lines are read by `SessionLineScanner` without being parsed, which halves the cost of a transcript.
 * A line so read is only known by its beginning, so the facts taken from it are folded into a
 * checksum, and the second pass, which parses every line, folds the facts of the same lines as parsed
 * into another (`confirm`). When the two differ at the end (a line cut by a crash and continued by the
 * next write, a key given twice), the first pass read something a parse would not have: `confirmed()`
 * is false and the caller reads the file again with this pass parsing every line. In file order
 * (no tree) only run markers are facts: a line whose beginning shows it holds none is passed over
 * (`SessionLineScanner.mayBeMarker`), and both checksums fold the markers alone.
 *
 * Decisions where the format says nothing:
 * - an entry without `parentId` (legacy v1/v2 files) follows the entry before it in the file;
 * - a dangling `parentId` (no earlier entry has that id, e.g. it was on a line cut by a crash) also
 *   continues the branch at the entry before it, with a diagnostic, so one damaged line does not
 *   drop the whole history before it.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { own } from "../../core/plainObject.js";
import { describeValue } from "../../core/quote.js";
import { AllIds, BranchTree, TargetCollector, TargetIds, inRanges, type DanglingParent, type EntryRefs, type IdLookup } from "./branchTree.js";
import { decodeLine } from "../io/decoding.js";
import type { LineSource } from "../io/lineSource.js";
import { idText } from "./messages.js";
import { BOOTSTRAP_CUSTOM_TYPE, PROMPT_ERROR_CUSTOM_TYPE, segmentNames, segmentTimes, type RunMarker } from "./runNaming.js";
import { classifySessionLine, entryMessage, entryRunMarker, type SessionLine } from "./sessionEntries.js";
import { SessionLineScanner, type ScannedLine } from "./sessionLineScan.js";
import { KeySet } from "../shared/keySets.js";
import { KeyHash } from "../shared/textHash.js";
import { userTime, type UserTime } from "./userTime.js";
import { CopyDetector, copyKeyOf, entryKey, entryKeyOf, keyTime, messageCopyKey } from "./transcriptCopies.js";

export type { DanglingParent } from "./branchTree.js";

export interface SessionScan {
  /** Whether the entry on this line is on the replayed branch (every line unless `activeBranch`). */
  replayed(line: number): boolean;
  /** Explicit run names per segment of the replayed entries (see runNaming). */
  readonly segmentNames: ReadonlyArray<string | undefined>;
  /** When each segment's user message was written (empty when the pass was skipped: `countsSegments`). */
  readonly segmentTimes: ReadonlyArray<UserTime | undefined>;
  /** Dangling parent links that the active branch passes through. */
  readonly dangling: readonly DanglingParent[];
  /** Hands the second pass's parse of each line over, in order, to check what was read from bytes. */
  confirm(line: number, parsed: SessionLine): void;
  /** After the second pass: false when a line read from bytes parsed differently (read the file again). */
  confirmed(): boolean;
  /** The pass was skipped: the file's bytes name no run (`scanSession`). */
  readonly skipped: boolean;
}

export interface ScanOptions {
  /** Only the branch ending at the last entry is replayed (else every entry: no tree is built). */
  readonly activeBranch: boolean;
  /** Read lines from their bytes where possible (the caller checks `confirmed()` and can start over). */
  readonly fromBytes: boolean;
  /** Ids kept for the one-pass tree (default ALL_IDS_LIMIT; tests lower it to exercise the other way). */
  readonly allIdsLimit?: number;
  /** Keys of entries that earlier files of the session held: those entries are not replayed again. */
  readonly earlierIds?: KeySet;
  /** Copy keys of messages replayed from earlier files (file order only). */
  readonly earlierMessages?: KeySet;
  /**
   * The caller needs the segments and their times even when no run is named (a trajectory sidecar's
   * runs are matched to them: sidecarRuns.ts): the pass is never skipped (see `scanSession`).
   */
  readonly countsSegments?: boolean;
  /**
   * The lines up to this one were confirmed by an earlier second pass over the same bytes (a grown
   * file resumed: session.ts): the second pass hands over only the later lines to `confirm`.
   */
  readonly confirmedUpTo?: number;
}

function entryRefs(entry: Record<string, unknown>, form: StringForm): EntryRefs {
  const id = idText(own(entry, "id"), form);
  if (!Object.prototype.hasOwnProperty.call(entry, "parentId")) return { id, parent: undefined };
  const raw = own(entry, "parentId");
  if (raw === null) return { id, parent: null };
  return { id, parent: idText(raw, form) ?? { invalid: describeValue(typeof raw === "string" ? textOf(form, raw) : raw) } };
}

/** What a scan learns of one entry line. */
interface EntryFacts {
  readonly refs: EntryRefs;
  readonly marker: RunMarker | undefined;
  /** A user message's copy key. */
  readonly copyKey?: number | undefined;
  /** A run marker's entry key across the session's files. */
  readonly entryKey?: number | undefined;
}

/**
 * Folds one line's facts (`undefined`: not an entry), whether read from bytes or parsed, in the same
 * way, into a checksum of all of them (`KeyHash.equals`: 64 bits; not proof against a crafted
 * collision, at worst such a file is replayed along another branch). In file order (no tree) only
 * run markers matter: lines without one are left out, so that the first pass may pass over them
 * (`SessionLineScanner.mayBeMarker`).
 */
function addFacts(sum: KeyHash, line: number, entry: EntryFacts | undefined, markersOnly: boolean): void {
  if (markersOnly && entry?.marker === undefined) return;
  sum.number(line);
  if (entry === undefined) return sum.tag(0);
  const { refs, marker } = entry;
  textOrAbsent(sum, refs.id);
  const parent = refs.parent;
  if (parent === undefined) sum.tag(3);
  else if (parent === null) sum.tag(4);
  else if (typeof parent === "string") (sum.tag(5), sum.text(parent));
  else (sum.tag(6), sum.text(parent.invalid));
  sum.tag(marker === undefined ? 7 : marker.kind === "user" ? 8 : 9);
  if (marker === undefined) return;
  numberOrAbsent(sum, entry.entryKey);
  numberOrAbsent(sum, entry.copyKey);
}

function textOrAbsent(sum: KeyHash, text: string | undefined): void {
  if (text === undefined) sum.absent();
  else sum.text(text);
}

function numberOrAbsent(sum: KeyHash, value: number | undefined): void {
  if (value === undefined) sum.absent();
  else sum.number(value);
}

/** `markersOnly`: the facts of a line without a run marker are not needed (no tree is built). */
function parsedFacts(line: number, parsed: SessionLine, markersOnly: boolean): EntryFacts | undefined {
  if (parsed.kind !== "entry") return undefined;
  const marker = entryRunMarker(line, parsed.type, parsed.value, parsed.form);
  if (marker === undefined && markersOnly) return undefined;
  const refs = entryRefs(parsed.value, parsed.form);
  if (marker === undefined) return { refs, marker };
  const key = entryKey(parsed.value, refs.id, parsed.form);
  if (marker.kind !== "user") return { refs, marker, entryKey: key };
  const message = entryMessage(parsed.value)!;
  // The times are those the keys hold (folded into the checksum): both passes read the same ones.
  const time = userTime(keyTime(own(message, "timestamp"), parsed.form), keyTime(own(parsed.value, "timestamp"), parsed.form));
  return { refs, marker: { kind: "user", line, time }, entryKey: key, copyKey: messageCopyKey("user", message, parsed.form, []) };
}

function scannedFacts(line: number, scanned: ScannedLine): EntryFacts | undefined {
  if (scanned.kind !== "entry") return undefined;
  return { refs: { id: scanned.id, parent: scanned.parent }, marker: scanned.user ? { kind: "user", line } : undefined };
}

/**
 * A user message's facts from its bytes: its entry key and copy key from the entry's `timestamp`
 * (read by the scan) and the message's (read from the line's end); undefined when either cannot be
 * read so. Both keys are folded into the checksum, so a line whose ends lie is read again.
 */
function userFacts(line: number, scanned: ScannedLine, scanner: SessionLineScanner, bytes: Buffer, start: number, end: number): EntryFacts | undefined {
  if (scanned.kind !== "entry") return undefined;
  const entryTime = scanner.entryTimestamp();
  const messageTime = scanner.messageTimestampAtEnd(bytes, start, end);
  if (entryTime === "unreadable" || messageTime === undefined) return undefined;
  return {
    refs: { id: scanned.id, parent: scanned.parent },
    marker: { kind: "user", line, time: userTime(keyTime(messageTime, "bytes"), keyTime(entryTime, "bytes")) },
    // The strings read are plain ASCII: the same in either form.
    entryKey: entryKeyOf(scanned.id, entryTime, "bytes"),
    copyKey: copyKeyOf("user", messageTime, "bytes", []),
  };
}

/**
 * One pass over the file, handing every line's facts (`undefined` for a line that is not an entry)
 * to `visit`, which returns false to stop. Lines are read from their bytes where the scanner can,
 * parsed otherwise; a line with no newline after it may be cut short, so it is always parsed.
 */
function eachLineFacts(
  source: LineSource,
  fromBytes: boolean,
  markersOnly: boolean,
  visit: (line: number, facts: EntryFacts | undefined) => boolean | void,
): Promise<void> {
  if (fromBytes && source.forEachRawLine) {
    const scanner = new SessionLineScanner();
    return source.forEachRawLine((bytes, start, end, line, terminated) => {
      if (start === end) return visit(line, undefined); // blank, or too long to read
      // In file order a line that cannot hold a run marker has no fact the pass needs.
      if (markersOnly && terminated && !scanner.mayBeMarker(bytes, start, end)) return visit(line, undefined);
      const scanned = terminated ? scanner.scan(bytes, start, end) : undefined;
      if (scanned && !(scanned.kind === "entry" && scanned.user)) return visit(line, scannedFacts(line, scanned));
      // A user message's keys need the timestamps at both ends of the line; else it is parsed.
      const user = scanned && userFacts(line, scanned, scanner, bytes, start, end);
      if (user) return visit(line, user);
      return visit(line, parsedFacts(line, classifySessionLine(decodeLine(bytes, start, end).text, terminated), markersOnly));
    });
  }
  return source.forEachLine((text, line, terminated) => visit(line, parsedFacts(line, classifySessionLine(text, terminated), markersOnly)));
}

interface FirstPass {
  readonly markers: RunMarker[];
  readonly checksum: KeyHash;
  /** The checksum as it stood after `ScanOptions.confirmedUpTo`'s line: what the second pass goes on from. */
  readonly confirmedSum: KeyHash | undefined;
  readonly tree: BranchTree | undefined;
}

/**
 * Whether an entry's run marker counts: not if an earlier file of the session held the entry, nor
 * (in file order) if it is a rewritten copy of a user message. The second pass decides the same way.
 */
function markerFilter(options: ScanOptions): (facts: EntryFacts) => boolean {
  const earlier = options.earlierIds;
  const copies = options.activeBranch ? undefined : new CopyDetector(options.earlierMessages ?? new KeySet());
  return (facts) => {
    if (earlier !== undefined && facts.entryKey !== undefined && earlier.has(facts.entryKey)) return false;
    return !(copies && facts.marker?.kind === "user" && copies.isCopy(facts.copyKey));
  };
}

/** Builds the tree (with `activeBranch`) with `ids`; undefined if `ids` overflowed. */
async function buildTree(source: LineSource, options: ScanOptions, ids: IdLookup & { readonly overflowed?: boolean }): Promise<FirstPass | undefined> {
  const markers: RunMarker[] = [];
  const checksum = new KeyHash();
  const tree = options.activeBranch ? new BranchTree(ids) : undefined;
  const counts = markerFilter(options);
  const markersOnly = tree === undefined;
  const confirmedUpTo = options.confirmedUpTo;
  let confirmedSum: KeyHash | undefined;
  await eachLineFacts(source, options.fromBytes, markersOnly, (line, facts) => {
    if (confirmedUpTo !== undefined && confirmedSum === undefined && line > confirmedUpTo) confirmedSum = checksum.copy();
    addFacts(checksum, line, facts, markersOnly);
    if (facts === undefined) return;
    tree?.add(line, facts.refs);
    if (facts.marker && counts(facts)) markers.push(facts.marker);
    if (ids.overflowed) return false;
  });
  if (confirmedUpTo !== undefined) confirmedSum ??= checksum.copy();
  return ids.overflowed ? undefined : { markers, checksum, confirmedSum, tree };
}

/** The ids some entry links to out of order (a pass that keeps nothing else). */
async function collectTargets(source: LineSource, fromBytes: boolean): Promise<TargetIds> {
  const collector = new TargetCollector();
  await eachLineFacts(source, fromBytes, false, (_line, facts) => void (facts && collector.add(facts.refs)));
  return new TargetIds(collector.targets);
}

/** File order builds no tree: no id is kept. */
const NO_IDS: IdLookup = { record() {}, resolve: () => undefined };

/**
 * What both `customType`s of the entries that name runs begin with, as bytes: a file without it names
 * no run (one needle: the search reads the file once).
 */
const NAMING_PREFIX = `"${BOOTSTRAP_CUSTOM_TYPE.slice(0, BOOTSTRAP_CUSTOM_TYPE.indexOf(":") + 1)}`;
const NAMING_TYPES = [Buffer.from(NAMING_PREFIX)];
if (!PROMPT_ERROR_CUSTOM_TYPE.startsWith(NAMING_PREFIX.slice(1))) throw new Error("run-naming customTypes no longer share their prefix");

export async function scanSession(source: LineSource, options: ScanOptions): Promise<SessionScan> {
  // In file order the pass only looks for run names. Most real transcripts name none (1 file of 30
  // in one install's state directory): when the bytes do not hold `"openclaw:` (NAMING_PREFIX) the pass is
  // skipped, at the cost of a search at reading speed. A naming entry whose customType is written
  // with escapes is not found so: the second pass sees it parsed, and the file is read again.
  if (!options.activeBranch && options.fromBytes && options.countsSegments !== true && source.mayContain && !(await source.mayContain(NAMING_TYPES))) {
    return unnamedScan();
  }
  // One pass with every id; past ALL_IDS_LIMIT entries, a pass to find the ids that entries link
  // back to, then the tree with those ids only (see branchTree.ts). The full table is not held in
  // a variable, so it can be collected before those two passes.
  if (!options.activeBranch) return finish((await buildTree(source, options, NO_IDS))!);
  const pass =
    (await buildTree(source, options, new AllIds(options.allIdsLimit))) ??
    (await buildTree(source, options, await collectTargets(source, options.fromBytes)));
  return finish(pass!);
}

const NO_TIMES: ReadonlyArray<UserTime | undefined> = Object.freeze([undefined]);

/** The scan of a file whose bytes hold no naming entry: confirmed unless the second pass parses one. */
function unnamedScan(): SessionScan {
  let named = false;
  return {
    replayed: () => true,
    // No name for any segment (an array of its own: a reader's saved state holds it, and the state codec carries no frozen one).
    segmentNames: [undefined],
    segmentTimes: NO_TIMES,
    dangling: [],
    confirm(line, parsed) {
      if (parsed.kind === "entry" && parsed.type === "custom" && entryRunMarker(line, parsed.type, parsed.value, parsed.form) !== undefined) named = true;
    },
    confirmed: () => !named,
    skipped: true,
  };
}

/**
 * The scan handed to the second pass. A separate function so that what it returns captures only the
 * branch and the markers: a closure made inside `scanSession` would keep the id table alive.
 */
function finish({ markers, checksum, confirmedSum, tree }: FirstPass): SessionScan {
  const branch = tree?.activeBranch();
  const replayed = branch ? (line: number) => inRanges(branch.ranges, line) : () => true;
  const parsedSum = confirmedSum ?? new KeyHash();
  const markersOnly = tree === undefined;
  const counted = markers.filter((marker) => replayed(marker.line));
  return {
    replayed,
    segmentNames: segmentNames(counted),
    segmentTimes: segmentTimes(counted),
    dangling: branch?.dangling ?? [],
    confirm(line, parsed) {
      addFacts(parsedSum, line, parsedFacts(line, parsed, markersOnly), markersOnly);
    },
    confirmed: () => parsedSum.equals(checksum),
    skipped: false,
  };
}
