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
import type { ReplayedFinding, ReplayedRun, RunStop } from "./findings.js";
import type { GuardWindow } from "./postCompactionGuard.js";
import type { PreparedEvent } from "./prepare.js";
import { PROFILES } from "./profiles/index.js";
import type { ProfileChoice, ProfileName, ProfileSession, RunEngine } from "./profiles/profile.js";

/** The effective config for a run's agent (`null` = no agent known) under the run's profile. */
export type ConfigForAgent = (agent: string | null, profile: ProfileName) => ResolvedConfig;

/** The profile a run replays under, from the build version its run_start records (if any). */
export type ProfileForRun = (harnessVersion: string | undefined) => ProfileChoice;

const CONFIGURABLE: ProfileChoice = { profile: "configurable", reason: "default" };
const ALWAYS_CONFIGURABLE: ProfileForRun = () => CONFIGURABLE;

/**
 * A run's report as it grows, plus its working state while open. A closed run keeps only what the
 * report needs (its engine is dropped, its history freed with its session's), and the state is
 * handed out as the report itself: millions of runs cost one small object each.
 */
interface RunState {
  readonly run: string;
  agent: string | null;
  session: string | null;
  readonly file: string;
  calls: number;
  compactions: number;
  findings: readonly ReplayedFinding[];
  firstStop: RunStop | null;
  guardWindows: readonly GuardWindow[];
  recordedVetoes: number;
  /** The time of the run's first timed event (eventTime.ts), `null` when the input recorded none. */
  startedAt: string | null;
  readonly profile: ProfileChoice;
  open: boolean;
  /** The run's detection state, made when first needed (the agent, hence the config, may come late). */
  engine: RunEngine | undefined;
}

/** Shared by every run without findings or guard windows (most runs), instead of two arrays each. */
const NONE: readonly never[] = Object.freeze([]);

function appended<T>(list: readonly T[], item: T): readonly T[] {
  const out = list === NONE ? [] : (list as T[]);
  out.push(item);
  return out;
}

/**
 * Histories by session, or by run for runs without a session (two maps: no key can collide). A
 * session's history belongs to the profile of the run that opened it (in practice one per input).
 */
type HistoryEntry = { history: ProfileSession; openRuns: number };

type CallEvent = Extract<PreparedEvent, { type: "call" }>;
type OutcomeEvent = Extract<PreparedEvent, { type: "outcome" }>;

export class Replayer {
  private readonly runs = new Map<string, RunState>();
  private readonly sessionHistories = new Map<string, HistoryEntry>();
  private readonly runHistories = new Map<string, HistoryEntry>();

  constructor(
    private readonly configFor: ConfigForAgent,
    private readonly profileFor: ProfileForRun = ALWAYS_CONFIGURABLE,
  ) {}

  /** Histories held in memory: one per session (or session-less run) that has a run still open. */
  get heldHistories(): number {
    return this.sessionHistories.size + this.runHistories.size;
  }

  push(event: PreparedEvent): void {
    const state = this.runFor(event);
    switch (event.type) {
      case "run_start":
        return;
      case "run_end":
        return this.close(state);
      case "compaction": {
        state.compactions++;
        const closed = this.engineOf(state).compaction(state.calls);
        if (closed) state.guardWindows = appended(state.guardWindows, closed);
        return;
      }
      case "call":
        return this.call(state, event);
      case "outcome":
        return this.outcome(state, event);
    }
  }

  /** Ends every run still open and returns all runs in order of first appearance. */
  finish(): ReplayedRun[] {
    const reports: ReplayedRun[] = [];
    for (const state of this.runs.values()) {
      this.close(state);
      reports.push(state);
    }
    this.runs.clear();
    return reports;
  }

  private runFor(event: PreparedEvent): RunState {
    let state = this.runs.get(event.run);
    if (!state) {
      state = {
        run: event.run,
        agent: null,
        session: null,
        file: event.file,
        calls: 0,
        compactions: 0,
        findings: NONE,
        firstStop: null,
        guardWindows: NONE,
        recordedVetoes: 0,
        startedAt: null,
        // A run's profile is fixed by its first event: its run_start, when the input has one.
        profile: this.profileFor(event.type === "run_start" ? event.harnessVersion : undefined),
        open: false,
        engine: undefined,
      };
      this.runs.set(event.run, state);
    }
    // Identity may arrive on any event; the first value seen names the run. The session is fixed
    // once the run is open because it selects the history the run's records live in.
    if (event.ts !== undefined && state.startedAt === null) state.startedAt = event.ts;
    if ("agent" in event && state.agent === null && event.agent !== undefined) state.agent = event.agent;
    if ("session" in event && state.session === null && event.session !== undefined && !state.open) state.session = event.session;
    if (!state.open) this.reopen(state);
    return state;
  }

  /** The map and key of the history a run's records live in. */
  private historySlot(state: RunState): [Map<string, HistoryEntry>, string] {
    return state.session !== null ? [this.sessionHistories, state.session] : [this.runHistories, state.run];
  }

  private reopen(state: RunState): void {
    state.open = true;
    const [histories, key] = this.historySlot(state);
    const entry = histories.get(key);
    if (entry) entry.openRuns++;
    else histories.set(key, { history: PROFILES[state.profile.profile].openSession(), openRuns: 1 });
  }

  private close(state: RunState): void {
    if (!state.open) return;
    state.open = false;
    const window = state.engine?.openWindow();
    if (window) state.guardWindows = appended(state.guardWindows, window);
    state.engine = undefined;
    const [histories, key] = this.historySlot(state);
    const entry = histories.get(key);
    // With no run of the session open, its old records can never be seen again: free them.
    if (entry && --entry.openRuns <= 0) histories.delete(key);
  }

  private engineOf(state: RunState): RunEngine {
    if (!state.engine) {
      const [histories, key] = this.historySlot(state);
      const config = this.configFor(state.agent, state.profile.profile);
      state.engine = histories.get(key)!.history.startRun(config, state.run);
    }
    return state.engine;
  }

  private call(state: RunState, event: CallEvent): void {
    const engine = this.engineOf(state);
    state.calls = event.call;
    const verdict = engine.call(event);
    if (!verdict) return;
    this.addFinding(state, {
      line: event.line,
      call: event.call,
      tool: event.tool,
      detector: verdict.detector,
      level: verdict.level,
      count: verdict.count,
      threshold: verdict.threshold,
      message: verdict.message,
      argsHash: event.argsHash,
    });
  }

  private outcome(state: RunState, event: OutcomeEvent): void {
    if (event.veto) state.recordedVetoes++;
    const engine = this.engineOf(state);
    const step = engine.outcome(event);
    if (step === undefined) return;
    if (step.kind === "closed") state.guardWindows = appended(state.guardWindows, step.window);
    if (step.kind !== "abort") return;
    state.guardWindows = appended(state.guardWindows, step.window);
    const { threshold, message } = engine.abortFinding(event.tool, step.count);
    this.addFinding(state, {
      line: event.line,
      call: event.call,
      tool: event.tool,
      detector: "compaction_loop_persisted",
      level: "abort",
      count: step.count,
      threshold,
      message,
      argsHash: event.argsHash,
    });
  }

  private addFinding(state: RunState, finding: Omit<ReplayedFinding, "run" | "agent" | "session" | "file" | "afterStop" | "call"> & { call: number }): void {
    state.findings = appended(state.findings, {
      run: state.run,
      agent: state.agent,
      session: state.session,
      file: state.file,
      afterStop: state.firstStop !== null,
      ...finding,
    });
    if (state.firstStop === null && finding.level !== "warning") {
      state.firstStop = { kind: finding.level === "abort" ? "abort" : "block", call: finding.call };
    }
  }
}
