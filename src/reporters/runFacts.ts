/**
 * What the human reports say about a run beyond its findings: where a finding is (`file:line`, as
 * short as the current directory allows), and what the live runtime itself did (recorded vetoes, and
 * the blocks and aborts a Gateway log recorded for a run of the same id).
 */
import { isAbsolute, relative } from "node:path";
import type { LiveRun, ReplayedRun } from "../core/findings.js";
import type { WorstRun } from "./model.js";
import { plural } from "./phrases.js";
import { sanitize } from "./sanitize.js";

/**
 * The file as the user can open it: relative to `cwd` when that is shorter. (`path.relative` is pure:
 * no file is looked at.) Sanitized.
 */
export function shownPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(file) || !isAbsolute(cwd)) return sanitize(file);
  const rel = relative(cwd, file);
  return sanitize(rel !== "" && rel.length < file.length ? rel : file);
}

/** `file:line`, which editors and terminals open at the line. */
export const location = (file: string, line: number, cwd: string | undefined): string => `${shownPath(file, cwd)}:${line}`;

/** "12, 15 and 18", with "… (N in all)" when the run recorded more than it keeps. */
function callList(calls: readonly number[], total: number): string {
  const listed = calls.length <= 1 ? calls.join("") : `${calls.slice(0, -1).join(", ")} and ${calls[calls.length - 1]}`;
  return total > calls.length ? `${calls.join(", ")}, … (${total} in all)` : listed;
}

/**
 * What the live runtime really did to this run, in sentences: vetoes recorded in the input (at which
 * calls), and blocks or an abort that a Gateway log recorded for the same run id. Said whatever the
 * replay's config found.
 */
export function runtimeFacts(run: ReplayedRun, live: LiveRun | undefined, cwd: string | undefined): string[] {
  const facts: string[] = [];
  if (run.recordedVetoes > 0) {
    const calls = run.recordedVetoCalls ?? [];
    // Runs replayed before call ordinals were kept (or built by hand) have only the count.
    const which = calls.length > 0 ? `${run.recordedVetoes === 1 ? "call" : "calls"} ${callList(calls, run.recordedVetoes)}` : plural(run.recordedVetoes, "call");
    facts.push(`the live runtime blocked ${which} (${run.recordedVetoes === 1 ? "a loop veto" : "loop vetoes"} in the transcript)`);
  }
  if (live) {
    const abort = live.findings.find((f) => f.level === "abort");
    const blocks = live.findings.filter((f) => f.level === "critical");
    const where = (f: { file: string; line: number; call: number | null }) => `${f.call !== null ? `call ${f.call}, ` : ""}${location(f.file, f.line, cwd)}`;
    if (abort) facts.push(`the live runtime aborted this run (${sanitize(abort.detector)}, ${where(abort)} in its Gateway log)`);
    if (blocks.length > 0) facts.push(`the live runtime blocked ${plural(blocks.length, "call")} of this run (first: ${where(blocks[0]!)} in its Gateway log)`);
  }
  return facts;
}

/** `aborted at call 21` or `blocked at call 21`, and where, of a run that would have been stopped. */
export function stopText(worst: WorstRun, cwd: string | undefined): { readonly what: string; readonly where: string | undefined } {
  const stop = worst.run.firstStop!;
  return { what: `${stop.kind === "abort" ? "aborted" : "blocked"} at call ${stop.call}`, where: worst.stop ? location(worst.stop.file, worst.stop.line, cwd) : undefined };
}
