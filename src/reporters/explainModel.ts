/**
 * What `looplens explain` shows (pipeline/explain.ts builds it; reporters/explain.ts writes it): the
 * findings at the place asked for, each with the window of calls its detector counted.
 */
import type { Diagnostic, LineCounts, ReplayedFinding } from "../core/findings.js";
import type { TracedFinding } from "../core/trace.js";
import type { WindowCount } from "../core/windowCounts.js";

/** Where the finding is: a line of the file (as the report's `file:line` says), and/or a run's call. */
export interface ExplainTarget {
  readonly path: string;
  readonly line?: number;
  readonly run?: string;
  readonly call?: number;
}

/** What a call of the window was, as far as a short preview tells (unsanitised: reporters clean it). */
export interface CallPreview {
  readonly args: string;
  /** Absent: no outcome recorded for the call in the input. */
  readonly outcome?: string;
}

export interface ExplainedFinding {
  readonly traced: TracedFinding;
  readonly count: WindowCount;
  /** Per row of `traced.rows`, then (history windows) the judged call last. */
  readonly previews: readonly (CallPreview | undefined)[];
}

export interface Explanation {
  readonly target: ExplainTarget;
  readonly explained: readonly ExplainedFinding[];
  /** When nothing was found at the target: the replayed findings closest to it (at most NEAREST). */
  readonly nearest: readonly ReplayedFinding[];
  readonly lines: LineCounts;
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticsTotal: number;
}

