/**
 * What the human reports say about a run beyond its findings: where a finding is (`file:line`, as
 * short as the current directory allows), what the live runtime itself did (recorded vetoes, and the
 * blocks and aborts a Gateway log recorded for a run of the same id), and which runs were worst.
 */
import { isAbsolute, relative } from "node:path";
import type { LiveRun, ReplayedRun } from "../core/findings.js";
import { worstOf } from "../core/worstFirst.js";
import { runsWithFindings } from "../core/liveRuns.js";
import { replayedCount, replayedInOrder, type ReportModel } from "./model.js";
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

/** The live runs of a Gateway log that blocked or aborted, by run id (to name them in replayed runs' headers). */
export function liveStopsByRun(data: ReportModel): Map<string, LiveRun> {
  const stops = new Map<string, LiveRun>();
  for (const run of data.live ? runsWithFindings(data.live.runs) : []) {
    if (run.findings.some((f) => f.level !== "warning") && !stops.has(run.run)) stops.set(run.run, run);
  }
  return stops;
}

/**
 * The replayed runs a human format lists, in order, one at a time (spilled ones are read back as
 * they come: none is kept): all with `--all`, else those with findings, recorded vetoes or a live
 * stop. Once they were all read, `listed()` counts them and `hidden()` the others.
 */
export function listedRuns(data: ReportModel, all: boolean): { readonly shown: Iterable<ReplayedRun>; listed(): number; hidden(): number; readonly liveStops: Map<string, LiveRun> } {
  const liveStops = liveStopsByRun(data);
  const listed = (run: ReplayedRun) => all || run.findings.length > 0 || run.recordedVetoes > 0 || liveStops.has(run.run);
  let count = 0;
  function* shown(): Generator<ReplayedRun> {
    for (const run of replayedInOrder(data)) {
      if (!listed(run)) continue;
      count++;
      yield run;
    }
  }
  return { shown: shown(), listed: () => count, hidden: () => replayedCount(data) - count, liveStops };
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

export interface WorstRun {
  readonly run: ReplayedRun;
  /** `file:line` of the finding that stopped it. */
  readonly where: string | undefined;
}

/** Runs that would have been stopped, worst first (core/worstFirst.ts, as `--top` ranks them), at most `limit`. */
export function worstRuns(runs: Iterable<ReplayedRun>, limit: number, cwd: string | undefined): { readonly shown: WorstRun[]; readonly total: number } {
  // Read one at a time (runs may come back from disk): only the `limit` worst are held.
  let total = 0;
  function* stopped(): Generator<ReplayedRun> {
    for (const run of runs) {
      if (run.firstStop === null) continue;
      total++;
      yield run;
    }
  }
  const shown = worstOf(stopped(), limit).map((run) => {
    const stop = run.findings.find((f) => f.level !== "warning" && f.call === run.firstStop!.call);
    return { run, where: stop ? location(stop.file, stop.line, cwd) : undefined };
  });
  return { shown, total };
}
