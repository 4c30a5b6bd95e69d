/**
 * The newest generation's verdict table (generations.md §7): fixed thresholds, no detector toggles,
 * `argument_churn` (a warning) between the generic block and the generic warning. Data, like the
 * default table in detectors.ts: the first row whose condition holds is the verdict.
 */
import { VERDICT_MESSAGES } from "../../verdictMessages.js";
import { pingPong, unknownStreak, type DetectorName, type ThresholdName, type Verdict } from "../../detectors.js";
import { argumentChurn, churnCount, type ArgumentChurn, type ChurnProbe } from "./argumentChurn.js";
import type { NewestRecord } from "./history.js";
import { noProgressStreak } from "./noProgress.js";

/** The constants of the newest generation (OpenClaw tool-loop-thresholds; tuning retired in #111382). */
export const NEWEST_THRESHOLDS = {
  warningThreshold: 10,
  criticalThreshold: 20,
  unknownToolThreshold: 10,
  globalCircuitBreakerThreshold: 30,
} as const satisfies Partial<Record<ThresholdName, number>>;

type FixedThreshold = keyof typeof NEWEST_THRESHOLDS;

/** The lowest fixed threshold: a count below it gives no verdict. */
export const NEWEST_LOWEST_THRESHOLD = Math.min(...Object.values(NEWEST_THRESHOLDS));

export interface NewestSignals {
  readonly tool: string;
  readonly knownPoll: boolean;
  readonly unknownStreak: number;
  readonly unknownTool: string | undefined;
  readonly noProgress: number;
  readonly pingPong: number;
  readonly pingPongNoProgress: boolean;
  readonly recentCount: number;
  readonly churn: ArgumentChurn;
}

export interface NewestProbe extends ChurnProbe {
  readonly knownPoll: boolean;
}

export function measureNewest(history: readonly NewestRecord[], probe: NewestProbe): NewestSignals {
  const unknown = unknownStreak(history, probe.tool);
  const pong = pingPong(history, probe.argsHash);
  let recentCount = 0;
  // Vetoes and pending calls count too: the recent count reads only tool and arguments.
  for (const record of history) if (record.tool === probe.tool && record.argsHash === probe.argsHash) recentCount++;
  return {
    tool: probe.tool,
    knownPoll: probe.knownPoll,
    unknownStreak: unknown.count,
    unknownTool: unknown.name,
    noProgress: noProgressStreak(history, probe.tool, probe.argsHash),
    pingPong: pong.count,
    pingPongNoProgress: pong.noProgress,
    recentCount,
    churn: argumentChurn(history, probe),
  };
}

interface NewestRule {
  readonly detector: Exclude<DetectorName, "compaction_loop_persisted">;
  readonly level: "warning" | "critical";
  readonly threshold: FixedThreshold;
  readonly applies: (s: NewestSignals) => boolean;
  readonly count: (s: NewestSignals) => number;
  readonly message: (s: NewestSignals, count: number) => string;
}

const always = () => true;
const streak = (s: NewestSignals) => s.noProgress;
const pingPongCount = (s: NewestSignals) => s.pingPong;

function churnMessage(s: NewestSignals, n: number): string {
  const variants = s.churn.kind === "none" ? 0 : s.churn.variants;
  if (s.churn.kind === "write-mutation") {
    return `WARNING: ${s.tool} has changed the same target with ${variants} distinct argument variants and no intervening verification. Verify the result before writing again; this tool call remains allowed.`;
  }
  return `WARNING: ${s.tool} has cycled through ${variants} repeated argument patterns with the same stable outcome ${n} times. Changing arguments is not making progress; this tool call remains allowed.`;
}

export const NEWEST_VERDICT_TABLE: readonly NewestRule[] = [
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
    count: streak,
    message: VERDICT_MESSAGES.circuitBreaker,
  },
  {
    detector: "known_poll_no_progress",
    level: "critical",
    threshold: "criticalThreshold",
    applies: (s) => s.knownPoll,
    count: streak,
    message: VERDICT_MESSAGES.pollCritical,
  },
  {
    detector: "known_poll_no_progress",
    level: "warning",
    threshold: "warningThreshold",
    applies: (s) => s.knownPoll,
    count: streak,
    message: VERDICT_MESSAGES.pollWarning,
  },
  {
    detector: "ping_pong",
    level: "critical",
    threshold: "criticalThreshold",
    applies: (s) => s.pingPongNoProgress,
    count: pingPongCount,
    message: VERDICT_MESSAGES.pingPongCritical,
  },
  {
    detector: "ping_pong",
    level: "warning",
    threshold: "warningThreshold",
    applies: always,
    count: pingPongCount,
    message: VERDICT_MESSAGES.pingPongWarning,
  },
  {
    detector: "generic_repeat",
    level: "critical",
    threshold: "criticalThreshold",
    applies: (s) => !s.knownPoll,
    count: streak,
    message: VERDICT_MESSAGES.repeatCriticalByOutcome,
  },
  {
    detector: "argument_churn",
    level: "warning",
    threshold: "warningThreshold",
    applies: always,
    count: (s) => churnCount(s.churn),
    message: churnMessage,
  },
  {
    detector: "generic_repeat",
    level: "warning",
    threshold: "warningThreshold",
    applies: (s) => !s.knownPoll,
    count: (s) => s.recentCount,
    message: VERDICT_MESSAGES.repeatWarning,
  },
];

/** Walks the table; `undefined` means the call passes silently. */
export function evaluateNewest(signals: NewestSignals): Verdict | undefined {
  for (const rule of NEWEST_VERDICT_TABLE) {
    if (!rule.applies(signals)) continue;
    const count = rule.count(signals);
    const value = NEWEST_THRESHOLDS[rule.threshold];
    if (count < value) continue;
    return { detector: rule.detector, level: rule.level, count, threshold: { name: rule.threshold, value }, message: rule.message(signals, count) };
  }
  return undefined;
}
