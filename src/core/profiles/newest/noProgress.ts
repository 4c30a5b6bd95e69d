/**
 * The newest generation's no-progress streak (generations.md §5, OpenClaw tool-loop-no-progress).
 * Two changes from the default generation: loop vetoes count (the runtime's own blocks are no
 * progress), provisionally until a hashed record anchors them; and for `exec`, a terminal failure
 * streak runs across changing commands, so a model that keeps rewording a failing command is caught.
 * Each walk counts, and with `marks` marks what it counted (detectorScans.ts).
 */
import type { Marks, ScannedRecord } from "../../detectorScans.js";

const isVeto = (record: ScannedRecord) => record.outcomeKind === "tool-loop-veto";

/**
 * Records of this call signature, newest first, that share the newest hashed one's result; vetoes
 * in between add to it, vetoes older than a change do not. Only vetoes seen: their number.
 */
export function argumentStreak(history: readonly ScannedRecord[], tool: string, argsHash: string, marks?: Marks): number {
  let pending = 0;
  let streak = 0;
  let latest: string | undefined;
  // The vetoes not yet anchored, when marking (their count is `pending`).
  const vetoes: Marks = marks && [];
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== tool || record.argsHash !== argsHash) continue;
    if (isVeto(record)) {
      pending++;
      vetoes?.push(i);
      continue;
    }
    if (record.resultHash === undefined) continue;
    if (latest === undefined) latest = record.resultHash;
    else if (record.resultHash !== latest) break;
    streak += pending + 1;
    pending = 0;
    if (marks) marks.push(...vetoes!.splice(0), i);
  }
  if (latest !== undefined) return streak;
  if (marks) marks.push(...vetoes!);
  return pending;
}

/**
 * Consecutive terminal `exec` failures, newest first, whatever their arguments: one continues the
 * streak when its result hash equals the newest failure's, or when it ran the same command and its
 * failure identity (volatile spans masked) is the same. Another tool, a success, a timeout ends it.
 */
export function terminalFailureStreak(history: readonly ScannedRecord[], marks?: Marks): number {
  let pending = 0;
  let streak = 0;
  let latest: ScannedRecord | undefined;
  const vetoes: Marks = marks && [];
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== "exec") break;
    if (isVeto(record)) {
      pending++;
      vetoes?.push(i);
      continue;
    }
    if (record.resultHash === undefined) continue;
    if (record.outcomeKind !== "terminal-exec-failure") break;
    if (latest === undefined) latest = record;
    else {
      const sameFailure =
        record.resultHash === latest.resultHash || (record.argsHash === latest.argsHash && record.failureIdentity === latest.failureIdentity);
      if (!sameFailure) break;
    }
    streak += pending + 1;
    pending = 0;
    if (marks) marks.push(...vetoes!.splice(0), i);
  }
  return latest === undefined ? 0 : streak;
}

/** The streak the verdict table reads: for `exec` the larger of both walks (marks: that walk's). */
export function noProgressStreak(history: readonly ScannedRecord[], tool: string, argsHash: string, marks?: Marks): number {
  if (tool !== "exec") return argumentStreak(history, tool, argsHash, marks);
  const byArgumentsMarks: Marks = marks && [];
  const byArguments = argumentStreak(history, tool, argsHash, byArgumentsMarks);
  const byFailureMarks: Marks = marks && [];
  const byFailure = terminalFailureStreak(history, byFailureMarks);
  if (marks) marks.push(...(byFailure > byArguments ? byFailureMarks! : byArgumentsMarks!));
  return Math.max(byArguments, byFailure);
}
