/**
 * What each detector is, in one table that the help text, the live-log findings (which threshold a
 * logged event crossed), the verdict table (which threshold a row compares with) and the list of
 * known detector names all read: a new detector is its name here, one row in this table, and its
 * row(s) in the verdict table (detectors.ts).
 */

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

export interface DetectorInfo {
  readonly name: DetectorName;
  /** What the detector means, in plain words (help text, legends). */
  readonly meaning: string;
  /** The threshold its warnings cross (absent: it never warns). */
  readonly warning?: ThresholdName;
  /** The threshold its blocks (or abort) cross (absent: warning only). */
  readonly stop?: ThresholdName;
  /** Under which generation it exists (detection.md: the configurable one; generations.md: newest). */
  readonly generations: "all" | "newest";
}

export const DETECTORS: readonly DetectorInfo[] = [
  {
    name: "generic_repeat",
    meaning: "one tool called with identical arguments, over and over",
    warning: "warningThreshold",
    stop: "criticalThreshold",
    generations: "all",
  },
  {
    name: "known_poll_no_progress",
    meaning: "a poll repeating with nothing new coming back",
    warning: "warningThreshold",
    stop: "criticalThreshold",
    generations: "all",
  },
  {
    name: "ping_pong",
    meaning: "two calls alternating with no progress",
    warning: "warningThreshold",
    stop: "criticalThreshold",
    generations: "all",
  },
  {
    name: "unknown_tool_repeat",
    meaning: "repeated calls to a tool that does not exist",
    stop: "unknownToolThreshold",
    generations: "all",
  },
  {
    name: "global_circuit_breaker",
    meaning: "identical no-progress outcomes for far too long",
    stop: "globalCircuitBreakerThreshold",
    generations: "all",
  },
  {
    name: "compaction_loop_persisted",
    meaning: "the same call and result right after a compaction",
    stop: "postCompactionGuard.windowSize",
    generations: "all",
  },
  {
    name: "argument_churn",
    meaning: "changing arguments, the same outcome (a warning)",
    warning: "warningThreshold",
    generations: "newest",
  },
];

export const DETECTOR_NAMES: readonly DetectorName[] = DETECTORS.map((detector) => detector.name);

const BY_NAME = new Map(DETECTORS.map((detector) => [detector.name, detector]));

export function detectorInfo(name: DetectorName): DetectorInfo {
  return BY_NAME.get(name)!;
}

/** The threshold a finding of this detector at this level crosses (warnings: `warning`, else `stop`). */
export function thresholdOf(name: DetectorName, level: "warning" | "critical" | "abort"): ThresholdName | undefined {
  const info = detectorInfo(name);
  return level === "warning" ? info.warning : info.stop;
}

/** The detectors as the help text lists them. */
export function detectorHelp(): string {
  // Two lines each, so that the list fits 80 columns.
  const lines = DETECTORS.flatMap((detector) => {
    const thresholds = [...new Set([detector.warning, detector.stop].filter((t): t is ThresholdName => t !== undefined))].join(", ");
    const newest = detector.generations === "newest" ? "; --profile newest only" : "";
    return [`  ${detector.name} (${thresholds})`, `      ${detector.meaning}${newest}`];
  });
  return ["Detectors:", ...lines].join("\n");
}
