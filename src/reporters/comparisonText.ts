/** The words of a replay-vs-live comparison row, shared by every format that shows it. */
import type { ComparisonRow, ComparisonSide } from "./comparison.js";

/** One side of a row: the calls it fired at (`11–20 ×10`), the line when the call is unknown, or a dash. */
export function comparisonSide(side: ComparisonSide | null): string {
  if (!side) return "—";
  const times = side.findings > 1 ? ` ×${side.findings}` : "";
  if (side.firstCall === null) return `line ${side.line}${times}`;
  const calls = side.lastCall !== null && side.lastCall !== side.firstCall ? `${side.firstCall}–${side.lastCall}` : String(side.firstCall);
  return `${calls}${times}`;
}

const AGREEMENT_TEXT: Record<string, string> = {
  "both:same": "both, same call",
  "both:replay": "both, replay first",
  "both:live": "both, live first",
  "both:null": "both",
  replay_only: "replay only",
  live_only: "live only",
};

/** Whether both sides fired, and which first; or which side alone. */
export function agreementText(row: ComparisonRow): string {
  return AGREEMENT_TEXT[row.agreement === "both" ? `both:${row.earlier}` : row.agreement]!;
}
