/**
 * A command's JSON or NDJSON output made again from the one it kept last time, when only some units'
 * files changed: the changed units are analysed and their runs written, every other unit's runs are
 * the kept output's bytes, and the global parts (the config header, the summary, the diagnostics) are
 * written whole from an analysis in which those units' runs were counted from their entries but never
 * read (unreadRuns.ts). Making the runs of 1,600 sessions again was most of a re-run after one file
 * grew: each entry's runs parsed, then 32 MB of JSON made from them (docs/performance.md, "Result cache").
 *
 * Why the bytes are the same as a run without the cache: the JSON document (reporters/json.ts) writes
 * every replayed run, in input order (unit after unit), each as a function of the run and the
 * command's options only (which are the kept output's key); the summary only adds counts up. So a unit
 * whose files are as the kept output stamped them, under the same configs, has the same runs' text.
 * It is only done without filters, `--top`, `--sort` or a gate (they choose or judge runs across
 * units), and never with live runs (Gateway logs: written after the replayed runs, and their stops
 * mark replayed ones): a document whose run count does not add up is not spliced.
 *
 * Where a unit's runs are in a document is read off its layout (`JSON.stringify(…, null, 2)`): the
 * runs array is the root's `"runs"` key (`\n  "runs": [`: only a root key is two spaces in) and
 * each of its items begins `\n    {` (an object four spaces in is an item of a root array: the keys of
 * an object are written `"key": {`, and a string holds no raw newline); the array closes with
 * `\n  ]`. With the runs per unit kept beside the output (`SpliceMap`), a unit's runs are bytes
 * `[start of its first run, start of the next unit's first run - 1)` (the comma between them left out).
 *
 * NDJSON (reporters/ndjson.ts) is one line per finding, every replayed run's, in input order: a unit's
 * findings are adjacent lines (sorted or not, by file then line, a unit's files are adjacent among the
 * inputs), and a finding's JSON holds no raw newline. There the items are lines, with no head, tail or
 * separator.
 */
import type { ByteHasher } from "./byteHash.js";

/** The formats spliced. */
export type SpliceFormat = "json" | "ndjson";

/** What a kept output says of its units: which they were (a digest of their files) and how many items (runs, finding lines) each wrote. */
export interface SpliceMap {
  readonly units: string;
  readonly items: readonly number[];
}

/** A unit's share of the new analysis (analysis.ts `UnitShare`): its items, and whether its runs were left unread. */
interface Share {
  readonly items: number;
  readonly unread: boolean;
}

/** Where a document's items are: from `start` to `end`, each beginning at one of `starts`. */
export interface ItemsSection {
  readonly start: number;
  readonly end: number;
  readonly starts: readonly number[];
}

const RUNS_OPEN = Buffer.from('\n  "runs": [');
const RUN_START = Buffer.from("\n    {");
const RUNS_CLOSE = Buffer.from("\n  ]");
const COMMA = Buffer.from(",");
const EMPTY_CLOSE = Buffer.from("]");
const NOTHING = Buffer.alloc(0);
const NEWLINE = 10;

/** The digest of a command's units, as a splice map names them. */
export function unitsDigest(units: readonly (readonly string[])[], hasher: ByteHasher): string {
  return hasher.hash(Buffer.from(JSON.stringify(units)));
}

/** The runs section of a JSON document, when it holds `runs` runs exactly; undefined otherwise. */
export function runsSection(doc: Buffer, runs: number): ItemsSection | undefined {
  const open = doc.indexOf(RUNS_OPEN);
  if (open < 0) return undefined;
  const start = open + RUNS_OPEN.length;
  if (doc[start] === EMPTY_CLOSE[0]) return runs === 0 ? { start, end: start, starts: [] } : undefined;
  const end = doc.indexOf(RUNS_CLOSE, start);
  if (end < 0) return undefined;
  const starts: number[] = [];
  for (let at = doc.indexOf(RUN_START, start); at >= 0 && at < end; at = doc.indexOf(RUN_START, at + RUN_START.length)) starts.push(at);
  return starts.length === runs && (runs === 0 || starts[0] === start) ? { start, end, starts } : undefined;
}

/** The lines of an NDJSON document, when it is `lines` whole lines exactly; undefined otherwise. */
export function linesSection(doc: Buffer, lines: number): ItemsSection | undefined {
  const starts: number[] = [];
  for (let at = 0; at < doc.length; at = doc.indexOf(NEWLINE, at) + 1) {
    if (starts.length === lines || doc.indexOf(NEWLINE, at) < 0) return undefined;
    starts.push(at);
  }
  return starts.length === lines ? { start: 0, end: doc.length, starts } : undefined;
}

/** Where a format's items are, and what stands between and around them. */
interface Layout {
  section(doc: Buffer, items: number): ItemsSection | undefined;
  /** Bytes between one item's end and the next one's start (JSON: the comma), and what joins two units' items. */
  readonly gap: number;
  readonly separator: Buffer;
  /** What closes the items (`any`: some were written). */
  close(any: boolean): Buffer;
  /** Where the tail begins after the items of `section`. */
  tailAt(section: ItemsSection): number;
}

const LAYOUTS: Record<SpliceFormat, Layout> = {
  json: {
    section: runsSection,
    gap: 1,
    separator: COMMA,
    close: (any) => (any ? RUNS_CLOSE : EMPTY_CLOSE),
    tailAt: (section) => (section.starts.length > 0 ? section.end + RUNS_CLOSE.length : section.start + 1),
  },
  ndjson: { section: linesSection, gap: 0, separator: NOTHING, close: () => NOTHING, tailAt: (section) => section.end },
};

/** Where a document's items are, in `format`. */
export const itemsSection = (format: SpliceFormat, doc: Buffer, items: number): ItemsSection | undefined => LAYOUTS[format].section(doc, items);

/** A document with its items' section. */
export interface SplicedDocument {
  readonly doc: Buffer;
  readonly section: ItemsSection;
}

/**
 * The new document's bytes, in pieces: `fresh`'s head (everything before its items), each unit's
 * items from `fresh` (analysed now, in order) or from `kept` (left unread; `kept` wrote `keptItems[i]`
 * items of unit i), then `fresh`'s tail. Undefined when the counts do not add up (then the caller
 * writes `fresh`'s analysis whole instead). Adjacent pieces of one document are joined: a run of
 * unread units is one piece.
 */
export function splicedPieces(format: SpliceFormat, fresh: SplicedDocument, kept: SplicedDocument, keptItems: readonly number[], units: readonly Share[]): Buffer[] | undefined {
  if (units.length !== keptItems.length) return undefined;
  const layout = LAYOUTS[format];
  const pieces: Buffer[] = [fresh.doc.subarray(0, fresh.section.start)];
  let last: { doc: Buffer; begin: number; stop: number } | undefined;
  const flush = () => last && pieces.push(last.doc.subarray(last.begin, last.stop));
  let keptAt = 0;
  let freshAt = 0;
  for (const [i, unit] of units.entries()) {
    const from = unit.unread ? kept : fresh;
    const first = unit.unread ? keptAt : freshAt;
    if (unit.unread && unit.items !== keptItems[i]) return undefined;
    keptAt += keptItems[i]!;
    if (!unit.unread) freshAt += unit.items;
    if (unit.items === 0) continue;
    const { starts, end } = from.section;
    const begin = starts[first]!;
    const stop = first + unit.items < starts.length ? starts[first + unit.items]! - layout.gap : end;
    if (last?.doc === from.doc && last.stop + layout.gap === begin) {
      last.stop = stop; // what stands between them comes with it
      continue;
    }
    if (last) {
      flush();
      if (layout.separator.length > 0) pieces.push(layout.separator);
    }
    last = { doc: from.doc, begin, stop };
  }
  if (keptAt !== kept.section.starts.length || freshAt !== fresh.section.starts.length) return undefined;
  flush();
  const close = layout.close(last !== undefined);
  if (close.length > 0) pieces.push(close);
  pieces.push(fresh.doc.subarray(layout.tailAt(fresh.section)));
  return pieces;
}
