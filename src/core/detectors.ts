/**
 * The rolling-history detectors (spec: detection.md "The rolling detectors"). The verdict table is
 * data: `VERDICT_TABLE` lists the eight rows in the runtime's order and the engine takes the first
 * row that matches. Signals are measured once per incoming call over the records of its run.
 */
import { VERDICT_MESSAGES } from "./verdictMessages.js";
import type { DetectorField, ResolvedConfig } from "./config.js";
import type { CallRecord } from "./history.js";

export type DetectorName =
  | "unknown_tool_repeat"
  | "global_circuit_breaker"
  | "known_poll_no_progress"
  | "ping_pong"
  | "generic_repeat"
  | "compaction_loop_persisted"
  /** Newest generation only (generations.md §6): a warning, never a block. */
  | "argument_churn";

export type ThresholdName =
  | "warningThreshold"
  | "criticalThreshold"
  | "unknownToolThreshold"
  | "globalCircuitBreakerThreshold"
  | "postCompactionGuard.windowSize";

export interface Verdict {
  readonly detector: DetectorName;
  readonly level: "warning" | "critical";
  readonly count: number;
  readonly threshold: { readonly name: ThresholdName; readonly value: number };
  readonly message: string;
}

/** What the detectors measure about an incoming call against its run's history. */
export interface Signals {
  readonly tool: string;
  readonly knownPoll: boolean;
  readonly unknownStreak: number;
  readonly unknownTool: string | undefined;
  readonly noProgress: number;
  readonly pingPong: number;
  readonly pingPongNoProgress: boolean;
  readonly recentCount: number;
}

/** Consecutive newest records of this tool that failed with the same unknown-tool name. */
export function unknownStreak(history: readonly CountedRecord[], tool: string): { count: number; name: string | undefined } {
  let count = 0;
  let name: string | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    // A pending record (no outcome yet) carries no unknown-tool name, so it breaks the streak.
    if (record.tool !== tool || record.unknownTool === undefined) break;
    if (name !== undefined && record.unknownTool !== name) break;
    name = record.unknownTool;
    count++;
  }
  return { count, name };
}

/** How many of the newest answered records with this signature share the newest one's result. */
function noProgressStreak(history: readonly CallRecord[], tool: string, argsHash: string): number {
  let streak = 0;
  let latest: string | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== tool || record.argsHash !== argsHash) continue;
    if (record.resultHash === undefined || record.resultHash === "") continue;
    if (latest === undefined) {
      latest = record.resultHash;
      streak = 1;
    } else if (record.resultHash === latest) {
      streak++;
    } else {
      break;
    }
  }
  return streak;
}

/** The fields of a history record the shared counters read (both generations' records have them). */
export type CountedRecord = Pick<CallRecord, "tool" | "argsHash" | "resultHash" | "unknownTool">;

/** Length of the A,B,A,B… tail the incoming call would extend, and whether both sides are stuck. */
/** No ping-pong: one shared answer, not an object per call. */
const NO_PING_PONG: { readonly count: number; readonly noProgress: boolean } = Object.freeze({ count: 0, noProgress: false });

export function pingPong(history: readonly CountedRecord[], argsHash: string): { readonly count: number; readonly noProgress: boolean } {
  const none = NO_PING_PONG;
  const last = history[history.length - 1];
  if (!last) return none;
  let other: string | undefined;
  for (let i = history.length - 2; i >= 0; i--) {
    if (history[i]!.argsHash !== last.argsHash) {
      other = history[i]!.argsHash;
      break;
    }
  }
  if (other === undefined) return none;
  let tail = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const expected = tail % 2 === 0 ? last.argsHash : other;
    if (history[i]!.argsHash !== expected) break;
    tail++;
  }
  // The probe must be the other side: A,B,A then B continues the alternation.
  if (tail < 2 || argsHash !== other) return none;

  let sideA: string | undefined;
  let sideB: string | undefined;
  let noProgress = true;
  for (let i = history.length - tail; i < history.length; i++) {
    const record = history[i]!;
    if (record.resultHash === undefined) {
      noProgress = false;
      break;
    }
    if (record.argsHash === last.argsHash) {
      sideA ??= record.resultHash;
      if (sideA !== record.resultHash) noProgress = false;
    } else {
      sideB ??= record.resultHash;
      if (sideB !== record.resultHash) noProgress = false;
    }
    if (!noProgress) break;
  }
  if (sideA === undefined || sideB === undefined) noProgress = false;
  return { count: tail + 1, noProgress };
}

export function measure(history: readonly CallRecord[], tool: string, argsHash: string, knownPoll: boolean): Signals {
  const unknown = unknownStreak(history, tool);
  const pong = pingPong(history, argsHash);
  let recentCount = 0;
  for (const record of history) if (record.tool === tool && record.argsHash === argsHash) recentCount++;
  return {
    tool,
    knownPoll,
    unknownStreak: unknown.count,
    unknownTool: unknown.name,
    noProgress: noProgressStreak(history, tool, argsHash),
    pingPong: pong.count,
    pingPongNoProgress: pong.noProgress,
    recentCount,
  };
}

interface VerdictRule {
  readonly detector: Exclude<DetectorName, "compaction_loop_persisted" | "argument_churn">;
  readonly level: "warning" | "critical";
  readonly threshold: Exclude<ThresholdName, "postCompactionGuard.windowSize">;
  /** The `detectors.*` switch that gates this row; the unknown-tool and breaker rows have none. */
  readonly switch?: DetectorField;
  readonly applies: (s: Signals) => boolean;
  readonly count: (s: Signals) => number;
  readonly message: (s: Signals, count: number) => string;
}

const always = () => true;
const noProgress = (s: Signals) => s.noProgress;
const pingPongCount = (s: Signals) => s.pingPong;

/** The spec's verdict table, in order: the first row whose condition holds is the verdict. */
export const VERDICT_TABLE: readonly VerdictRule[] = [
  {
    detector: "unknown_tool_repeat",
    level: "critical",
    threshold: "unknownToolThreshold",
    applies: always,
    count: (s) => s.unknownStreak,
    message: VERDICT_MESSAGES.unknownTool,
  },
  {
    detector: "global_circuit_breaker",
    level: "critical",
    threshold: "globalCircuitBreakerThreshold",
    applies: always,
    count: noProgress,
    message: VERDICT_MESSAGES.circuitBreaker,
  },
  {
    detector: "known_poll_no_progress",
    level: "critical",
    threshold: "criticalThreshold",
    switch: "knownPollNoProgress",
    applies: (s) => s.knownPoll,
    count: noProgress,
    message: VERDICT_MESSAGES.pollCritical,
  },
  {
    detector: "known_poll_no_progress",
    level: "warning",
    threshold: "warningThreshold",
    switch: "knownPollNoProgress",
    applies: (s) => s.knownPoll,
    count: noProgress,
    message: VERDICT_MESSAGES.pollWarning,
  },
  {
    detector: "ping_pong",
    level: "critical",
    threshold: "criticalThreshold",
    switch: "pingPong",
    applies: (s) => s.pingPongNoProgress,
    count: pingPongCount,
    message: VERDICT_MESSAGES.pingPongCritical,
  },
  {
    detector: "ping_pong",
    level: "warning",
    threshold: "warningThreshold",
    switch: "pingPong",
    applies: always,
    count: pingPongCount,
    message: VERDICT_MESSAGES.pingPongWarning,
  },
  {
    detector: "generic_repeat",
    level: "critical",
    threshold: "criticalThreshold",
    switch: "genericRepeat",
    applies: (s) => !s.knownPoll,
    count: noProgress,
    message: VERDICT_MESSAGES.repeatCritical,
  },
  {
    detector: "generic_repeat",
    level: "warning",
    threshold: "warningThreshold",
    switch: "genericRepeat",
    // Warnings count repeats whatever their outcome; only the block needs a no-progress streak.
    applies: (s) => !s.knownPoll,
    count: (s) => s.recentCount,
    message: VERDICT_MESSAGES.repeatWarning,
  },
];

/** The table's distinct counts and thresholds, for the test most calls stop at (`evaluate`). */
const COUNTS = [...new Set(VERDICT_TABLE.map((rule) => rule.count))];
const THRESHOLDS = [...new Set(VERDICT_TABLE.map((rule) => rule.threshold))];

/**
 * Whether some row could match: some count reaches some threshold. Most calls are far under every
 * threshold, and `sweep` evaluates each call under every config, so this is tested first.
 */
function mayMatch(signals: Signals, config: ResolvedConfig): boolean {
  let highest = 0;
  for (const count of COUNTS) highest = Math.max(highest, count(signals));
  for (const threshold of THRESHOLDS) if (highest >= config[threshold]) return true;
  return false;
}

/** Walks the verdict table; `undefined` means the call passes silently. */
export function evaluate(signals: Signals, config: ResolvedConfig): Verdict | undefined {
  if (!mayMatch(signals, config)) return undefined;
  for (const rule of VERDICT_TABLE) {
    if (rule.switch && !config.detectors[rule.switch]) continue;
    if (!rule.applies(signals)) continue;
    const count = rule.count(signals);
    const value = config[rule.threshold];
    if (count < value) continue;
    return {
      detector: rule.detector,
      level: rule.level,
      count,
      threshold: { name: rule.threshold, value },
      message: rule.message(signals, count),
    };
  }
  return undefined;
}
