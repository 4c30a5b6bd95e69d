/**
 * The config-dependent half of replay (spec: detection.md "History", "Replay, as looplens does it").
 * Fed prepared events in input order, it does per call what the runtime does: evaluate the detectors
 * before the call, record the call unless it was vetoed, attach its outcome when it arrives and show
 * the outcome to the post-compaction guard. A recorded run did not stop at a would-be block, so replay
 * keeps going and flags later findings as `afterStop`.
 *
 * One replayer handles one input file; runs are keyed by their run id within it.
 */
import type { ResolvedConfig } from "./config.js";
import type { LoopEvent, TurnEvent } from "./events.js";
import { MAX_VETO_CALLS, type ReplayedFinding, type ReplayedRun } from "./findings.js";
import { findingPreview } from "./preview.js";
import { patternPreview, RecentPatterns } from "./recentPatterns.js";
import type { HistorySharing } from "./history.js";
import { ShelvedRuns, type FindingShelf } from "./findingShelf.js";
import { preparedTurn, type PreparedEvent } from "./prepare.js";
import type { EngineView, ProfileChoice, ProfileName, RunEngine } from "./profiles/profile.js";
import { abortFinding, addFinding, appended, newRunState, settleCost, verdictFinding, type FindingOfRun, type RunState } from "./runState.js";
import { SessionParking, type ParkingOptions } from "./sessionParking.js";
import { mergeFacts, type RunFacts } from "./runIdentity.js";
import { SessionHistories } from "./sessionHistories.js";
import { SettledQueue } from "./settledQueue.js";
import { TimelineRecorder } from "./timeline.js";
import { RunTurns } from "./runTurns.js";

/** The effective config for a run's agent (`null` = no agent known) under the run's profile. */
export type ConfigForAgent = (agent: string | null, profile: ProfileName) => ResolvedConfig;

/** The profile a run replays under, from the build version its run_start records (if any). */
export type ProfileForRun = (harnessVersion: string | undefined) => ProfileChoice;

export interface ReplayOptions {
  /** Keep each run's calls in order (`RunTimeline`): only a picture of the run needs them. */
  readonly timelines?: boolean;
  /**
   * Receives runs whose report can no longer change, in order of first appearance, as soon as they
   * are: a run closed by a `final` run end, once every run that appeared before it was handed out
   * too. `finish()` then returns the rest. Without it, every run is held until `finish()`.
   */
  readonly onSettled?: (run: ReplayedRun) => void;
  /** Set when this replayer is one of several fed the same events (sweep): they share equal histories. */
  readonly sharing?: HistorySharing;
  /** Told each finding as it is made (`analyze -` streams its ndjson lines: commands/streamedFindings.ts). */
  readonly onFinding?: (finding: ReplayedFinding) => void;
  /** Where a run's findings go past `shelf.batch` while it is open (findingShelf.ts); without it, each is held until the run ends. */
  readonly shelf?: FindingShelf<ReplayedFinding>;
  /** Where sessions go past a number held in memory (sessionParking.ts); without it, every open run stays. */
  readonly parking?: ParkingOptions;
}

const CONFIGURABLE: ProfileChoice = { profile: "configurable", reason: "default" };
const ALWAYS_CONFIGURABLE: ProfileForRun = () => CONFIGURABLE;

type CallEvent = Extract<PreparedEvent, { type: "call" }>;
type OutcomeEvent = Extract<PreparedEvent, { type: "outcome" }>;

export class Replayer {
  /** The runs not handed out yet, by id, but for those parked out of memory (sessionParking.ts). */
  private readonly runs = new Map<string, RunState>();
  /** Ids of the runs not handed out, in order of first appearance (ids: a parked run's state leaves memory, its place stays). */
  private readonly order = new SettledQueue<string>();
  private readonly onSettled: ((run: ReplayedRun) => void) | undefined;
  private readonly onFinding: ((finding: ReplayedFinding) => void) | undefined;
  private readonly histories: SessionHistories;
  /** Timelines of the open runs, by run id (undefined: timelines not asked for). */
  private readonly recorders: Map<string, TimelineRecorder> | undefined;
  /** The run of the last event, while it is in `runs`. */
  private lastRun: RunState | undefined;
  private readonly shelved: ShelvedRuns | undefined;
  private readonly parking: SessionParking | undefined;

  constructor(
    private readonly configFor: ConfigForAgent,
    private readonly profileFor: ProfileForRun = ALWAYS_CONFIGURABLE,
    options: ReplayOptions = {},
  ) {
    this.recorders = options.timelines === true ? new Map() : undefined;
    this.onSettled = options.onSettled;
    this.onFinding = options.onFinding;
    this.shelved = options.shelf && new ShelvedRuns(options.shelf);
    this.histories = new SessionHistories(options.sharing);
    this.parking = options.parking && new SessionParking(options.parking, this.histories, this.runs, this.recorders);
  }

  /** Histories held in memory: one per session (or session-less run) that has a run still open. */
  get heldHistories(): number {
    return this.histories.held;
  }

  /** Sessions parked out of memory so far (sessionParking.ts). */
  get parkedSessions(): number {
    return this.parking?.parked ?? 0;
  }

  /**
   * `input`: the input event `event` was prepared from, when the caller has it (analyze, not sweep):
   * replay then keeps references to recent calls and outcomes so that findings carry a preview.
   */
  push(event: PreparedEvent, input?: LoopEvent): void {
    const state = this.runFor(event);
    switch (event.type) {
      case "run_start":
        return;
      case "run_end":
        this.close(state);
        if (event.final === true && this.onSettled) this.settle(state);
        return;
      case "compaction": {
        state.compactions++;
        this.recorders?.get(state.run)?.compaction(state.calls);
        const closed = this.engineOf(state).compaction(state.calls);
        if (closed) state.guardWindows = appended(state.guardWindows, closed);
        return;
      }
      case "call":
        if (event.turn !== undefined || event.usage !== undefined) this.turnsOf(state).call(event.call, event.turn, event.usage);
        return this.call(state, event, input);
      case "outcome":
        this.outcome(state, event, input);
        // After the outcome's own finding (an abort comes with a result): nothing more can flag it.
        // Replay counts in-order answers; the turns are told only what that count cannot say.
        if (event.call === state.answeredUpTo + 1 && state.turns?.waiting !== true) state.answeredUpTo = event.call;
        else if (state.turns !== undefined) state.answeredUpTo = state.turns.answered(event.call, state.answeredUpTo);
        return;
      case "turn":
        return this.turnsOf(state).turn(event.turn, event.usage, state.calls);
    }
  }

  /**
   * A turn unprepared (reading.ts `Delivery.turn`): what pushing `preparedTurn(event)` does, past the copy and
   * `push`'s switch, when its run is the last event's and open (nearly always: it comes after its calls;
   * `runFor` then only sets a missing agent). Its `ts` is not read: a prepared turn has none.
   */
  turn(event: TurnEvent): void {
    const state = this.lastRun;
    if (state === undefined || state.run !== event.run || !state.open) return this.push(preparedTurn(event));
    if (state.agent === null && event.agent !== undefined) state.agent = event.agent;
    this.turnsOf(state).turn(event.turn, event.usage, state.calls);
  }

  /**
   * What identifies a run (runIdentity.ts), from its adapter after some of its events: merged with
   * what was said of it before. Its start dates a run that no event dated.
   */
  facts(run: string, facts: RunFacts): void {
    const state = this.lastRun?.run === run ? this.lastRun : this.stateOf(run);
    if (state === undefined) return;
    state.facts = mergeFacts(state.facts, facts);
    if (state.startedAt === null && facts.startedAt !== undefined) state.startedAt = facts.startedAt;
  }

  /** A run between events, for tracing (trace.ts): its findings so far, its profile and what its engine sees. */
  peek(run: string): { readonly findings: readonly ReplayedFinding[]; readonly profile: ProfileName; readonly view: EngineView | undefined } | undefined {
    const state = this.stateOf(run);
    // Tracing replays without a shelf: an open run's findings are an array (findingShelf.ts).
    return state && { findings: state.findings as readonly ReplayedFinding[], profile: state.profile.profile, view: state.engine?.inspect() };
  }

  /** Ends every run still open and returns the runs not handed out yet, in order of first appearance. */
  finish(): ReplayedRun[] {
    return [...this.finishEach()];
  }

  /** `finish` a run at a time, as the caller takes them (pipeline/runSpill.ts writes them out, holding few); a parked one is revived. */
  *finishEach(): Generator<ReplayedRun, void, undefined> {
    this.lastRun = undefined;
    for (const run of this.order.drain()) {
      const state = this.stateOf(run)!;
      this.runs.delete(run);
      this.close(state);
      this.shelved?.handOut(state);
      settleCost(state);
      yield state;
    }
  }

  /** A run closed by a `final` run end is handed out once the runs before it are. */
  private settle(state: RunState): void {
    this.order.settle(state.run);
    this.order.release((id) => {
      // Settled, hence closed, hence never parked: it is in `runs`.
      const run = this.runs.get(id)!;
      this.runs.delete(id);
      if (this.lastRun === run) this.lastRun = undefined;
      this.shelved?.handOut(run);
      settleCost(run);
      this.onSettled!(run);
    });
  }

  /** The state of a run not handed out yet, revived if it was parked. */
  private stateOf(run: string): RunState | undefined {
    return this.runs.get(run) ?? this.parking?.parkedRun(run);
  }

  private runFor(event: PreparedEvent): RunState {
    // Events come run after run: the last run's state is checked before the map.
    const last = this.lastRun;
    let state = last !== undefined && last.run === event.run ? last : this.stateOf(event.run);
    if (!state) {
      // A run's profile is fixed by its first event: its run_start, when the input has one.
      state = newRunState(event.run, event.file, this.profileFor(event.type === "run_start" ? event.harnessVersion : undefined));
      this.runs.set(event.run, state);
      this.order.push(state.run);
    }
    // Identity may arrive on any event; the first value seen names the run. The session is fixed once
    // the run is open (it selects the history the run's records live in). The run's own fields are
    // tested first: settled after its first events, they are cheaper to read than an event's optional ones.
    if (state.startedAt === null && event.ts !== undefined) state.startedAt = event.ts;
    if (state.agent === null && "agent" in event && event.agent !== undefined) state.agent = event.agent;
    if (state.session === null && !state.open && "session" in event && event.session !== undefined) state.session = event.session;
    if (!state.open) this.reopen(state);
    else if (state !== last) this.parking?.touch(state);
    this.lastRun = state;
    return state;
  }

  private reopen(state: RunState): void {
    state.open = true;
    this.order.unsettle(state.run);
    if (this.recorders) {
      const recorder = new TimelineRecorder(state.timeline);
      state.timeline = recorder.timeline;
      this.recorders.set(state.run, recorder);
    }
    this.parking?.touch(state);
    this.histories.opened(state);
    this.parking?.opened(state);
  }

  private close(state: RunState): void {
    if (!state.open) return;
    state.open = false;
    const window = state.engine?.openWindow();
    if (window) state.guardWindows = appended(state.guardWindows, window);
    state.engine = undefined;
    this.recorders?.delete(state.run);
    state.recent = undefined;
    this.histories.closed(state);
    this.parking?.closed(state);
  }

  /** The run's turns, made at its first event that names one (with marks for its timeline, if it has one). */
  private turnsOf(state: RunState): RunTurns {
    if (state.turns !== undefined) return state.turns;
    const timeline = this.recorders?.get(state.run)?.timeline;
    const turns = new RunTurns(timeline && (timeline.turns ??= { after: [], tokens: [] }), state);
    // What came before the run's first turn (a format that writes usage after the calls).
    for (const finding of this.shelved?.all(state) ?? state.findings) turns.finding(finding.call, finding);
    if (state.firstStop !== null) turns.stop(state.firstStop.call);
    state.turns = turns;
    return turns;
  }

  private engineOf(state: RunState): RunEngine {
    state.engine ??= this.histories.of(state).startRun(this.configFor(state.agent, state.profile.profile), state.run);
    return state.engine;
  }

  /** The refs of the event's pattern, when replay was handed the input's events. */
  private refsOf(state: RunState, argsHash: string, input: LoopEvent | undefined) {
    return input === undefined ? undefined : (state.recent ??= new RecentPatterns()).refs(argsHash);
  }

  private call(state: RunState, event: CallEvent, input: LoopEvent | undefined): void {
    const engine = this.engineOf(state);
    state.calls = event.call;
    this.recorders?.get(state.run)?.call(event.call, event.tool);
    const verdict = engine.call(event);
    const refs = this.refsOf(state, event.argsHash, input);
    // The preview reads the pattern's previous outcome before this call replaces the pattern's call.
    const call = input?.type === "tool_call" ? input : undefined;
    // An unknown-tool streak spans differing arguments: its outcome is the tool's newest refusal.
    const unknown = verdict?.detector === "unknown_tool_repeat";
    const preview = !verdict || !refs ? undefined : unknown ? findingPreview(call, state.recent!.unknownToolOutcome(event.tool)) : patternPreview(refs, call);
    if (refs && call) refs.call = call;
    if (verdict) this.found(state, verdictFinding(event, verdict, preview));
  }

  private outcome(state: RunState, event: OutcomeEvent, input: LoopEvent | undefined): void {
    if (event.veto) {
      state.recordedVetoes++;
      if (state.recordedVetoCalls.length < MAX_VETO_CALLS) state.recordedVetoCalls = appended(state.recordedVetoCalls, event.call);
    }
    const engine = this.engineOf(state);
    const refs = this.refsOf(state, event.argsHash, input);
    // A veto is the runtime's own answer, not what the tool returned: it does not replace the outcome.
    if (refs && input?.type === "tool_result" && !event.veto) {
      refs.outcome = input;
      refs.outcomeHash = event.resultHash;
      if (event.unknownTool !== undefined) state.recent!.noteUnknownTool(event.tool, input);
    }
    const step = engine.outcome(event);
    if (step === undefined) return;
    if (step.kind === "closed") state.guardWindows = appended(state.guardWindows, step.window);
    if (step.kind !== "abort") return;
    state.guardWindows = appended(state.guardWindows, step.window);
    const preview = refs && findingPreview(refs.call, refs.outcome);
    this.found(state, abortFinding(event, engine.abortFinding(event.tool, step.count), step.count, preview));
  }

  /** Adds the finding to its run, and tells it (`?.(…)` would skip the adding too when no one listens). */
  private found(state: RunState, finding: FindingOfRun): void {
    const hadStop = state.firstStop !== null;
    const made = addFinding(state, finding);
    this.shelved?.found(state);
    if (state.turns !== undefined) {
      state.turns.finding(made.call, made);
      if (!hadStop && state.firstStop !== null) state.turns.stop(state.firstStop.call);
    }
    this.onFinding?.(made);
  }
}
