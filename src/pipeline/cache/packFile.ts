/**
 * Pack files: where cache entries (entryFile.ts) are written, appended one after another to a file
 * that belongs to one thread of one process, `<dir>/packs/<pid>-<thread>-<time>-<random>.pack`.
 *
 * Why not a file per entry (the layout before): creating, writing and renaming 1,601 files of 11 KB
 * took ~760 ms on the bench machine's ext4 against ~40 ms for the same bytes appended to one file,
 * and the cold run paid it on top of the analysis. A pack has one writer, so appending needs no lock
 * and no temporary file: an entry is found only through the index (packIndex.ts), which names it
 * once the run is over and its pack written out, so a reader never sees an entry half written, and a
 * writer that dies leaves a pack no index names (removed by the eviction scan once old: cacheUsage.ts).
 *
 * Entries are gathered in a buffer and written in pieces of about a megabyte (a small entry costs no
 * system call of its own). A pack is closed and another begun past `maxBytes` (an eighth of the
 * cache's bound), so that the least recently used packs can be evicted whole (cacheUsage.ts) while a
 * run larger than the bound keeps its newest entries.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { openForReading } from "../../adapters/io/openForReading.js";
import type { ByteHasher } from "./byteHash.js";
import { encodeEntry, makeFolder } from "./entryFile.js";

export const PACKS_FOLDER = "packs";
export const PACK_SUFFIX = ".pack";

/** Where an entry is: its pack's file name (in PACKS_FOLDER), its first byte and its length. */
export interface EntryPlace {
  readonly pack: string;
  readonly offset: number;
  readonly length: number;
}

const BUFFER_BYTES = 1 << 20;

export class PackWriter {
  private fd: number | undefined;
  private name = "";
  /** Bytes of the pack: those written, then those in the buffer. */
  private written = 0;
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private buffered = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * Appends an entry; returns where it is, or undefined when it is longer than `maxLength` (it is
   * then taken back out). Throws when the pack cannot be written; the entry is then not in it.
   */
  append(stamp: string, body: Iterable<string | Uint8Array>, hasher: ByteHasher, maxLength: number): EntryPlace | undefined {
    if (this.fd !== undefined && this.written + this.buffered >= this.maxBytes) this.close();
    this.fd ??= this.begin();
    const offset = this.written + this.buffered;
    let length: number;
    try {
      length = encodeEntry(stamp, body, hasher, (bytes) => this.put(bytes));
    } catch (error) {
      this.cut(offset);
      throw error;
    }
    if (length > maxLength) {
      this.cut(offset);
      return undefined;
    }
    return { pack: this.name, offset, length };
  }

  /** Writes out what is buffered: the entries appended so far are then all in the file. */
  flush(): void {
    if (this.fd === undefined || this.buffered === 0) return;
    this.writeOut(this.buffer.subarray(0, this.buffered));
    this.buffered = 0;
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private begin(): number {
    const folder = join(this.dir, PACKS_FOLDER);
    makeFolder(folder);
    this.name = `${process.pid}-${threadId}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}${PACK_SUFFIX}`;
    this.written = 0;
    this.buffered = 0;
    // "wx": the name is this writer's alone; a file already there is not another's pack to append to.
    return openSync(join(folder, this.name), "wx");
  }

  private put(bytes: Uint8Array): void {
    if (this.buffered + bytes.length > BUFFER_BYTES) this.flush();
    if (bytes.length >= BUFFER_BYTES) {
      this.writeOut(bytes);
      return;
    }
    this.buffer.set(bytes, this.buffered);
    this.buffered += bytes.length;
  }

  private writeOut(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd!, bytes, done, bytes.length - done, this.written + done);
    this.written += bytes.length;
  }

  /** Takes back everything from `offset` on (an entry that failed or is not kept). */
  private cut(offset: number): void {
    if (offset >= this.written) {
      this.buffered = offset - this.written;
      return;
    }
    this.buffered = 0;
    this.written = offset;
    ftruncateSync(this.fd!, offset);
  }
}

/** Open packs for reading, one descriptor each, kept for the thread's next entries (a warm run reads ~1,600 from one or two packs). */
export class PackReaders {
  private readonly open = new Map<string, number | undefined>();

  constructor(private readonly dir: string) {}

  /** The descriptor of a pack, or undefined when it is gone (evicted, cleared) or cannot be read. */
  fd(pack: string): number | undefined {
    if (this.open.has(pack)) return this.open.get(pack);
    // A pack name is a plain file name (the index is read from disk: it could say anything).
    const fd = /^[\w.-]+$/.test(pack) && pack.endsWith(PACK_SUFFIX) ? openForReading(join(this.dir, PACKS_FOLDER, pack)) : undefined;
    this.open.set(pack, fd);
    return fd;
  }

  closeAll(): void {
    for (const fd of this.open.values()) if (fd !== undefined) closeSync(fd);
    this.open.clear();
  }
}
