/**
 * A command's JSON output made again from the one it kept last time, when only some units' files
 * changed: the changed units are analysed and their runs written, every other unit's runs are the
 * kept output's bytes, and the global parts (the config header, the summary, the diagnostics) are
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
 */
import type { ByteHasher } from "./byteHash.js";

/** What a kept JSON output says of its units: which they were (a digest of their files) and how many runs each wrote. */
export interface SpliceMap {
  readonly units: string;
  readonly runs: readonly number[];
}

/** A unit's share of the new analysis (analysis.ts `UnitShare`): its runs, and whether they were left unread. */
interface Share {
  readonly runs: number;
  readonly unread: boolean;
}

/** Where a document's runs are: after `"runs": [` up to its closing, and where each run begins. */
export interface RunsSection {
  readonly start: number;
  readonly end: number;
  readonly starts: readonly number[];
}

const RUNS_OPEN = Buffer.from('\n  "runs": [');
const RUN_START = Buffer.from("\n    {");
const RUNS_CLOSE = Buffer.from("\n  ]");
const COMMA = Buffer.from(",");
const EMPTY_CLOSE = Buffer.from("]");

/** The digest of a command's units, as a splice map names them. */
export function unitsDigest(units: readonly (readonly string[])[], hasher: ByteHasher): string {
  return hasher.hash(Buffer.from(JSON.stringify(units)));
}

/** The runs section of a JSON document, when it holds `runs` runs exactly; undefined otherwise. */
export function runsSection(doc: Buffer, runs: number): RunsSection | undefined {
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

/** A document with its runs section. */
export interface SplicedDocument {
  readonly doc: Buffer;
  readonly section: RunsSection;
}

/**
 * The new document's bytes, in pieces: `fresh`'s head (everything before its runs), each unit's runs
 * from `fresh` (analysed now, in order) or from `kept` (left unread; `kept` wrote `keptRuns[i]` runs of
 * unit i), then `fresh`'s tail. Undefined when the counts do not add up (then the caller writes `fresh`'s
 * analysis whole instead). Adjacent pieces of one document are joined: a run of unread units is one piece.
 */
export function splicedPieces(fresh: SplicedDocument, kept: SplicedDocument, keptRuns: readonly number[], units: readonly Share[]): Buffer[] | undefined {
  if (units.length !== keptRuns.length) return undefined;
  const pieces: Buffer[] = [fresh.doc.subarray(0, fresh.section.start)];
  let last: { doc: Buffer; begin: number; stop: number } | undefined;
  const flush = () => last && pieces.push(last.doc.subarray(last.begin, last.stop));
  let keptAt = 0;
  let freshAt = 0;
  for (const [i, unit] of units.entries()) {
    const from = unit.unread ? kept : fresh;
    const first = unit.unread ? keptAt : freshAt;
    if (unit.unread && unit.runs !== keptRuns[i]) return undefined;
    keptAt += keptRuns[i]!;
    if (!unit.unread) freshAt += unit.runs;
    if (unit.runs === 0) continue;
    const { starts, end } = from.section;
    const begin = starts[first]!;
    const stop = first + unit.runs < starts.length ? starts[first + unit.runs]! - 1 : end;
    if (last?.doc === from.doc && last.stop + 1 === begin) {
      last.stop = stop; // the comma between them comes with it
      continue;
    }
    if (last) {
      flush();
      pieces.push(COMMA);
    }
    last = { doc: from.doc, begin, stop };
  }
  if (keptAt !== kept.section.starts.length || freshAt !== fresh.section.starts.length) return undefined;
  flush();
  const { section } = fresh;
  pieces.push(last ? RUNS_CLOSE : EMPTY_CLOSE, fresh.doc.subarray(section.starts.length > 0 ? section.end + RUNS_CLOSE.length : section.start + 1));
  return pieces;
}
