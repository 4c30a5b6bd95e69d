/**
 * How the newest generation's verdicts differ from the table's (generations.md §5–7), as data for
 * detectors.ts: fixed thresholds, no detector toggles (its config has every switch on), its own
 * no-progress streak, argument churn (a warning, whose row only this generation has), and a generic
 * block that says it counted outcomes.
 */
import { verdictGeneration, type VerdictGeneration } from "../../detectors.js";
import type { ThresholdName } from "../../detectorInfo.js";
import { argumentChurn } from "./argumentChurn.js";
import { noProgressStreak } from "./noProgress.js";

/** The constants of the newest generation (OpenClaw tool-loop-thresholds; tuning retired in #111382). */
export const NEWEST_THRESHOLDS = {
  warningThreshold: 10,
  criticalThreshold: 20,
  unknownToolThreshold: 10,
  globalCircuitBreakerThreshold: 30,
} as const satisfies Partial<Record<ThresholdName, number>>;

/** The lowest fixed threshold: a count below it gives no verdict. */
export const NEWEST_LOWEST_THRESHOLD = Math.min(...Object.values(NEWEST_THRESHOLDS));

export const NEWEST_VERDICTS: VerdictGeneration = verdictGeneration({
  noProgress: noProgressStreak,
  argumentChurn,
  messages: { repeatCritical: "repeatCriticalByOutcome" },
});
