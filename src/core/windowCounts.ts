/**
 * Which calls of a traced window (trace.ts) the detector's count took: the same walks as the
 * detectors (detectors.ts, profiles/newest/noProgress.ts, argumentChurn.ts, the guards), but
 * marking rows instead of only counting them. `looplens explain` shows the marks; the number of
 * marks is checked against the finding's count, so a walk that drifted from its detector shows.
 */
import { argumentChurn } from "./profiles/newest/argumentChurn.js";
import type { TracedFinding, TraceProbe, TraceRow } from "./trace.js";

export interface WindowCount {
  /** Per row (oldest first): whether the count took it. */
  readonly counted: readonly boolean[];
  /** Whether the judged call itself is part of the count (ping-pong counts the call that continues it). */
  readonly probeCounted: boolean;
  /** The marks in all: equal to the finding's count when the walk is the detector's. */
  readonly total: number;
}

type Marks = number[];

const sameCall = (row: TraceRow, tool: string, argsHash: string) => row.tool === tool && row.argsHash === argsHash;
const isVeto = (row: TraceRow) => row.outcomeKind === "tool-loop-veto";

/** generic_repeat warnings: every record of this tool and these arguments, whatever came back. */
function recentRepeats(rows: readonly TraceRow[], probe: TraceProbe): Marks {
  const marks: Marks = [];
  rows.forEach((row, i) => sameCall(row, probe.tool, probe.argsHash) && marks.push(i));
  return marks;
}

/** The default generation's no-progress streak: the newest answered records of this call with one result. */
function sameResultStreak(rows: readonly TraceRow[], probe: TraceProbe): Marks {
  const marks: Marks = [];
  let latest: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (!sameCall(row, probe.tool, probe.argsHash) || row.resultHash === undefined || row.resultHash === "") continue;
    latest ??= row.resultHash;
    if (row.resultHash !== latest) break;
    marks.push(i);
  }
  return marks;
}

/**
 * The newest generation's streak walk: `continues(row, latest)` says whether a hashed row extends
 * it; vetoes extend it only once a hashed row older than them is counted (only vetoes: all count).
 */
function newestWalk(rows: readonly TraceRow[], take: (row: TraceRow) => "skip" | "veto" | "hashed" | "stop", continues: (row: TraceRow, latest: TraceRow) => boolean, onlyVetoesCount: boolean): Marks {
  let pending: Marks = [];
  const marks: Marks = [];
  let latest: TraceRow | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    const kind = take(row);
    if (kind === "stop") break;
    if (kind === "skip") continue;
    if (kind === "veto") {
      pending.push(i);
      continue;
    }
    if (latest === undefined) latest = row;
    else if (!continues(row, latest)) break;
    marks.push(...pending, i);
    pending = [];
  }
  return latest === undefined ? (onlyVetoesCount ? pending : []) : marks;
}

/** The newest generation's no-progress streak (noProgress.ts): by arguments, and for exec by failure too. */
function newestStreak(rows: readonly TraceRow[], probe: TraceProbe): Marks {
  const byArguments = newestWalk(
    rows,
    (row) => (!sameCall(row, probe.tool, probe.argsHash) ? "skip" : isVeto(row) ? "veto" : row.resultHash === undefined ? "skip" : "hashed"),
    (row, latest) => row.resultHash === latest.resultHash,
    true,
  );
  if (probe.tool !== "exec") return byArguments;
  const byFailure = newestWalk(
    rows,
    (row) => {
      if (row.tool !== "exec") return "stop";
      if (isVeto(row)) return "veto";
      if (row.resultHash === undefined) return "skip";
      return row.outcomeKind === "terminal-exec-failure" ? "hashed" : "stop";
    },
    (row, latest) => row.resultHash === latest.resultHash || (row.argsHash === latest.argsHash && row.failureIdentity === latest.failureIdentity),
    false,
  );
  return byFailure.length > byArguments.length ? byFailure : byArguments;
}

/** The A,B,A,B… tail of the records that the judged call continues (detectors.ts `pingPong`). */
function alternation(rows: readonly TraceRow[]): Marks {
  const last = rows[rows.length - 1];
  if (!last) return [];
  const other = [...rows].reverse().find((row) => row.argsHash !== last.argsHash)?.argsHash;
  if (other === undefined) return [];
  const marks: Marks = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.argsHash !== (marks.length % 2 === 0 ? last.argsHash : other)) break;
    marks.push(i);
  }
  return marks;
}

/** The newest records of this tool that failed naming one unavailable tool. */
function unknownToolStreak(rows: readonly TraceRow[], probe: TraceProbe): Marks {
  const marks: Marks = [];
  let name: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.tool !== probe.tool || row.unknownTool === undefined || (name !== undefined && row.unknownTool !== name)) break;
    name = row.unknownTool;
    marks.push(i);
  }
  return marks;
}

/** The variants argument churn counted (argumentChurn.ts): the no-progress tail, or the changing writes. */
function churn(rows: readonly TraceRow[], probe: TraceProbe): Marks {
  const records = rows.map((row) => ({ ...row, run: "", outcomeKind: row.outcomeKind as never }));
  const kind = argumentChurn(records, probe).kind;
  const marks: Marks = [];
  if (kind === "no-progress") {
    const results = new Map<string, string>(); // a variant's one outcome
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (row.tool !== probe.tool) break;
      if (row.resultHash === undefined) continue;
      if (row.noProgress !== true || (results.get(row.argsHash) ?? row.resultHash) !== row.resultHash) break;
      results.set(row.argsHash, row.resultHash);
      marks.push(i);
    }
    return marks;
  }
  if (kind !== "write-mutation") return marks;
  const bodies: string[] = []; // newest first, one per mark
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.tool !== "write" || row.outcomeKind !== "write-mutation" || row.mutationTarget !== probe.mutationTarget) break;
    const seen = bodies.indexOf(row.argsHash);
    // A body written again starts the streak anew: only the variants since its newer write count.
    if (seen !== -1) return marks.slice(0, seen + 1);
    bodies.push(row.argsHash);
    marks.push(i);
  }
  return marks;
}

/** The rows of a history window that the finding's rule counted. */
function historyMarks(traced: Extract<TracedFinding, { kind: "history" }>): Marks {
  const { finding, rows, probe, profile } = traced;
  const streak = profile === "newest" ? newestStreak : sameResultStreak;
  switch (finding.detector) {
    case "unknown_tool_repeat":
      return unknownToolStreak(rows, probe);
    case "ping_pong":
      return alternation(rows);
    case "argument_churn":
      return churn(rows, probe);
    case "generic_repeat":
      return finding.level === "warning" ? recentRepeats(rows, probe) : streak(rows, probe);
    default:
      return streak(rows, probe);
  }
}

/** The guard's count: the outcomes of its window identical (tool, arguments, result) to the aborting one, the last. */
function identicalOutcomes(rows: readonly TraceRow[]): Marks {
  const last = rows.at(-1);
  const marks: Marks = [];
  rows.forEach((row, i) => last && sameCall(row, last.tool, last.argsHash) && row.resultHash === last.resultHash && marks.push(i));
  return marks;
}

/** What the detector counted in a traced window. */
export function windowCount(traced: TracedFinding): WindowCount {
  const marks = traced.kind === "guard" ? identicalOutcomes(traced.rows) : historyMarks(traced);
  const counted = traced.rows.map((_, i) => marks.includes(i));
  const probeCounted = traced.kind === "history" && traced.finding.detector === "ping_pong";
  return { counted, probeCounted, total: marks.length + (probeCounted ? 1 : 0) };
}
