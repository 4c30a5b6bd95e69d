/**
 * Sessions with open runs parked out of memory (replay.ts): runs that never end before their file
 * does (canonical events without `run_end`) all stay open to the end, each with its history, engine
 * and recent patterns (~2 KB a run). Past `resident` sessions held, the one least recently touched
 * is handed to a store (the pipeline's: pipeline/parkedSessions.ts writes it to a file) with its
 * history and every open run's working state, and revived at its next event, or when its runs are
 * handed out at the end. Which store, and how many sessions stay, is the caller's choice; this is
 * pure bookkeeping.
 *
 * A parked run's `RunState` stays where it is (the replayer's map and queue, a shelf's places key on
 * it): only its working fields leave, and are put back into the same object on revival. Its
 * `facts`, `startedAt` and counts stay: they are small, and `facts` may be told between events.
 */
import type { HistoryEntry, SessionHistories } from "./sessionHistories.js";
import type { ProfileSession } from "./profiles/profile.js";
import type { RunState } from "./runState.js";
import type { TimelineRecorder } from "./timeline.js";

/** The working fields of an open run: those that go with its parked session. */
const PARKED_FIELDS = ["engine", "recent", "turns", "timeline", "findings", "firstStop", "guardWindows", "recordedVetoCalls"] as const;

type ParkedField = (typeof PARKED_FIELDS)[number];

/** One open run of a parked session: its working fields and timeline recorder. */
export interface ParkedRun {
  readonly run: string;
  readonly fields: Partial<Pick<RunState, ParkedField>>;
  readonly recorder: TimelineRecorder | undefined;
}

/** What a store keeps of a session: its history and open runs (plain data and replay classes). */
export interface ParkedSession {
  readonly history: ProfileSession;
  readonly runs: readonly ParkedRun[];
}

/**
 * Where parked sessions go, by the id their runs already hold: the session's, or a session-less
 * run's own (`sessionLess`: the two are apart, as in sessionHistories.ts). A key made per session
 * (a prefixed string) would stay in the store's index for each parked session: ~35 bytes a run on
 * a file of runs that never end, one session each.
 */
export interface SessionStore {
  /** Keeps the session; false when it cannot (what it holds cannot be carried): it then stays in memory. */
  put(id: string, sessionLess: boolean, session: ParkedSession): boolean;
  has(id: string, sessionLess: boolean): boolean;
  /** The session put under `id`, which the store no longer holds. */
  take(id: string, sessionLess: boolean): ParkedSession;
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

  constructor(
    options: ParkingOptions,
    private readonly histories: SessionHistories,
    private readonly runs: ReadonlyMap<string, RunState>,
    private readonly recorders: Map<string, TimelineRecorder> | undefined,
  ) {
    this.resident = options.resident;
    this.store = options.store;
  }

  /** An event of the run (open, or about to open): its session is revived if parked, and is now the most recent. */
  touch(state: RunState): void {
    const key = this.current(state);
    if (this.recency.delete(key)) this.recency.set(key, state);
    else if (this.store.has(state.session ?? state.run, state.session === null)) {
      this.revive(key, state);
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
    const key = keyOf(state);
    this.recency.delete(key);
    this.pinned.delete(key);
  }

  /** The key of this event's session, noted with the last event's (replay.ts holds the last run as it is: never parked). */
  private current(state: RunState): string {
    const key = keyOf(state);
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
    for (const state of entry.runs) runs.push({ run: state.run, fields: workingFields(state), recorder: this.recorders?.get(state.run) });
    if (!this.store.put(any.session ?? any.run, any.session === null, { history: entry.history, runs })) {
      this.histories.put(any, entry);
      return false;
    }
    this.recency.delete(key);
    for (const state of entry.runs) {
      const hollow = state as unknown as Record<ParkedField, unknown>;
      for (const field of PARKED_FIELDS) if (Object.hasOwn(state, field)) hollow[field] = undefined;
      this.recorders?.delete(state.run);
    }
    this.parked++;
    return true;
  }

  private revive(key: string, any: RunState): void {
    const session = this.store.take(any.session ?? any.run, any.session === null);
    const open = new Set<RunState>();
    for (const { run, fields, recorder } of session.runs) {
      const state = this.runs.get(run)!;
      Object.assign(state, fields);
      if (recorder !== undefined) this.recorders?.set(run, recorder);
      open.add(state);
    }
    const entry: HistoryEntry = { history: session.history, runs: open };
    this.histories.put(any, entry);
    this.recency.set(key, any);
  }
}

/** The key of a run's session (sessionHistories.ts keeps session-less runs apart). */
const keyOf = (state: RunState) => (state.session !== null ? `s${state.session}` : `r${state.run}`);

function workingFields(state: RunState): ParkedRun["fields"] {
  const fields: Record<string, unknown> = {};
  for (const field of PARKED_FIELDS) if (Object.hasOwn(state, field)) fields[field] = state[field];
  return fields;
}
