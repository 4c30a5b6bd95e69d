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
import { fnvHash, IdIndex, type IdHash } from "../core/idIndex.js";
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
   * Where each parked session's record starts, by its key (session id, or a session-less run's id)
   * and by each of its open runs' ids: hashes of the ids (core/idIndex.ts), not their strings; a hit
   * is confirmed against the ids the record's head names.
   */
  private readonly sessions: IdIndex;
  private readonly runs: IdIndex;

  /** `bindings`: the process's values the sessions point at (configs, shared constants), named. */
  constructor(
    dir: string,
    private readonly bindings: ReplayBindings,
    hash: IdHash = fnvHash,
  ) {
    this.path = join(dir, `parked-${threadId}-${files++}.v8`);
    this.sessions = new IdIndex(hash);
    this.runs = new IdIndex(hash);
  }

  put(id: string, sessionLess: boolean, session: ParkedSession): boolean {
    let bytes: Buffer;
    try {
      bytes = encodeState(session, REPLAY_CLASSES, this.bindings.bound);
    } catch (error) {
      if (error instanceof UnsavableState) return false;
      throw error;
    }
    const runs = session.runs.map(({ state }) => state.run);
    const head = Buffer.from(JSON.stringify([kindOf(sessionLess), id, ...runs]));
    this.sessions.add(id, kindOf(sessionLess), this.length);
    for (const run of runs) this.runs.add(run, RUN, this.length);
    const prefix = Buffer.allocUnsafe(PREFIX + head.length);
    prefix.writeUInt32LE(bytes.length, 0);
    prefix.writeUInt32LE(head.length, 4);
    head.copy(prefix, PREFIX);
    this.append(prefix);
    this.append(bytes);
    parkedHere++;
    return true;
  }

  has(id: string, sessionLess: boolean): boolean {
    return this.sessionAt(id, sessionLess) !== undefined;
  }

  take(id: string, sessionLess: boolean): ParkedSession {
    return this.takeAt(this.sessionAt(id, sessionLess)!);
  }

  takeRun(run: string): ParkedSession | undefined {
    const at = this.runs.find(run, RUN, (at) => this.headAt(at).runs.includes(run));
    return at === undefined ? undefined : this.takeAt(at);
  }

  /** The unit is done (or read again): the file goes. */
  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      rmSync(this.path, { force: true });
    }
    this.fd = undefined;
    this.sessions.clear();
    this.runs.clear();
    this.pending = undefined;
    this.chunk = undefined;
    this.length = this.flushed = this.readFrom = this.chunkLength = 0;
  }

  /** Where the record of the session parked under `id` starts (a hash's hit confirmed by the record's head). */
  private sessionAt(id: string, sessionLess: boolean): number | undefined {
    const kind = kindOf(sessionLess);
    return this.sessions.find(id, kind, (at) => {
      const head = this.headAt(at);
      return head.key === id && head.kind === kind;
    });
  }

  /** The session whose record starts at `at`, out of the indexes. */
  private takeAt(at: number): ParkedSession {
    const { kind, key, runs, body, length } = this.headAt(at);
    this.sessions.remove(key, kind, at);
    for (const run of runs) this.runs.remove(run, RUN, at);
    return decodeState(this.bytes(body, body + length), REPLAY_CLASSES, this.bindings.values()) as ParkedSession;
  }

  /** What a record's head names (the kind of its key, the key, its open runs), where its session's bytes start and their length. */
  private headAt(at: number): { kind: number; key: string; runs: string[]; body: number; length: number } {
    const prefix = this.bytes(at, at + PREFIX);
    const length = prefix.readUInt32LE(0);
    const headLength = prefix.readUInt32LE(4);
    const [kind, key, ...runs] = JSON.parse(this.bytes(at + PREFIX, at + PREFIX + headLength).toString()) as [number, string, ...string[]];
    return { kind, key, runs, body: at + PREFIX + headLength, length };
  }

  /** Appends `bytes` to the file, through the pending buffer when they fit in it. */
  private append(bytes: Buffer): void {
    if (this.length - this.flushed + bytes.length > CHUNK) this.flush();
    if (bytes.length > CHUNK) {
      // A session larger than the buffer (rare) is written as it is.
      this.write(bytes);
      return;
    }
    const pending = (this.pending ??= Buffer.allocUnsafe(CHUNK));
    bytes.copy(pending, this.length - this.flushed);
    this.length += bytes.length;
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
/**
 * A record's prefix: the length of the session's bytes (uint32), then of its head (uint32), the
 * JSON list of the ids it is found by (its key, then its open runs'), which the session's bytes follow.
 */
const PREFIX = 8;
/** The indexes' kinds of id (core/idIndex.ts hashes them apart). */
const RUN = 2;
const kindOf = (sessionLess: boolean) => (sessionLess ? 1 : 0);

/** Parking for a unit's replay, with a spill folder (none without: every open run stays in memory). */
export function sessionParking(spill: SpillOptions | undefined, bindings: ReplayBindings): { readonly store: ParkedSessionFile; readonly resident: number } | undefined {
  if (spill === undefined) return undefined;
  const store = new ParkedSessionFile(spill.dir, bindings);
  // A replay's state saved for a resume names it (it parked nothing then: cache/resumeUnit.ts), and a restored one gets this analysis's.
  bindings.bound.set(store, "parkedSessions");
  return { store, resident: spill.residentSessions ?? RESIDENT_SESSIONS };
}
