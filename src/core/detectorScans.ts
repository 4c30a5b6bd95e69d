/**
 * The walks the detectors make over a run's history records (spec: detection.md "The rolling
 * detectors"), each written once. A walk returns its count; handed `marks`, it also pushes the
 * index of every record its count took, which `looplens explain` shows (windowCounts.ts). The
 * newest generation's own walks are in profiles/newest/ (noProgress.ts, argumentChurn.ts), written
 * the same way; the verdict table (detectors.ts) says which walk each row reads.
 */

/**
 * The fields of a record the walks read: the default generation's records (history.ts), the newest
 * generation's (profiles/newest/history.ts, which add the outcome facts), and explain's trace rows.
 */
export interface ScannedRecord {
  readonly tool: string;
  readonly argsHash: string;
  /** Absent: no outcome yet (pending), or (newest) a loop veto. */
  readonly resultHash?: string | undefined;
  readonly unknownTool?: string | undefined;
  readonly outcomeKind?: string | undefined;
  readonly noProgress?: boolean | undefined;
  readonly failureIdentity?: string | undefined;
  readonly mutationTarget?: string | undefined;
}

/** Indices of the records a count took, for explain; absent while analysing (nothing is pushed). */
export type Marks = number[] | undefined;

/** Consecutive newest records of this tool that failed with the same unknown-tool name. */
export function unknownStreak(history: readonly ScannedRecord[], tool: string, marks?: Marks): { count: number; name: string | undefined } {
  let count = 0;
  let name: string | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    // A pending record (no outcome yet) carries no unknown-tool name, so it breaks the streak.
    if (record.tool !== tool || record.unknownTool === undefined) break;
    if (name !== undefined && record.unknownTool !== name) break;
    name = record.unknownTool;
    count++;
    marks?.push(i);
  }
  return { count, name };
}

/** The default generation's no-progress streak: how many of the newest answered records with this signature share the newest one's result. */
export function sameResultStreak(history: readonly ScannedRecord[], tool: string, argsHash: string, marks?: Marks): number {
  let streak = 0;
  let latest: string | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== tool || record.argsHash !== argsHash) continue;
    if (record.resultHash === undefined || record.resultHash === "") continue;
    if (latest === undefined) latest = record.resultHash;
    else if (record.resultHash !== latest) break;
    streak++;
    marks?.push(i);
  }
  return streak;
}

/** Records of this tool and these arguments, whatever came back (generic_repeat warnings). */
export function recentCount(history: readonly ScannedRecord[], tool: string, argsHash: string, marks?: Marks): number {
  let count = 0;
  for (let i = 0; i < history.length; i++) {
    const record = history[i]!;
    if (record.tool !== tool || record.argsHash !== argsHash) continue;
    count++;
    marks?.push(i);
  }
  return count;
}

/** No ping-pong: one shared answer, not an object per call. */
const NO_PING_PONG: { readonly count: number; readonly noProgress: boolean } = Object.freeze({ count: 0, noProgress: false });

/**
 * Length of the A,B,A,B… tail the incoming call would extend (the call counted too), and whether
 * both sides are stuck (each side's records all answered with one result). Marks: the tail.
 */
export function pingPong(history: readonly ScannedRecord[], argsHash: string, marks?: Marks): { readonly count: number; readonly noProgress: boolean } {
  const last = history[history.length - 1];
  if (!last) return NO_PING_PONG;
  let other: string | undefined;
  for (let i = history.length - 2; i >= 0; i--) {
    if (history[i]!.argsHash !== last.argsHash) {
      other = history[i]!.argsHash;
      break;
    }
  }
  if (other === undefined) return NO_PING_PONG;
  let tail = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const expected = tail % 2 === 0 ? last.argsHash : other;
    if (history[i]!.argsHash !== expected) break;
    tail++;
  }
  // The probe must be the other side: A,B,A then B continues the alternation.
  if (tail < 2 || argsHash !== other) return NO_PING_PONG;
  if (marks) for (let i = history.length - tail; i < history.length; i++) marks.push(i);
  return { count: tail + 1, noProgress: bothSidesStuck(history, tail, last.argsHash) };
}

/** Whether each side of the alternation's tail was answered, always with its one result. */
function bothSidesStuck(history: readonly ScannedRecord[], tail: number, sideOf: string): boolean {
  let sideA: string | undefined;
  let sideB: string | undefined;
  for (let i = history.length - tail; i < history.length; i++) {
    const record = history[i]!;
    if (record.resultHash === undefined) return false;
    if (record.argsHash === sideOf) {
      sideA ??= record.resultHash;
      if (sideA !== record.resultHash) return false;
    } else {
      sideB ??= record.resultHash;
      if (sideB !== record.resultHash) return false;
    }
  }
  return sideA !== undefined && sideB !== undefined;
}

/** What the post-compaction guards compare: one call outcome. */
export interface GuardedOutcome {
  readonly tool: string;
  readonly argsHash: string;
  readonly resultHash?: string | undefined;
}

/** Outcomes of an armed guard's window identical (tool, arguments, result) to `outcome` (both generations' guards). */
export function identicalOutcomes(window: readonly GuardedOutcome[], outcome: GuardedOutcome, marks?: Marks): number {
  let identical = 0;
  for (let i = 0; i < window.length; i++) {
    const entry = window[i]!;
    if (entry.tool !== outcome.tool || entry.argsHash !== outcome.argsHash || entry.resultHash !== outcome.resultHash) continue;
    identical++;
    marks?.push(i);
  }
  return identical;
}
