/**
 * Tool-call history (spec: detection.md "History"): one list per session, trimmed to the newest
 * `historySize` records after every append. Detection and outcome matching only look at records of
 * the same run, but records of other runs of the session still take window slots, as in the runtime.
 *
 * `sweep` replays every event under many configs at once, and configs that differ only in their
 * thresholds keep equal histories until one of them blocks a call the others let through (a blocked
 * call never enters the history). A `HistorySharing` lets their histories share one list and one
 * measurement per event while they are equal, instead of each config appending, attaching and
 * measuring on its own copy (see `SessionHistory.listToChange` for why sharing stays exact).
 */
import { measure, type GenerationRules, type Probe, type Signals } from "./detectors.js";

export interface CallRecord {
  readonly tool: string;
  readonly argsHash: string;
  readonly callId?: string;
  readonly run: string;
  /** Set once: in place on a list never shared; on a shared one, an outcome replaces its record. */
  readonly resultHash?: string;
  readonly unknownTool?: string;
}

/** An outcome to attach (a prepared outcome event with a result can be passed as it is). */
export type AnsweredRecord = Pick<CallRecord, "tool" | "argsHash" | "callId" | "run" | "unknownTool"> & { readonly resultHash: string };

/** What a history does with an event's call: append it, or attach its outcome. */
type ChangeOp = "append" | "outcome";

/** A record of a list that is never shared, whose outcome is attached in place. */
type Answerable = { -readonly [K in keyof CallRecord]: CallRecord[K] };

/** Appends a record and keeps the newest `historySize`. */
function pushTrimmed(records: CallRecord[], record: CallRecord, historySize: number): void {
  records.push(record);
  // Once the window is full every append drops one record: `shift` moves the array's start and
  // allocates nothing, where `splice` makes an array of what it removes.
  if (records.length === historySize + 1) records.shift();
  else if (records.length > historySize) records.splice(0, records.length - historySize);
}

/** One content of a session's history, with what was derived from it during the current event. */
export class HistoryState {
  /**
   * Histories on this content. A history dropped with its session is not counted off: a count too
   * high only costs a copy, where a count too low would let a shared list change in place.
   */
  holders = 1;
  /** The content the first history to change during `changedAt` went to, by `changeOp` with `changeSize`. */
  changedAt = -1;
  changeOp: ChangeOp = "append";
  changeSize = 0;
  changedTo: HistoryState | undefined;
  /** The signals measured during `measuredAt` (the event's call decides what they are of). */
  measuredAt = -1;
  measured: Signals | undefined;

  constructor(readonly records: CallRecord[]) {}
}

/**
 * Replayers fed the same events in the same order (sweep's configs). `event` counts the events
 * pushed: a transition or a measurement made during one event is reused by the other configs during
 * that same event only, since both depend on the event's call as well as on the history.
 */
export class HistorySharing {
  event = 0;
  private opened: HistoryState | undefined;

  /** Called before an event goes to the replayers. */
  nextEvent(): void {
    this.event++;
    this.opened = undefined;
  }

  /**
   * The empty content the histories opened during this event start on, one for all configs. Its
   * first holder is this sharing, until the event ends: the first config may open a history and
   * change it before the next config opens its own, and that change must not be made in place.
   */
  openedState(): HistoryState {
    this.opened ??= new HistoryState([]);
    this.opened.holders++;
    return this.opened;
  }
}

export class SessionHistory {
  private state: HistoryState;

  constructor(private readonly sharing?: HistorySharing) {
    this.state = sharing?.openedState() ?? new HistoryState([]);
  }

  /**
   * Records of one run, oldest first (read-only). Usually every record is of that run (one run of
   * the session at a time): the list itself is returned then, not a filtered copy per call.
   */
  forRun(run: string): readonly CallRecord[] {
    const records = this.state.records;
    for (let i = 0; i < records.length; i++) {
      if (records[i]!.run !== run) return records.filter((record) => record.run === run);
    }
    return records;
  }

  /**
   * The detectors' signals for an incoming call of `run` (detectors.ts `measure`). The configs
   * sharing a history are of one generation: a measurement shared is one of its rules.
   */
  measure(run: string, probe: Probe, generation: GenerationRules): Signals {
    const state = this.state;
    const event = this.sharing?.event;
    if (event !== undefined && state.measuredAt === event) return state.measured!;
    const signals = measure(this.forRun(run), probe, generation);
    if (event !== undefined) {
      state.measuredAt = event;
      state.measured = signals;
    }
    return signals;
  }

  /**
   * Records a call. Its record is made here, only when this history's list changes: under `sweep`
   * the other configs on the same list take the list made by the first (a prepared call event can be
   * passed as it is).
   */
  append(call: Pick<CallRecord, "tool" | "argsHash" | "callId" | "run">, historySize: number): void {
    const records = this.listToChange("append", historySize);
    if (records === undefined) return;
    pushTrimmed(records, { tool: call.tool, argsHash: call.argsHash, callId: call.callId, run: call.run }, historySize);
  }

  /**
   * Attaches an outcome to the newest unanswered record of the run with the same call id (when the
   * outcome has one), tool and args hash; appends a new record carrying it when none matches.
   */
  attachOutcome(record: AnsweredRecord, historySize: number): void {
    const records = this.listToChange("outcome", historySize);
    if (records === undefined) return;
    for (let i = records.length - 1; i >= 0; i--) {
      const candidate = records[i]!;
      if (candidate.run !== record.run) continue;
      if (record.callId !== undefined && candidate.callId !== record.callId) continue;
      if (candidate.tool !== record.tool || candidate.argsHash !== record.argsHash) continue;
      if (candidate.resultHash !== undefined) continue;
      if (this.sharing === undefined) {
        // Never shared: changed in place (an object per outcome is what `analyze` would pay else).
        const answered = candidate as Answerable;
        answered.resultHash = record.resultHash;
        if (record.unknownTool !== undefined) answered.unknownTool = record.unknownTool;
      } else {
        // Key by key, in `append`'s order: a spread followed by keys it lacks is V8's slow copy.
        const { tool, argsHash, callId, run } = candidate;
        records[i] = record.unknownTool !== undefined ? { tool, argsHash, callId, run, resultHash: record.resultHash, unknownTool: record.unknownTool } : { tool, argsHash, callId, run, resultHash: record.resultHash };
      }
      return;
    }
    pushTrimmed(records, { tool: record.tool, argsHash: record.argsHash, callId: record.callId, run: record.run, resultHash: record.resultHash, unknownTool: record.unknownTool }, historySize);
  }

  get size(): number {
    return this.state.records.length;
  }

  /**
   * The list to make this event's `op` on, or undefined when another config already made it from
   * the same content (this history then takes the result). Why sharing stays exact: histories on one
   * content that make the same op (with the same `historySize`) during the same event end on equal
   * contents, since the rest of the op is the event's call; a history whose op differs, or that makes
   * none (its config blocked the call), keeps or copies its own. Records of a shared list are never
   * changed in place, so a copy can hold the same records. Alone on its content (always without
   * sharing, as in `analyze`), a history changes its list in place.
   */
  private listToChange(op: ChangeOp, historySize: number): CallRecord[] | undefined {
    const state = this.state;
    const sharing = this.sharing;
    if (sharing === undefined) return state.records;
    const event = sharing.event;
    if (state.changedAt === event && state.changeOp === op && state.changeSize === historySize) {
      state.holders--;
      this.state = state.changedTo!;
      this.state.holders++;
      return undefined;
    }
    const next = state.holders === 1 ? state : new HistoryState(state.records.slice());
    if (next === state) state.measuredAt = -1; // the content changes under it
    else state.holders--;
    if (state.changedAt !== event) {
      state.changedAt = event;
      state.changeOp = op;
      state.changeSize = historySize;
      state.changedTo = next;
    }
    this.state = next;
    return next.records;
  }
}
