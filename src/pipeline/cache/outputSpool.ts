/**
 * A command's output written to a temporary file in the cache as it goes to standard output, so that
 * reportCache.ts can keep it once the command is done (its entry's stamp and first line are known
 * only then) without holding it in memory: it is read back in pieces into the output's entry, then
 * removed. Held in memory, the output (13.5 MB of JSON for the bench's 165 MB folder) was most of what
 * a cold run's peak RSS had over a run without the cache (~158 against ~140 MB).
 *
 * The file is in the packs' folder and its name ends in TEMP_SUFFIX: one left by a process that died
 * before it removed it goes with the eviction scan's temporary files once an hour old (cacheUsage.ts).
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { makeFolder, TEMP_SUFFIX } from "./entryFile.js";
import { PACKS_FOLDER } from "./packFile.js";

/** Bytes read back at a time, and the largest piece of text encoded in the spool's own buffer (larger ones are encoded on their own). */
const PIECE_BYTES = 1 << 20;

export class OutputSpool {
  private fd: number | undefined;
  private path: string | undefined;
  private length = 0;
  private dropped = false;
  private buffer: Buffer | undefined;

  /** Spools into `dir`'s packs folder, up to `maxBytes` (past that the output is not kept). */
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Whether the whole output so far is in the spool: not past `maxBytes`, no write failed. */
  get holdsAll(): boolean {
    return !this.dropped;
  }

  /** Appends a piece of the output. Never throws: past `maxBytes`, or when the file cannot be written, the spool is dropped. */
  write(text: string): void {
    if (this.dropped) return;
    try {
      this.fd ??= this.create();
      const buffer = (this.buffer ??= Buffer.allocUnsafe(PIECE_BYTES));
      // A UTF-16 code unit is at most 3 bytes of UTF-8.
      const bytes = text.length * 3 <= buffer.length ? buffer.subarray(0, buffer.write(text)) : Buffer.from(text);
      for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.length + done);
      this.length += bytes.length;
      if (this.length > this.maxBytes) this.remove();
    } catch {
      this.remove();
    }
  }

  /** The output's bytes in pieces of one buffer, each read over the one before (its user is done with it by then). */
  *pieces(): Generator<Uint8Array> {
    if (this.fd === undefined) return;
    const buffer = (this.buffer ??= Buffer.allocUnsafe(PIECE_BYTES));
    for (let at = 0; at < this.length; ) {
      const n = readSync(this.fd, buffer, 0, Math.min(buffer.length, this.length - at), at);
      if (n === 0) throw new Error(`${this.path} ends before the output written to it`);
      at += n;
      yield buffer.subarray(0, n);
    }
  }

  /** Closes and removes the file; the spool holds nothing more. Never throws (a file left behind goes with the eviction scan). */
  remove(): void {
    this.dropped = true;
    this.buffer = undefined;
    const { fd, path } = this;
    this.fd = this.path = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
    } finally {
      if (path !== undefined) rmSync(path, { force: true });
    }
  }

  private create(): number {
    const folder = join(this.dir, PACKS_FOLDER);
    makeFolder(folder);
    const path = join(folder, `${process.pid}-${threadId}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}-output${TEMP_SUFFIX}`);
    const fd = openSync(path, "wx+");
    this.path = path;
    return fd;
  }
}
