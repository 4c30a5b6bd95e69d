/**
 * The files runs are spilled to (runSpill.ts, and the live runs of Gateway logs: liveRowFile.ts):
 * one per thread and folder, appended to in batches and cut back when a unit is read again; read
 * back in chunks through one descriptor per file; all in one temporary folder that is removed when
 * the command is done.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { cleanUpOnEarlyEnd } from "./earlyEnd.js";

/** This thread's spill file: appended to in batches, cut back when a unit is read again. */
export class SpillFile {
  private fd: number | undefined;
  private pending = "";
  /** Bytes on disk: where the pending batch goes (after a cut, the fd's own offset is past the end). */
  private flushed = 0;
  /** Bytes written, the pending batch included. */
  length = 0;
  /** Plain runs this thread holds as objects (the budget counts them). */
  plainInMemory = 0;
  /** Findings this thread holds in runs kept as objects (`findingsWeight`). */
  findingsInMemory = 0;

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

  /** Lines already in the spill format, as bytes (a cache entry's runs: cache/analysisEntry.ts). */
  appendBytes(bytes: Uint8Array): void {
    this.flush();
    this.fd ??= openSync(this.path, "w+");
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.flushed + done);
    this.length += bytes.length;
    this.flushed = this.length;
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

/**
 * One spill file per thread, folder and kind (a worker reads many units into it, one after another):
 * `runs`, the runs handed out; `findings`, the findings long runs put on the shelf while they go on
 * (shelvedFindings.ts), apart because they are written between other runs' records; `notes`, what
 * a selection reads of each spilled run (runNotes.ts), apart so that it reads none of the runs.
 */
const spillFiles = new Map<string, Map<SpillKind, SpillFile>>();

export type SpillKind = "runs" | "findings" | "notes";

export function spillFileIn(dir: string, kind: SpillKind = "runs"): SpillFile {
  let files = spillFiles.get(dir);
  if (!files) spillFiles.set(dir, (files = new Map()));
  let file = files.get(kind);
  if (!file) {
    file = new SpillFile(join(dir, `${kind}-${threadId}.ndjson`));
    files.set(kind, file);
  }
  return file;
}

const READ_CHUNK = 1 << 20;

/** Bytes `[start, end)` of the file at `path` (a spill segment: runSpill.ts). */
export interface FileBytes {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

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
  *lines(segment: FileBytes): Generator<string> {
    let fd = this.fds.get(segment.path);
    if (fd === undefined) {
      fd = openSync(segment.path, "r");
      this.fds.set(segment.path, fd);
    }
    const chunk = (this.chunk ??= freeChunks.pop() ?? Buffer.allocUnsafe(READ_CHUNK));
    // The start of a line longer than what is left of a chunk, in copies (the chunk is read into
    // again), joined once its end is read: joining at every chunk copied a long line over and over
    // (a run of 200,000 findings is one 127 MB line: half the time of its report).
    let carried: Buffer[] = [];
    for (let at = segment.start; at < segment.end; ) {
      const n = readSync(fd, chunk, 0, Math.min(READ_CHUNK, segment.end - at), at);
      if (n === 0) throw new Error(`spill file ${segment.path} ended early`);
      at += n;
      const bytes = chunk.subarray(0, n);
      let from = 0;
      for (let nl = bytes.indexOf(10, from); nl !== -1; nl = bytes.indexOf(10, from)) {
        if (carried.length === 0) yield bytes.toString("utf8", from, nl);
        else {
          carried.push(bytes.subarray(from, nl));
          const line = Buffer.concat(carried);
          carried = [];
          yield line.toString("utf8");
        }
        from = nl + 1;
      }
      if (from < n) carried.push(Buffer.from(bytes.subarray(from)));
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
 * Runs `work` with a fresh spill folder, removed afterwards whatever happens (and should the
 * process end first, by exit or by SIGINT/SIGTERM/SIGHUP: earlyEnd.ts); with none when no
 * temporary folder can be made.
 */
export async function withSpillFolder<T>(work: (dir: string | undefined) => Promise<T>): Promise<T> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "looplens-runs-"));
  } catch {
    return work(undefined); // no writable temporary folder: every run stays in memory, as it can
  }
  const remove = () => {
    for (const file of spillFiles.get(dir)?.values() ?? []) file.close();
    spillFiles.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  const forget = cleanUpOnEarlyEnd(remove);
  try {
    return await work(dir);
  } finally {
    forget();
    remove();
  }
}
