/**
 * Resuming a grown file (watch.md §2 "Growth"): an analysis of a one-file unit keeps, beside its
 * result, the state its reading and replay were in at the file's last line (`ResumePoint`: adapter,
 * preparer, replayer with its histories, guard, open runs and timelines, the tally, the configs
 * asked), taken before anything is done at the file's end. When the file later only grew, that state
 * is restored (stateCodec.ts, resumeClasses.ts) and only the appended lines are read through it; the
 * runs handed out before the old end come from the entry, the rest are what the restored replay hands
 * out and finishes.
 *
 * Only formats whose adapter can resume (`InputAdapter.resume`: a line's reading depends on earlier
 * lines only) keep a point; anything the state codec cannot carry keeps none. A resume that meets
 * what it cannot go on with (a live event, an adapter's `ReadAgain`) is abandoned and the unit is
 * read in full, with nothing of the attempt left.
 */
import type { AdapterContext, InputFormat } from "../../adapters/adapter.js";
import { LineTally, UnitHistory } from "../../adapters/adapter.js";
import type { LineSource, RawLineHandler } from "../../adapters/io/lineSource.js";
import { plainFileFrom, rawSource } from "../../adapters/io/sources.js";
import type { ReplayedRun } from "../../core/findings.js";
import type { EventPreparer } from "../../core/prepare.js";
import type { AskedAgent } from "../askedAgents.js";
import type { ProfileSelection } from "../../core/profiles/selection.js";
import type { ConfigForAgent, Replayer } from "../../core/replay.js";
import type { ReadThrough } from "../reading.js";
import { REPLAY_CLASSES, type ReplayBindings } from "./resumeClasses.js";
import { decodeState, encodeState, UnsavableState } from "./stateCodec.js";

/** Where a one-file unit's reading stood at its last line (kept in its cache entry). */
export interface ResumePoint {
  /** The state, encoded (base64). */
  readonly state: string;
  /** The process's values it points at (ReplayBindings), in first-asked order. */
  readonly names: readonly string[];
  /** Lines of the file read: the appended ones are numbered on from here. */
  readonly lines: number;
  /** Runs handed out before the old end: the entry's first runs, final. */
  readonly handedOut: number;
  readonly format: InputFormat;
  /** The configs the old part's replay asked for, in order (asked of the resolver again before the state is restored). */
  readonly agentsResolved: readonly AskedAgent[];
  /** Where reading stopped when it stopped at the file's last newline (`completeLines`, watch's): the size to go on from. */
  readonly end?: number;
}

/** A point found for a grown file: what the unit's entry held, and where the old file ended. */
export interface ResumeFrom extends ResumePoint {
  readonly oldRuns: readonly ReplayedRun[];
  /** The old file's size (a watch's: where its reading stopped, `end`): reading goes on from here. */
  readonly size: number;
}

interface SavedState {
  readonly adapter: object;
  readonly preparer: EventPreparer;
  readonly history: UnitHistory;
  readonly replayer: Replayer;
  readonly tally: LineTally;
}

/** The state restored, to go on with the appended lines; `context` stands for its adapter's, to be filled with today's. */
export type RestoredState = SavedState & { readonly format: InputFormat; readonly context: Partial<AdapterContext> };

/**
 * What an analysis of a one-file unit hands its replay and reading so that their state can be saved:
 * functions bound by name (the state then holds only names for them), and the state when read through.
 */
export class ResumeKeeper {
  private replaying: (() => Replaying) | undefined;
  private taken: ResumePoint | undefined;
  private handed = 0;
  private voided = false;

  /** `bindings`: the process's values replay points at, shared with what parks its sessions (parkedSessions.ts). */
  constructor(readonly bindings: ReplayBindings) {}

  /** The profile selection with its hashing choice bound (the preparer holds it). */
  profiles(profiles: ProfileSelection): ProfileSelection {
    const hashingFor = this.bindings.hashing(profiles.hashingFor);
    this.bindings.bound.set(hashingFor, "hashingFor");
    return { hashingFor, profileFor: profiles.profileFor };
  }

  /** The resolver replay asks, bound (the replayer holds it, and each config it gave). */
  config(configFor: ConfigForAgent): ConfigForAgent {
    const bound = this.bindings.config(configFor);
    this.bindings.bound.set(bound, "configFor");
    return bound;
  }

  /** The replayer's `onSettled`, counting the runs handed out. */
  settled(add: (run: ReplayedRun) => void): (run: ReplayedRun) => void {
    const settled = (run: ReplayedRun) => {
      this.handed++;
      add(run);
    };
    this.bindings.bound.set(settled, "onSettled");
    return settled;
  }

  /** What the point is taken of besides the reading's state, asked when the file is read through. */
  replay(replaying: () => Replaying): void {
    this.replaying = replaying;
  }

  /**
   * Told by reading when the file was read through (reading.ts `onReadThrough`), before the adapter
   * does anything at the file's end (an OpenClaw reader flushes its held calls then): the point is
   * taken now. The adapter's context is bound by name: a restored state gets today's (`restore`).
   */
  readonly readThrough = (through: ReadThrough): void => {
    if (this.voided || this.replaying === undefined) return;
    this.bindContext(through.context, through.context.facts);
    const { replayer, tally, agentsResolved } = this.replaying();
    // A replay that parked sessions held more than memory would (runs that never end): its state is
    // as large, too large to keep (300,000 open runs made a string past v8's limit), so a full read it is.
    if (replayer.parkedSessions > 0) return;
    const saved: SavedState = { adapter: through.adapter, preparer: through.preparer, history: through.history, replayer, tally };
    try {
      const state = encodeState(saved, REPLAY_CLASSES, this.bindings.bound).toString("base64");
      const point = { state, names: this.bindings.names, lines: through.lines, handedOut: this.handed, format: through.format, agentsResolved: [...agentsResolved] };
      this.taken = through.end === undefined ? point : { ...point, end: through.end };
    } catch (error) {
      if (!(error instanceof UnsavableState)) throw error;
    }
  };

  private bindContext(context: object, facts: unknown): void {
    this.bindings.bound.set(context, "context");
    if (facts !== undefined) this.bindings.bound.set(facts, "context.facts");
  }

  /**
   * The unit is read again (ReadAgain): no point is kept (the configs the voided pass asked for stay
   * bound, and a restore would ask them again).
   */
  void(): void {
    this.taken = undefined;
    this.voided = true;
  }

  /** Goes on from a restored state: its runs handed out so far count. */
  from(handedOut: number): void {
    this.handed = handedOut;
  }

  /** The point taken when the file was read through; undefined when the adapter cannot resume or the state holds what cannot be carried. */
  point(): ResumePoint | undefined {
    return this.voided ? undefined : this.taken;
  }

  /**
   * The state of `from`, with today's values bound again through this keeper (`configFor` and
   * `hashingFor`: its wrappers), so that it can be saved again. Its adapter's context is a stand-in
   * (`context`) for `readAppended` to fill with today's. Throws when it cannot be restored.
   */
  restore(from: ResumeFrom, configFor: ConfigForAgent, hashingFor: ProfileSelection["hashingFor"]): RestoredState {
    const values = this.bindings.rebind(from.names, configFor, hashingFor);
    const context: Partial<AdapterContext> = {};
    const facts: NonNullable<AdapterContext["facts"]> = (run, runFacts) => context.facts!(run, runFacts);
    this.bindContext(context, facts);
    values.set("context", context);
    values.set("context.facts", facts);
    const saved = decodeState(Buffer.from(from.state, "base64"), REPLAY_CLASSES, values) as SavedState;
    if (!(saved.tally instanceof LineTally) || !(saved.history instanceof UnitHistory)) throw new Error("not a saved reading");
    this.from(from.handedOut);
    return { ...saved, format: from.format, context };
  }
}

/** What a point is taken of besides the reading's state. */
export interface Replaying {
  readonly replayer: Replayer;
  readonly tally: LineTally;
  /** The configs the replay asked for so far, in order. */
  readonly agentsResolved: readonly AskedAgent[];
}

let resumed = 0;

/** Units this thread resumed from a point (not re-read in full): what tests check a resume happened by. */
export function resumedUnits(): number {
  return resumed;
}

/** Counts a unit read from its point on. */
export function countResumed(): void {
  resumed++;
}

/**
 * The bytes `file` gained after its first `size` (read as they come, not held), as a line source
 * whose lines are numbered on after the old file's `lines`. `completeLines`: up to the last newline
 * only, as the full read would have (its `readEnd` says where).
 */
export function appendedSource(file: string, size: number, lines: number, completeLines = false): LineSource {
  const appended = plainFileFrom(file, size, completeLines);
  const source = rawSource(file, appended.size, (handler, options) => {
    const numbered: RawLineHandler = (bytes, start, end, line, terminated, tooLong) => handler(bytes, start, end, line + lines, terminated, tooLong);
    return appended.forEachRawLine(numbered, options);
  });
  return appended.readEnd === undefined ? source : { ...source, readEnd: appended.readEnd };
}
