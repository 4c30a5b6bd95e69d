/**
 * The rolling-history detectors (spec: detection.md "The rolling detectors", generations.md §7).
 * The verdict table is data: `VERDICT_TABLE` lists the rows of both generations in the runtime's
 * order and the engine takes the first row that matches. What differs between generations is data
 * too (`GenerationRules`, given by each profile): which no-progress walk the rows read, whether the
 * generation has argument churn (its row exists only then), and the words it uses. Thresholds come
 * from the detector metadata table (detectorInfo.ts), their values from the config (the newest
 * generation's is fixed). Signals are measured once per incoming call over the records of its run,
 * by the walks of detectorScans.ts, which also mark what they counted for `looplens explain`.
 */
import type { DetectorField, ResolvedConfig } from "./config.js";
import { thresholdOf, type DetectorName, type ThresholdName } from "./detectorInfo.js";
import { pingPong, recentCount, unknownStreak, type Marks, type ScannedRecord } from "./detectorScans.js";
import { churnCount, NO_CHURN, type ArgumentChurn, type ChurnProbe } from "./profiles/newest/argumentChurn.js";
import { VERDICT_MESSAGES, type MessageName } from "./verdictMessages.js";

export type { DetectorName, ThresholdName } from "./detectorInfo.js";

export interface Verdict {
  readonly detector: DetectorName;
  readonly level: "warning" | "critical";
  readonly count: number;
  readonly threshold: { readonly name: ThresholdName; readonly value: number };
  readonly message: string;
}

/** The incoming call the detectors judge (a prepared call event can be passed as it is). */
export interface Probe extends ChurnProbe {
  readonly knownPoll: boolean;
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
  /** Always none in a generation without argument churn. */
  readonly churn: ArgumentChurn;
}

/** The signal a row counts, which names the walk that counted it. */
export type SignalName = "unknownStreak" | "noProgress" | "pingPong" | "recentCount" | "argumentChurn";

/** What one generation does its own way; everything else is the table's. */
export interface GenerationRules {
  /** The no-progress streak of this call signature (marking what it counted when `marks` is given). */
  readonly noProgress: (history: readonly ScannedRecord[], tool: string, argsHash: string, marks?: Marks) => number;
  /** Argument churn, in a generation that has it (its row is not in the generation's table otherwise). */
  readonly argumentChurn?: (history: readonly ScannedRecord[], probe: ChurnProbe, marks?: Marks) => ArgumentChurn;
  /** Rows this generation words otherwise: the table's message name → this generation's. */
  readonly messages?: Partial<Record<MessageName, MessageName>>;
}

interface VerdictRule {
  readonly detector: Exclude<DetectorName, "compaction_loop_persisted">;
  readonly level: "warning" | "critical";
  /** The `detectors.*` switch that gates this row; the unknown-tool, breaker and churn rows have none. */
  readonly switch?: DetectorField;
  readonly applies: (s: Signals) => boolean;
  readonly signal: SignalName;
  readonly message: MessageName;
}

const always = () => true;

/** The runtime's verdict table, in order: the first row whose condition holds is the verdict. */
export const VERDICT_TABLE: readonly VerdictRule[] = [
  { detector: "unknown_tool_repeat", level: "critical", applies: always, signal: "unknownStreak", message: "unknownTool" },
  { detector: "global_circuit_breaker", level: "critical", applies: always, signal: "noProgress", message: "circuitBreaker" },
  { detector: "known_poll_no_progress", level: "critical", switch: "knownPollNoProgress", applies: (s) => s.knownPoll, signal: "noProgress", message: "pollCritical" },
  { detector: "known_poll_no_progress", level: "warning", switch: "knownPollNoProgress", applies: (s) => s.knownPoll, signal: "noProgress", message: "pollWarning" },
  { detector: "ping_pong", level: "critical", switch: "pingPong", applies: (s) => s.pingPongNoProgress, signal: "pingPong", message: "pingPongCritical" },
  { detector: "ping_pong", level: "warning", switch: "pingPong", applies: always, signal: "pingPong", message: "pingPongWarning" },
  { detector: "generic_repeat", level: "critical", switch: "genericRepeat", applies: (s) => !s.knownPoll, signal: "noProgress", message: "repeatCritical" },
  // Newest generation only (generations.md §7): between the generic block and the generic warning.
  { detector: "argument_churn", level: "warning", applies: always, signal: "argumentChurn", message: "argumentChurn" },
  // Warnings count repeats whatever their outcome; only the block needs a no-progress streak.
  { detector: "generic_repeat", level: "warning", switch: "genericRepeat", applies: (s) => !s.knownPoll, signal: "recentCount", message: "repeatWarning" },
];

const COUNTS: Readonly<Record<SignalName, (s: Signals) => number>> = {
  unknownStreak: (s) => s.unknownStreak,
  noProgress: (s) => s.noProgress,
  pingPong: (s) => s.pingPong,
  recentCount: (s) => s.recentCount,
  argumentChurn: (s) => churnCount(s.churn),
};

/** The thresholds a verdict row can compare with (the guard's window is no row's). */
type RowThreshold = Exclude<ThresholdName, "postCompactionGuard.windowSize">;

/** A row of one generation's table, with what it reads resolved. */
export interface GenerationRow extends VerdictRule {
  readonly threshold: RowThreshold;
  readonly count: (s: Signals) => number;
  readonly words: (s: Signals, count: number) => string;
}

/** One generation's verdict table: its rows, and the distinct counts and thresholds they test. */
export interface VerdictGeneration extends GenerationRules {
  readonly rows: readonly GenerationRow[];
  readonly counts: ReadonlyArray<(s: Signals) => number>;
  readonly thresholds: readonly RowThreshold[];
}

/** What a verdict reads of a config: thresholds and detector switches. */
export type VerdictLimits = Pick<ResolvedConfig, RowThreshold | "detectors">;

export function verdictGeneration(rules: GenerationRules): VerdictGeneration {
  const rows = VERDICT_TABLE.filter((rule) => rule.signal !== "argumentChurn" || rules.argumentChurn !== undefined).map((rule): GenerationRow => {
    const threshold = thresholdOf(rule.detector, rule.level);
    if (threshold === undefined || threshold === "postCompactionGuard.windowSize") throw new Error(`${rule.detector} has no ${rule.level} threshold in detectorInfo.ts`);
    return { ...rule, threshold, count: COUNTS[rule.signal], words: VERDICT_MESSAGES[rules.messages?.[rule.message] ?? rule.message] };
  });
  return { ...rules, rows, counts: [...new Set(rows.map((row) => row.count))], thresholds: [...new Set(rows.map((row) => row.threshold))] };
}

/** The signals of an incoming call over its run's records, oldest first. */
export function measure(history: readonly ScannedRecord[], probe: Probe, generation: GenerationRules): Signals {
  const unknown = unknownStreak(history, probe.tool);
  const pong = pingPong(history, probe.argsHash);
  return {
    tool: probe.tool,
    knownPoll: probe.knownPoll,
    unknownStreak: unknown.count,
    unknownTool: unknown.name,
    noProgress: generation.noProgress(history, probe.tool, probe.argsHash),
    pingPong: pong.count,
    pingPongNoProgress: pong.noProgress,
    recentCount: recentCount(history, probe.tool, probe.argsHash),
    churn: generation.argumentChurn?.(history, probe) ?? NO_CHURN,
  };
}

/** Marks the records the row's count took: the same walk as `measure`'s, asked to mark. */
export function markCounted(row: GenerationRow, history: readonly ScannedRecord[], probe: Probe, generation: GenerationRules, marks: number[]): void {
  switch (row.signal) {
    case "unknownStreak":
      return void unknownStreak(history, probe.tool, marks);
    case "noProgress":
      return void generation.noProgress(history, probe.tool, probe.argsHash, marks);
    case "pingPong":
      return void pingPong(history, probe.argsHash, marks);
    case "recentCount":
      return void recentCount(history, probe.tool, probe.argsHash, marks);
    case "argumentChurn":
      return void generation.argumentChurn?.(history, probe, marks);
  }
}

/**
 * Whether some row could match: some count reaches some threshold. Most calls are far under every
 * threshold, and `sweep` evaluates each call under every config, so this is tested first.
 */
function mayMatch(signals: Signals, limits: VerdictLimits, generation: VerdictGeneration): boolean {
  let highest = 0;
  for (const count of generation.counts) highest = Math.max(highest, count(signals));
  for (const threshold of generation.thresholds) if (highest >= limits[threshold]) return true;
  return false;
}

/** Walks the generation's table; `undefined` means the call passes silently. */
export function evaluate(signals: Signals, limits: VerdictLimits, generation: VerdictGeneration): Verdict | undefined {
  if (!mayMatch(signals, limits, generation)) return undefined;
  for (const row of generation.rows) {
    if (row.switch && !limits.detectors[row.switch]) continue;
    if (!row.applies(signals)) continue;
    const count = row.count(signals);
    const value = limits[row.threshold];
    if (count < value) continue;
    return { detector: row.detector, level: row.level, count, threshold: { name: row.threshold, value }, message: row.words(signals, count) };
  }
  return undefined;
}
