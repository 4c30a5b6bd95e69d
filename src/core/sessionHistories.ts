/**
 * The histories of a replayer's runs (replay.ts): one per session, or per run for runs without a
 * session (two maps: no key can collide). A session's history belongs to the profile of the run
 * that opened it (in practice one per input), and is freed when no run of the session is open:
 * its old records can never be seen again.
 */
import type { HistorySharing } from "./history.js";
import { PROFILES } from "./profiles/index.js";
import type { ProfileSession } from "./profiles/profile.js";
import type { RunState } from "./runState.js";

/** A session's history and its open runs (those a parked session takes with it: sessionParking.ts). */
export interface HistoryEntry {
  readonly history: ProfileSession;
  readonly runs: Set<RunState>;
}

export class SessionHistories {
  private readonly bySession = new Map<string, HistoryEntry>();
  private readonly byRun = new Map<string, HistoryEntry>();

  constructor(private readonly sharing: HistorySharing | undefined) {}

  /** Histories held in memory: one per session (or session-less run) that has a run still open. */
  get held(): number {
    return this.bySession.size + this.byRun.size;
  }

  /** The run is open again (or for the first time): its session's history is kept for it. */
  opened(state: RunState): void {
    const [histories, key] = this.slot(state);
    const entry = histories.get(key);
    if (entry) entry.runs.add(state);
    else histories.set(key, { history: PROFILES[state.profile.profile].openSession(this.sharing), runs: new Set([state]) });
  }

  /** The run closed: with no run of its session open, the session's history is freed. */
  closed(state: RunState): void {
    const [histories, key] = this.slot(state);
    const entry = histories.get(key);
    if (entry === undefined) return;
    entry.runs.delete(state);
    if (entry.runs.size === 0) histories.delete(key);
  }

  /** The history of an open run's session. */
  of(state: RunState): ProfileSession {
    const [histories, key] = this.slot(state);
    return histories.get(key)!.history;
  }

  /** Whether the history of the run's session is held here (not freed, not taken out). */
  holds(state: RunState): boolean {
    const [histories, key] = this.slot(state);
    return histories.has(key);
  }

  /** Takes out the entry of the run's session (to be parked), with its open runs. */
  take(state: RunState): HistoryEntry | undefined {
    const [histories, key] = this.slot(state);
    const entry = histories.get(key);
    histories.delete(key);
    return entry;
  }

  /** Puts back an entry taken out (revived). */
  put(state: RunState, entry: HistoryEntry): void {
    const [histories, key] = this.slot(state);
    histories.set(key, entry);
  }

  /** The map and key of the history a run's records live in. */
  private slot(state: RunState): [Map<string, HistoryEntry>, string] {
    return state.session !== null ? [this.bySession, state.session] : [this.byRun, state.run];
  }
}
