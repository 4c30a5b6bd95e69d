/**
 * Where replay parks sessions out of memory (core/sessionParking.ts): one append-only file per
 * analysis of a unit, in the command's spill folder (spillFiles.ts: removed with it, however the
 * command ends), and an index of where each parked session's bytes are. A session is written with
 * the resumable replay state's codec (cache/stateCodec.ts, its classes and bindings:
 * cache/resumeClasses.ts), so that it comes back as it left, shared references and classes
 * included. A session revived and parked again is written again (the file only grows: it goes when
 * the unit is done).
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { ParkedSession, SessionStore } from "../core/sessionParking.js";
import { REPLAY_CLASSES, type ReplayBindings } from "./cache/resumeClasses.js";
import { decodeState, encodeState, UnsavableState } from "./cache/stateCodec.js";
import type { SpillOptions } from "./runSpill.js";

/**
 * Sessions with open runs a unit's replay holds before it parks the least recently touched (per
 * thread; `$LOOPLENS_RESIDENT_SESSIONS`, tests set it low). An open session costs ~2 KB, so these
 * are ~8 MB; no bench input but the one of runs that never end has that many open at once.
 */
export const RESIDENT_SESSIONS = 4_096;

let files = 0;
let parkedHere = 0;

/** Sessions this thread parked (put in a file): what tests check parking happened by. */
export function sessionsParked(): number {
  return parkedHere;
}

export class ParkedSessionFile implements SessionStore {
  private readonly path: string;
  private fd: number | undefined;
  /** Bytes written (the pending ones included), and those on disk. */
  private length = 0;
  private flushed = 0;
  /**
   * Sessions parked since the last write, copied into one buffer made once and written together (one
   * system call a session was a tenth of the time). One buffer for the file's life, not one a write:
   * each new megabyte, and each session's serialised bytes held until the write, outlived the young
   * generation, and their memory (outside the heap) came back only at a full collection: ~40 MB of
   * peak RSS on a file of runs that never end.
   */
  private pending: Buffer | undefined;
  /** The bytes last read from the file (`chunkLength` of them, from `readFrom`): sessions are mostly revived in the order they were parked. */
  private chunk: Buffer | undefined;
  private chunkLength = 0;
  private readFrom = 0;
  /**
   * Where each parked session's record starts, by session id and by a session-less run's id: a
   * number, not an object (the record's length heads it), keyed by the id the runs hold anyway.
   */
  private readonly sessions = new Map<string, number>();
  private readonly sessionLess = new Map<string, number>();

  /** `bindings`: the process's values the sessions point at (configs, shared constants), named. */
  constructor(
    dir: string,
    private readonly bindings: ReplayBindings,
  ) {
    this.path = join(dir, `parked-${threadId}-${files++}.v8`);
  }

  put(id: string, sessionLess: boolean, session: ParkedSession): boolean {
    let bytes: Buffer;
    try {
      bytes = encodeState(session, REPLAY_CLASSES, this.bindings.bound);
    } catch (error) {
      if (error instanceof UnsavableState) return false;
      throw error;
    }
    this.index(sessionLess).set(id, this.length);
    if (this.length - this.flushed + HEAD + bytes.length > CHUNK) this.flush();
    const pending = (this.pending ??= Buffer.allocUnsafe(CHUNK));
    const at = this.length - this.flushed;
    if (HEAD + bytes.length > CHUNK) {
      // A session larger than the buffer (rare) is written as it is, after its head.
      const head = Buffer.allocUnsafe(HEAD);
      head.writeUInt32LE(bytes.length);
      this.write(head);
      this.write(bytes);
    } else {
      pending.writeUInt32LE(bytes.length, at);
      bytes.copy(pending, at + HEAD);
      this.length += HEAD + bytes.length;
    }
    parkedHere++;
    return true;
  }

  has(id: string, sessionLess: boolean): boolean {
    return this.index(sessionLess).has(id);
  }

  take(id: string, sessionLess: boolean): ParkedSession {
    const index = this.index(sessionLess);
    const start = index.get(id)!;
    index.delete(id);
    const length = this.bytes(start, start + HEAD).readUInt32LE(0);
    return decodeState(this.bytes(start + HEAD, start + HEAD + length), REPLAY_CLASSES, this.bindings.values()) as ParkedSession;
  }

  /** The unit is done (or read again): the file goes. */
  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      rmSync(this.path, { force: true });
    }
    this.fd = undefined;
    this.sessions.clear();
    this.sessionLess.clear();
    this.pending = undefined;
    this.chunk = undefined;
    this.length = this.flushed = this.readFrom = this.chunkLength = 0;
  }

  private index(sessionLess: boolean): Map<string, number> {
    return sessionLess ? this.sessionLess : this.sessions;
  }

  /** Writes the pending bytes. */
  private flush(): void {
    const pending = this.length - this.flushed;
    if (pending > 0) {
      this.length = this.flushed;
      this.write(this.pending!.subarray(0, pending));
    }
  }

  /** Writes `bytes` at the end of the file (nothing pending). */
  private write(bytes: Buffer): void {
    this.fd ??= openSync(this.path, "w+");
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.flushed + done);
    this.flushed += bytes.length;
    this.length = this.flushed;
  }

  /** The file's bytes from `start` to `end`, valid until the next call (the read buffer is reused). */
  private bytes(start: number, end: number): Buffer {
    if (end > this.flushed) this.flush();
    if (this.chunk !== undefined && start >= this.readFrom && end <= this.readFrom + this.chunkLength) return this.chunk.subarray(start - this.readFrom, end - this.readFrom);
    // One read buffer for the file's life (see `pending`); a session larger than it gets its own.
    const bytes = end - start <= CHUNK ? (this.chunk ??= Buffer.allocUnsafe(CHUNK)) : Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < end - start) {
      const n = readSync(this.fd!, bytes, done, bytes.length - done, start + done);
      if (n === 0) throw new Error(`parked sessions file ${this.path} ended early`);
      done += n;
    }
    if (bytes === this.chunk) {
      this.chunkLength = done;
      this.readFrom = start;
    }
    return bytes.subarray(0, end - start);
  }
}

const CHUNK = 1 << 20;
/** A record's head: the length of the session's bytes that follow it (uint32). */
const HEAD = 4;

/** Parking for a unit's replay, with a spill folder (none without: every open run stays in memory). */
export function sessionParking(spill: SpillOptions | undefined, bindings: ReplayBindings): { readonly store: ParkedSessionFile; readonly resident: number } | undefined {
  if (spill === undefined) return undefined;
  const store = new ParkedSessionFile(spill.dir, bindings);
  // A replay's state saved for a resume names it (it parked nothing then: cache/resumeUnit.ts), and a restored one gets this analysis's.
  bindings.bound.set(store, "parkedSessions");
  return { store, resident: spill.residentSessions ?? RESIDENT_SESSIONS };
}
