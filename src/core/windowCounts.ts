/**
 * Which calls of a traced window (trace.ts) the detector's count took. No walk of its own: the row
 * that made the finding names its signal, and the detector's own walk (detectorScans.ts, or the
 * generation's) is run again over the window, asked to mark what it counts. `looplens explain`
 * shows the marks; their number is the finding's count.
 */
import { markCounted } from "./detectors.js";
import { identicalOutcomes } from "./detectorScans.js";
import { PROFILES } from "./profiles/index.js";
import type { TracedFinding } from "./trace.js";

export interface WindowCount {
  /** Per row (oldest first): whether the count took it. */
  readonly counted: readonly boolean[];
  /** Whether the judged call itself is part of the count (ping-pong counts the call that continues it). */
  readonly probeCounted: boolean;
  /** The marks in all: equal to the finding's count. */
  readonly total: number;
}

/** The rows of a history window that the finding's row counted, and whether it counted the probe. */
function historyMarks(traced: Extract<TracedFinding, { kind: "history" }>, marks: number[]): boolean {
  const { finding, rows, probe } = traced;
  const generation = PROFILES[traced.profile].verdicts;
  const row = generation.rows.find((candidate) => candidate.detector === finding.detector && candidate.level === finding.level);
  if (row === undefined) return false;
  markCounted(row, rows, probe, generation, marks);
  return row.signal === "pingPong";
}

/** What the detector counted in a traced window. */
export function windowCount(traced: TracedFinding): WindowCount {
  const marks: number[] = [];
  let probeCounted = false;
  if (traced.kind === "guard") {
    // The guard's count: the outcomes of its window identical to the aborting one, the last.
    const last = traced.rows.at(-1);
    if (last !== undefined) identicalOutcomes(traced.rows, last, marks);
  } else {
    probeCounted = historyMarks(traced, marks);
  }
  const counted = traced.rows.map((_, i) => marks.includes(i));
  return { counted, probeCounted, total: marks.length + (probeCounted ? 1 : 0) };
}
