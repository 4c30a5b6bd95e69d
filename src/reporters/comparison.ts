/**
 * Replay vs live, as reports show it (computed by src/pipeline/comparison.ts): per run found both
 * among replayed runs and in a Gateway log, per (detector, tool, level), did the replay fire, did
 * the live runtime, and which one first.
 */
import type { DetectorName } from "../core/detectors.js";
import type { FindingLevel } from "../core/findings.js";

export interface ComparisonSide {
  readonly file: string;
  /** Line of the side's first finding of this row. */
  readonly line: number;
  readonly firstCall: number | null;
  readonly lastCall: number | null;
  readonly findings: number;
  readonly maxCount: number;
}

export type Agreement = "both" | "replay_only" | "live_only";

export interface ComparisonRow {
  readonly run: string;
  readonly detector: DetectorName;
  readonly tool: string;
  readonly level: FindingLevel;
  readonly replay: ComparisonSide | null;
  readonly live: ComparisonSide | null;
  readonly agreement: Agreement;
  /** Which side fired at an earlier call; `null` unless both fired with known calls. */
  readonly earlier: "replay" | "live" | "same" | null;
}

export interface Comparison {
  /** Run ids found both among replayed runs and in a Gateway log, in replay order. */
  readonly runs: readonly string[];
  readonly rows: readonly ComparisonRow[];
}
