/**
 * What an analysis entry's body holds: a unit's `FileAnalysis` (analysis.ts), so that a hit gives
 * one indistinguishable from a fresh analysis of the same files.
 *
 *   `S` + JSON of everything but the runs: files and formats, unusable files, line tallies,
 *       transcript counts, diagnostics (the kept ones and the total), the agents whose configs were
 *       asked for, and what the summary counts of the runs (their number, calls, compactions,
 *       findings by level); or, when the unit has live runs of Gateway logs (`LiveBookPart`, with its
 *       typed arrays), `V` + base64 of the same as V8 serializes it (what crosses to a worker thread
 *       crosses to disk the same way);
 *   then every run, in order, as a spill file writes it (runSpill.ts `runRecords`).
 *
 * A hit's runs are held as a fresh analysis holds them: as objects while the thread's budget of runs
 * in memory has room for the whole unit (runSpill.ts), else their lines are copied, as bytes, into
 * the analysis's spill file as one segment, which the report reads back like any spilled runs (the
 * summary counts come with the segment). Parsing every run and writing those past the budget out
 * again was most of a warm run; parsing none made every report pass parse them all.
 *
 * A unit whose live runs spilled (a Gateway log of more than LIVE_ROWS_IN_MEMORY runs) is not cached:
 * its rows are in this process's spill folder, and such a log is one file that is read again each time.
 * Nor is one with a run whose findings went on the shelf (pipeline/shelvedFindings.ts), for the same reason.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { deserialize, serialize } from "node:v8";
import type { ReplayedRun } from "../../core/findings.js";
import type { FileAnalysis } from "../fileAnalysis.js";
import { addRunLevels, countRun, noRunLevels, type RunLevelCounts } from "../levelCounts.js";
import { RunsUsageTotals, type RunsUsage } from "../runsUsage.js";
import { findingsWeight, UnitRuns, type SpillOptions, type SpillSegment } from "../runSpill.js";
import { isPlainRun, runRecords, runsOf } from "../runRecords.js";
import { spillFileIn } from "../spillFiles.js";
import { CorruptEntry, type OpenEntry } from "./entryFile.js";
import { allOutside, RunTimesTally, type RunTimes, type RunWindow } from "./runWindow.js";

/** What the summary counts of a unit's runs (`SpillSegment`'s counts), and what they weigh in memory (runSpill.ts). */
interface RunTotals {
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
  readonly counts: RunLevelCounts;
  readonly usage?: RunsUsage;
  readonly plain: number;
  readonly weight: number;
  /** When the runs started, so that `--since`/`--until` can leave the unit unread (runWindow.ts); unknown for a unit whose runs spilled. */
  readonly times?: RunTimes;
}

type Summary = Omit<FileAnalysis, "runs" | "spilled"> & { readonly totals: RunTotals };

const SUMMARY = "S";
const SUMMARY_V8 = "V";

/** Whether the analysis can be kept (see the module comment). */
export function isCacheable(analysis: FileAnalysis): boolean {
  return (analysis.liveBook?.batches.length ?? 0) === 0 && analysis.spilled?.shelved !== true;
}

/** The weight given to a unit whose runs spilled: it did not fit, so its runs read back from an entry go to the spill file too. */
const SPILLED_WEIGHT = Number.MAX_SAFE_INTEGER;

/**
 * The totals of a unit's runs. Those in memory are counted one by one; a spilled segment brings its
 * own counts (runSpill.ts), so that its runs are not read back and parsed only for the summary (a
 * large unit's runs were read from the spill file twice to be kept: ~5% of a cold run in a profile).
 * Its runs' start times are then unknown: `--since`/`--until` read such a unit whole (runWindow.ts).
 */
function totalsOf({ runs, spilled }: FileAnalysis): RunTotals {
  let counts = noRunLevels();
  let calls = 0;
  let compactions = 0;
  let plain = 0;
  let weight = 0;
  const times = new RunTimesTally();
  const usage = new RunsUsageTotals();
  for (const run of runs) {
    times.add(run);
    usage.add(run);
    calls += run.calls;
    compactions += run.compactions;
    countRun(counts, run.findings);
    if (isPlainRun(run)) plain++;
    else weight += findingsWeight(run);
  }
  const total = { runs: runs.length, plain, weight };
  if (spilled === undefined) {
    const used = usage.value();
    return { ...total, calls, compactions, counts, ...(used.runs > 0 && { usage: used }), times: times.finish() };
  }
  counts = addRunLevels(counts, spilled.counts);
  usage.addAll(spilled.usage);
  const used = usage.value();
  return { runs: runs.length + spilled.runs, calls: calls + spilled.calls, compactions: compactions + spilled.compactions, counts, ...(used.runs > 0 && { usage: used }), plain, weight: SPILLED_WEIGHT };
}

/**
 * A spilled segment's bytes, as they are (whole lines): copied into the entry without being parsed or
 * decoded. One buffer, read into again once the entry took its bytes (encodeEntry copies or writes
 * them before it asks for more), so that a large segment leaves no megabytes of garbage behind.
 */
function* segmentBytes({ path, start, end }: SpillSegment): Generator<Uint8Array> {
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(Math.min(SEGMENT_CHUNK, end - start));
  try {
    for (let at = start; at < end; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
      if (n === 0) throw new Error(`${path} ends before its segment`);
      at += n;
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

const SEGMENT_CHUNK = 1 << 20;

/** The body's lines: the summary, then each run (the spilled ones copied from the spill file). */
export function* analysisBody(analysis: FileAnalysis): Generator<string | Uint8Array> {
  const { runs, spilled, ...rest } = analysis;
  const summary: Summary = { ...rest, totals: totalsOf(analysis) };
  // JSON, read back in half the time of V8's deserializer, unless the live runs' typed arrays need V8's.
  yield summary.liveBook === undefined ? `${SUMMARY}${JSON.stringify(summary)}` : `${SUMMARY_V8}${serialize(summary).toString("base64")}`;
  const at = spilled?.at ?? runs.length;
  for (let i = 0; i < at; i++) yield* runRecords(runs[i]!);
  if (spilled) yield* segmentBytes(spilled);
  for (let i = at; i < runs.length; i++) yield* runRecords(runs[i]!);
}

function summaryOf(line: string): Summary {
  if (line.startsWith(SUMMARY)) return JSON.parse(line.slice(SUMMARY.length)) as Summary;
  if (line.startsWith(SUMMARY_V8)) return deserialize(Buffer.from(line.slice(SUMMARY_V8.length), "base64")) as Summary;
  throw new CorruptEntry("no summary line");
}

/**
 * The analysis an entry holds, its runs kept or spilled as `spill` says (without a spill folder, all
 * kept), or, when they all started outside `window`, only counted (`outside`): their bytes are
 * hashed with the rest of the body, never parsed. `resumable`: only an entry that kept a point to
 * resume from is read (else it throws at its summary). `unread`: the runs are only counted
 * (`unread`), hashed but never parsed, because the command's kept output holds their text
 * (outputSplice.ts). Throws `CorruptEntry`, having undone what it wrote.
 */
export function analysisOfEntry(entry: OpenEntry, spill: SpillOptions | undefined, window?: RunWindow, resumable = false, unread = false): FileAnalysis {
  let summary: Summary | undefined;
  let kept: string[] | undefined;
  const decoder = new StringDecoder("utf8");
  let outside = false;
  const file = spill && spillFileIn(spill.dir);
  const start = file?.length ?? 0;
  try {
    entry.readBody((first) => {
      summary = summaryOf(first);
      // Read for a resume (resumeEntry.ts): an entry without a point is of no use, its runs left unparsed.
      if (resumable && summary.resume === undefined) throw new CorruptEntry("no point to resume from");
      if (unread || (window !== undefined && summary.totals.runs > 0 && allOutside(summary.totals.times, window))) {
        outside = true;
        return () => undefined;
      }
      if (file && !UnitRuns.hasRoom(spill!, summary.totals.plain, summary.totals.weight)) return (bytes) => file.appendBytes(bytes);
      // Decoded as they come (a character cut between two reads is finished by the next): the bytes are
      // the thread's read buffer, and copying them out to join and decode them after cost ~0.1 s of a
      // 1,600-session warm run's 0.9 s of CPU in its allocations and garbage.
      const pieces: string[] = (kept = []);
      return (bytes) => void pieces.push(decoder.write(bytes));
    });
  } catch (error) {
    file?.cut(start);
    throw error instanceof CorruptEntry ? error : new CorruptEntry(String(error));
  }
  const { totals, ...rest } = summary!;
  if (outside && unread) {
    const { runs, calls, compactions, counts, usage } = totals;
    return { ...rest, runs: [], unread: { runs, calls, compactions, counts, ...(usage !== undefined && { usage }) } };
  }
  if (outside) {
    const { runs, calls, compactions, counts, times } = totals;
    return { ...rest, runs: [], outside: { runs, calls, compactions, counts, undated: times!.undated } };
  }
  if (kept !== undefined) return { ...rest, runs: keptRuns(kept.join("") + decoder.end(), totals, spill) };
  const { runs, calls, compactions, counts, usage } = totals;
  return { ...rest, runs: [], ...(runs > 0 && { spilled: { path: file!.path, start, end: file!.length, at: 0, runs, calls, compactions, counts, ...(usage !== undefined && { usage }) } }) };
}

/** The runs of the body's text as objects, counted against the thread's budget as a fresh analysis counts its own. */
function keptRuns(text: string, totals: RunTotals, spill: SpillOptions | undefined): ReplayedRun[] {
  const lines = text.split("\n");
  lines.pop(); // after the last newline
  const unitRuns = new UnitRuns(spill);
  try {
    for (const run of runsOf(lines[Symbol.iterator]())) unitRuns.add(run);
    if (unitRuns.runs.length !== totals.runs || unitRuns.finish() !== undefined) throw new CorruptEntry(`${unitRuns.runs.length} runs kept instead of ${totals.runs}`);
  } catch (error) {
    unitRuns.reset();
    throw error instanceof CorruptEntry ? error : new CorruptEntry(String(error));
  }
  return unitRuns.runs;
}
