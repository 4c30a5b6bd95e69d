/**
 * A run's report as replay grows it (replay.ts), plus its working state while open. A closed run
 * keeps only what the report needs (its engine is dropped, its history freed with its session's),
 * and the state is handed out as the report itself: millions of runs cost one small object each.
 */
import type { ReplayedFinding, RunStop } from "./findings.js";
import type { GuardWindow } from "./postCompactionGuard.js";
import type { RecentPatterns } from "./recentPatterns.js";
import type { AbortFinding, ProfileChoice, RunEngine } from "./profiles/profile.js";
import type { Verdict } from "./detectors.js";
import type { FindingPreview } from "./preview.js";
import { NONE } from "./none.js";
import type { FindingList } from "./findingList.js";
import type { RunFacts } from "./runIdentity.js";
import type { RunTimeline } from "./timeline.js";
import type { RunTurns } from "./runTurns.js";
import type { PatternCost } from "./runCost.js";
import type { UsageSum } from "./usage.js";

export interface RunState {
  readonly run: string;
  agent: string | null;
  session: string | null;
  readonly file: string;
  calls: number;
  compactions: number;
  /** An array while the run is open (replay appends to it); a shelf's list once handed out, if it had one (findingShelf.ts). */
  findings: FindingList<ReplayedFinding>;
  firstStop: RunStop | null;
  guardWindows: readonly GuardWindow[];
  recordedVetoes: number;
  recordedVetoCalls: readonly number[];
  /** The time of the run's first timed event (eventTime.ts), `null` when the input recorded none. */
  startedAt: string | null;
  /** What identifies the run beyond its name (core/runIdentity.ts), as the input recorded it. */
  facts: RunFacts | undefined;
  readonly profile: ProfileChoice;
  open: boolean;
  /** The run's detection state, made when first needed (the agent, hence the config, may come late). */
  engine: RunEngine | undefined;
  /** Only when timelines are asked for (absent otherwise, so that runs cost what they did). */
  timeline?: RunTimeline;
  /** References to the newest call and outcome of recent patterns, for previews (only with input events). */
  recent: RecentPatterns | undefined;
  /** The run's model turns, from its first event that names one (absent: its input records none). */
  turns?: RunTurns;
  /**
   * The run's calls 1…answeredUpTo were all answered, so that its turns settle as they end
   * (runCost.ts) rather than wait. One number, where a note per call would cost; `turns` reads it.
   */
  answeredUpTo: number;
  /** What the turns used (findings.ts `ReplayedRun`), set from `turns` when the run is handed out. */
  usage?: UsageSum;
  usageOnFlagged?: UsageSum;
  usageAfterStop?: UsageSum;
  patternUsage?: readonly PatternCost[];
}

/** A run first seen in `file`, replayed under `profile`: nothing recorded yet. */
export function newRunState(run: string, file: string, profile: ProfileChoice): RunState {
  return {
    run,
    agent: null,
    session: null,
    file,
    calls: 0,
    compactions: 0,
    findings: NONE,
    firstStop: null,
    guardWindows: NONE,
    recordedVetoes: 0,
    recordedVetoCalls: NONE,
    startedAt: null,
    facts: undefined,
    profile,
    open: false,
    engine: undefined,
    recent: undefined,
    // Made at the run's first turn: present from the start, so that runs keep one shape (replay's hot path).
    turns: undefined,
    answeredUpTo: 0,
    // Set when the run is handed out, if its input recorded usage: declared here so that runs with
    // usage and runs without keep one shape, and what reads every run (summary, reporters, spill) stays fast.
    usage: undefined,
    usageOnFlagged: undefined,
    usageAfterStop: undefined,
    patternUsage: undefined,
  };
}

/** Runs without findings or guard windows (most runs) share `NONE` until their first, instead of two arrays each. */
export function appended<T>(list: readonly T[], item: T): readonly T[] {
  const out = list === NONE ? [] : (list as T[]);
  out.push(item);
  return out;
}

/** What a finding says of itself; the run adds who, where, and whether the run had stopped already. */
export type FindingOfRun = Omit<ReplayedFinding, "run" | "agent" | "session" | "file" | "afterStop" | "call"> & { call: number };

/** The call or outcome a finding is of (a prepared event's fields). */
interface FindingPlace {
  readonly line: number;
  readonly call: number;
  readonly tool: string;
  readonly argsHash: string;
}

/** A detector's verdict on a call, as a finding of its run (replay.ts). */
export function verdictFinding(event: FindingPlace, verdict: Verdict, preview: FindingPreview | undefined): FindingOfRun {
  const { detector, level, count, threshold, message } = verdict;
  return { line: event.line, call: event.call, tool: event.tool, detector, level, count, threshold, message, argsHash: event.argsHash, ...(preview && { preview }) };
}

/** The post-compaction guard's abort at an outcome, the `count`-th time its triple repeated, as a finding of its run. */
export function abortFinding(event: FindingPlace, abort: AbortFinding, count: number, preview: FindingPreview | undefined): FindingOfRun {
  const { threshold, message } = abort;
  return { line: event.line, call: event.call, tool: event.tool, detector: "compaction_loop_persisted", level: "abort", count, threshold, message, argsHash: event.argsHash, ...(preview && { preview }) };
}

/** Adds a finding to the run; the first block or abort is where the runtime would have stopped it. */
export function addFinding(state: RunState, finding: FindingOfRun): ReplayedFinding {
  const made: ReplayedFinding = {
    run: state.run,
    agent: state.agent,
    session: state.session,
    file: state.file,
    afterStop: state.firstStop !== null,
    ...finding,
  };
  state.findings = appended(state.findings as readonly ReplayedFinding[], made);
  if (state.firstStop === null && finding.level !== "warning") {
    state.firstStop = { kind: finding.level === "abort" ? "abort" : "block", call: finding.call };
  }
  return made;
}

/**
 * A run handed out gets its usage figures, and drops its turns (working state). The fields are set
 * only on a run whose input recorded turns, so that every other report keeps the shape it had.
 */
export function settleCost(state: RunState): void {
  const turns = state.turns;
  if (turns === undefined) return;
  state.turns = undefined;
  const cost = turns.finish(state.calls);
  // Turns named (canonical calls with a `turn`) but none recording anything: nothing to report.
  if (cost.spent.tokenTurns === 0 && cost.spent.costTurns === 0) return;
  state.usage = cost.spent;
  state.usageOnFlagged = cost.onFlagged;
  state.usageAfterStop = cost.afterStop;
  if (cost.patterns.length > 0) state.patternUsage = cost.patterns;
}
