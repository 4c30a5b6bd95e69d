/**
 * Runs without anything to show, kept on disk once a thread holds many of them, so that memory does
 * not grow with the number of runs (a 1 GB transcript holds ~160 000 runs; ~300 bytes each in memory).
 *
 * A *plain* run is one with no finding, guard window, recorded veto or timeline: all the report
 * knows of it is who it was and how many calls and compactions it had. Each thread keeps up to
 * `plainRunsInMemory` plain runs as objects; past that, a unit's later runs are written to the
 * thread's spill file in order, one JSON line per plain run and a `-` line for each other run (kept
 * as an object in the unit's run list, where the `-` says it goes). Reading a segment back with the
 * run list gives every run in input order, exactly as it was (`SpilledRuns.inOrder`).
 *
 * Only `analyze` spills (the option `spill`); the files live in one temporary folder that the
 * command removes when it is done (`withSpillFolder`).
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { ReplayedRun } from "../core/findings.js";
import { NONE } from "../core/none.js";
import type { SpilledRuns } from "../reporters/model.js";

/** Where and when to spill: plain data, so that it crosses to worker threads. */
export interface SpillOptions {
  /** The folder for spill files (made by `withSpillFolder`). */
  readonly dir: string;
  /** Plain runs a thread keeps as objects before it writes them out (parallel.ts shares the analysis's budget among threads). */
  readonly plainRunsInMemory: number;
  /** Live runs (Gateway logs) a book keeps in its table before it writes the oldest out (default LIVE_ROWS_IN_MEMORY, core/liveRuns.ts). */
  readonly liveRunsInMemory?: number;
}

/** Plain runs an analysis holds in memory by default (~5 MB of them), shared among its threads. */
export const PLAIN_RUNS_IN_MEMORY = 16_384;

/** One unit's spilled runs: bytes `[start, end)` of `path`, read back into the run list from index `at`. */
export interface SpillSegment {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Index into the run list of the analysis where the segment's first run goes. */
  readonly at: number;
  /** The plain runs the segment holds, with their calls and compactions (for the summary). */
  readonly runs: number;
  readonly calls: number;
  readonly compactions: number;
}

/** Nothing a report shows of a run but its identity and counts (see the module comment). */
export function isPlainRun(run: ReplayedRun): boolean {
  return run.findings.length === 0 && run.guardWindows.length === 0 && run.recordedVetoes === 0 && run.firstStop === null && run.timeline === undefined;
}

/** The fields of a plain run that vary; `plainRun` puts the others back. */
function plainRecord(run: ReplayedRun): string {
  const { run: id, agent, session, file, calls, compactions, startedAt, profile } = run;
  return JSON.stringify({ run: id, agent, session, file, calls, compactions, startedAt, profile });
}

function plainRun(record: string): ReplayedRun {
  const fields = JSON.parse(record) as Pick<ReplayedRun, "run" | "agent" | "session" | "file" | "calls" | "compactions" | "startedAt" | "profile">;
  return { ...fields, findings: NONE, firstStop: null, guardWindows: NONE, recordedVetoes: 0, recordedVetoCalls: NONE };
}

/** Marks, in a segment, the place of a run kept as an object. */
const KEPT = "-";

/** This thread's spill file: appended to in batches, cut back when a unit is read again. */
class SpillFile {
  private fd: number | undefined;
  private pending = "";
  /** Bytes on disk: where the pending batch goes (after a cut, the fd's own offset is past the end). */
  private flushed = 0;
  /** Bytes written, the pending batch included. */
  length = 0;
  /** Plain runs this thread holds as objects (the budget counts them). */
  plainInMemory = 0;

  constructor(readonly path: string) {}

  append(line: string): void {
    this.pending += `${line}\n`;
    this.length += Buffer.byteLength(line) + 1;
    if (this.pending.length >= WRITE_BATCH) this.flush();
  }

  flush(): void {
    if (this.pending === "") return;
    this.fd ??= openSync(this.path, "w+");
    writeSync(this.fd, this.pending, this.flushed);
    this.flushed = this.length;
    this.pending = "";
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Back to `length` bytes (a unit read again voids what it wrote). */
  cut(length: number): void {
    this.flush();
    if (this.fd !== undefined) ftruncateSync(this.fd, length);
    this.length = length;
    this.flushed = length;
  }
}

const WRITE_BATCH = 1 << 20;

/** One spill file per thread and folder (a worker reads many units into it, one after another). */
const spillFiles = new Map<string, SpillFile>();

function spillFileIn(dir: string): SpillFile {
  let file = spillFiles.get(dir);
  if (!file) {
    file = new SpillFile(join(dir, `runs-${threadId}.ndjson`));
    spillFiles.set(dir, file);
  }
  return file;
}

/** The runs of one unit as replay settles them: objects, then (past the budget) a spill segment. */
export class UnitRuns {
  readonly runs: ReplayedRun[] = [];
  private readonly file: SpillFile | undefined;
  private segment: { start: number; at: number; runs: number; calls: number; compactions: number } | undefined;
  private plainKept = 0;

  constructor(private readonly options: SpillOptions | undefined) {
    this.file = options && spillFileIn(options.dir);
  }

  add(run: ReplayedRun): void {
    const plain = isPlainRun(run);
    const file = this.file;
    if (file && !this.segment && plain && file.plainInMemory >= this.options!.plainRunsInMemory) {
      this.segment = { start: file.length, at: this.runs.length, runs: 0, calls: 0, compactions: 0 };
    }
    if (this.segment && plain) {
      file!.append(plainRecord(run));
      this.segment.runs++;
      this.segment.calls += run.calls;
      this.segment.compactions += run.compactions;
      return;
    }
    if (this.segment) file!.append(KEPT);
    else if (plain && file) {
      file.plainInMemory++;
      this.plainKept++;
    }
    this.runs.push(run);
  }

  /** The unit is read again: what it delivered so far is void. */
  reset(): void {
    if (this.file) {
      if (this.segment) this.file.cut(this.segment.start);
      this.file.plainInMemory -= this.plainKept;
    }
    this.segment = undefined;
    this.plainKept = 0;
    this.runs.length = 0;
  }

  /** The unit's spilled runs, written out (undefined when it kept all as objects). */
  finish(): SpillSegment | undefined {
    if (!this.segment || !this.file) return undefined;
    this.file.flush();
    return { path: this.file.path, end: this.file.length, ...this.segment };
  }
}

/** The segments of an analysis, moved to where their units' runs begin in the merged run list. */
export function shiftedSegment(segment: SpillSegment, runsBefore: number): SpillSegment {
  return { ...segment, at: segment.at + runsBefore };
}

/** Every spilled run of an analysis, counted, and read back in order with the kept ones. */
export function spilledRuns(segments: readonly SpillSegment[]): SpilledRuns | undefined {
  if (segments.length === 0) return undefined;
  const total = (key: "runs" | "calls" | "compactions") => segments.reduce((sum, s) => sum + s[key], 0);
  return {
    runs: total("runs"),
    calls: total("calls"),
    compactions: total("compactions"),
    *inOrder(kept) {
      const reader = new SegmentReader();
      try {
        let next = 0;
        for (const segment of segments) {
          while (next < segment.at) yield kept[next++]!;
          for (const record of reader.lines(segment)) yield record === KEPT ? kept[next++]! : plainRun(record);
        }
        while (next < kept.length) yield kept[next++]!;
      } finally {
        reader.close();
      }
    },
  };
}

const READ_CHUNK = 1 << 20;

/**
 * Read buffers of closed readers, for the next ones: a live run book reads its batches back with a
 * reader each (1 M runs: ~120 reads), and a fresh 1 MB buffer each was memory outside the heap that
 * only a GC gave back. A list, not one buffer: two readers may be open at once.
 */
const freeChunks: Buffer[] = [];

/**
 * Reads segments back: one descriptor per spill file and one buffer for all of them. A thread's units
 * are many small segments of one file (7,138 on a folder of 7,241 files), and opening the file and
 * allocating a buffer for each was most of the time spent reading them.
 */
export class SegmentReader {
  private readonly fds = new Map<string, number>();
  private chunk: Buffer | undefined;

  /** The lines of a segment, read in chunks (a line never splits a UTF-8 sequence: `\n` is one byte). */
  *lines(segment: Pick<SpillSegment, "path" | "start" | "end">): Generator<string> {
    let fd = this.fds.get(segment.path);
    if (fd === undefined) {
      fd = openSync(segment.path, "r");
      this.fds.set(segment.path, fd);
    }
    const chunk = (this.chunk ??= freeChunks.pop() ?? Buffer.allocUnsafe(READ_CHUNK));
    let carried: Buffer = Buffer.alloc(0);
    for (let at = segment.start; at < segment.end; ) {
      const n = readSync(fd, chunk, 0, Math.min(READ_CHUNK, segment.end - at), at);
      if (n === 0) throw new Error(`spill file ${segment.path} ended early`);
      at += n;
      const bytes = carried.length > 0 ? Buffer.concat([carried, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let from = 0;
      for (let nl = bytes.indexOf(10, from); nl !== -1; nl = bytes.indexOf(10, from)) {
        yield bytes.toString("utf8", from, nl);
        from = nl + 1;
      }
      // Copied: the chunk is read into again.
      carried = Buffer.from(bytes.subarray(from));
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    if (this.chunk) freeChunks.push(this.chunk);
    this.chunk = undefined;
  }
}

/**
 * Runs `work` with a fresh spill folder, removed afterwards whatever happens (and at exit, should
 * the process end first); with none when no temporary folder can be made.
 */
export async function withSpillFolder<T>(work: (dir: string | undefined) => Promise<T>): Promise<T> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "looplens-runs-"));
  } catch {
    return work(undefined); // no writable temporary folder: every run stays in memory, as it can
  }
  const remove = () => {
    spillFiles.get(dir)?.close();
    spillFiles.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", remove);
  try {
    return await work(dir);
  } finally {
    process.removeListener("exit", remove);
    remove();
  }
}
