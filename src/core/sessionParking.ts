/**
 * Sessions with open runs parked out of memory (replay.ts): runs that never end before their file
 * does (canonical events without `run_end`) all stay open to the end, each with its history, engine
 * and recent patterns (~2 KB a run). Past `resident` sessions held, the one least recently touched
 * is handed to a store (the pipeline's: pipeline/parkedSessions.ts writes it to a file) with its
 * history and every open run's `RunState`, whole, and revived at its next event (or a call for the
 * run's facts), or when its runs are handed out at the end. Which store, and how many sessions stay,
 * is the caller's choice; this is pure bookkeeping.
 *
 * A parked run leaves the replayer's map of runs (its place in the replayer's queue is its id, which
 * it keeps: replay.ts), and comes back as a new object equal to the one that left: nothing else may
 * hold a run's `RunState` across events (a shelf's places key on the run's id: findingShelf.ts).
 * What stays of it is its id in that queue and an entry in the store's index of parked runs (the
 * store finds a run's session: no map of run to session here, which held both ids' strings);
 * leaving the fields in an object that stayed (~210 bytes a run) kept the peak memory growing.
 */
import type { HistoryEntry, SessionHistories } from "./sessionHistories.js";
import type { ProfileSession } from "./profiles/profile.js";
import type { RunState } from "./runState.js";
import type { TimelineRecorder } from "./timeline.js";

/** One open run of a parked session: its state and timeline recorder. */
export interface ParkedRun {
  readonly state: RunState;
  readonly recorder: TimelineRecorder | undefined;
}

/** What a store keeps of a session: its history and open runs (plain data and replay classes). */
export interface ParkedSession {
  readonly history: ProfileSession;
  readonly runs: readonly ParkedRun[];
}

export interface SessionStore {
  /** Keeps the session; false when it cannot (what it holds cannot be carried): it then stays in memory. */
  put(id: string, sessionLess: boolean, session: ParkedSession): boolean;
  has(id: string, sessionLess: boolean): boolean;
  /** The session put under `id`, which the store no longer holds. */
  take(id: string, sessionLess: boolean): ParkedSession;
  /** The session parked with the run `run` among its open runs, which the store no longer holds (undefined: none). */
  takeRun(run: string): ParkedSession | undefined;
}

export interface ParkingOptions {
  /** Sessions with open runs held in memory at most (the last event's and this event's are never parked). */
  readonly resident: number;
  readonly store: SessionStore;
}

export class SessionParking {
  /** Sessions held, least recently touched first: a key and any one of its runs (the histories find the rest). */
  private readonly recency = new Map<string, RunState>();
  private readonly resident: number;
  private readonly store: SessionStore;
  /** Sessions the store could not keep (sessionParking `put`), not tried again while they stay open. */
  private readonly pinned = new Set<string>();
  private newest: string | undefined;
  private previous: string | undefined;
  /** Sessions parked so far (parked again after a revival counts again). */
  parked = 0;

  /** `runs`: the replayer's runs by id, which parked runs leave and revived ones come back to. */
  constructor(
    options: ParkingOptions,
    private readonly histories: SessionHistories,
    private readonly runs: Map<string, RunState>,
    private readonly recorders: Map<string, TimelineRecorder> | undefined,
  ) {
    this.resident = options.resident;
    this.store = options.store;
  }

  /**
   * The state of a run parked with its session (undefined: the run is not parked). The session comes
   * back, every open run of it into the replayer's runs, and is now the most recent.
   */
  parkedRun(run: string): RunState | undefined {
    const parked = this.store.takeRun(run);
    if (parked === undefined) return undefined;
    this.revive(parked);
    const state = this.runs.get(run)!;
    this.current(state);
    this.evict();
    return state;
  }

  /**
   * An event of the run (open, or about to open): its session is revived if parked (a closed run
   * reopening in a session whose other runs are parked), and is now the most recent.
   */
  touch(state: RunState): void {
    const key = this.current(state);
    if (this.recency.delete(key)) this.recency.set(key, state);
    else if (this.store.has(state.session ?? state.run, state.session === null)) {
      this.revive(this.store.take(state.session ?? state.run, state.session === null));
      this.evict();
    }
  }

  /** The run opened: past the bound, the sessions least recently touched are parked. */
  opened(state: RunState): void {
    const key = this.current(state);
    this.recency.delete(key);
    this.recency.set(key, state);
    this.evict();
  }

  /** The run closed: a session with no open run left is no longer held. */
  closed(state: RunState): void {
    if (this.histories.holds(state)) return;
    const key = keyOf(state.session, state.run);
    this.recency.delete(key);
    this.pinned.delete(key);
  }

  /** The key of this event's session, noted with the last event's (replay.ts holds the last run as it is: never parked). */
  private current(state: RunState): string {
    const key = keyOf(state.session, state.run);
    if (key !== this.newest) {
      this.previous = this.newest;
      this.newest = key;
    }
    return key;
  }

  private evict(): void {
    for (const [key, any] of this.recency) {
      if (this.histories.held <= this.resident) return;
      if (key === this.newest || key === this.previous || this.pinned.has(key)) continue;
      if (!this.park(key, any)) this.pinned.add(key);
    }
  }

  /** False when the store could not keep it: the session stays as it was. */
  private park(key: string, any: RunState): boolean {
    const entry = this.histories.take(any)!;
    const runs: ParkedRun[] = [];
    for (const state of entry.runs) runs.push({ state, recorder: this.recorders?.get(state.run) });
    if (!this.store.put(any.session ?? any.run, any.session === null, { history: entry.history, runs })) {
      this.histories.put(any, entry);
      return false;
    }
    this.recency.delete(key);
    for (const state of entry.runs) {
      this.runs.delete(state.run);
      this.recorders?.delete(state.run);
    }
    this.parked++;
    return true;
  }

  /** Brings back a session the store gave back, with its open runs. */
  private revive(parked: ParkedSession): void {
    const open = new Set<RunState>();
    for (const { state, recorder } of parked.runs) {
      this.runs.set(state.run, state);
      if (recorder !== undefined) this.recorders?.set(state.run, recorder);
      open.add(state);
    }
    const any = open.values().next().value!;
    const entry: HistoryEntry = { history: parked.history, runs: open };
    this.histories.put(any, entry);
    this.recency.set(keyOf(any.session, any.run), any);
  }
}

/** The key of a run's session (sessionHistories.ts keeps session-less runs apart). */
const keyOf = (session: string | null, run: string) => (session !== null ? `s${session}` : `r${run}`);
