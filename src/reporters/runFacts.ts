/**
 * What the human reports say about a run beyond its findings: where a finding is (`file:line`, as
 * short as the current directory allows), and what the live runtime itself did (recorded vetoes, and
 * the blocks and aborts a Gateway log recorded for a run of the same id).
 */
import { basename, isAbsolute, relative, sep } from "node:path";
import type { LiveRun, ReplayedRun } from "../core/findings.js";
import type { WorstRun, WriteOptions } from "./model.js";
import { plural } from "./phrases.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { displayWidth, elideMiddle } from "./textFit.js";

/**
 * The file as the user can open it: relative to `cwd` when that is shorter. (`path.relative` is pure:
 * no file is looked at.) Sanitized.
 */
export function shownPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(file) || !isAbsolute(cwd)) return sanitize(file);
  const rel = relative(cwd, file);
  return sanitize(rel !== "" && rel.length < file.length ? rel : file);
}

/**
 * The file of a run header in at most `width` columns: the shortest of the path as `shownPath`
 * gives it, from the OpenClaw state directory (`$OPENCLAW_STATE_DIR/…`, when it was given so) and
 * from the home folder (`~/…`), and when even that is too long, cut (`fitPath`). Sanitized.
 */
export function headerPath(file: string, session: string | null, options: Pick<WriteOptions, "cwd" | "home" | "stateDir">, width: number): string {
  const candidates = [shownPath(file, options.cwd)];
  const under = (dir: string | undefined, label: string) => {
    if (dir === undefined || !isAbsolute(file) || !isAbsolute(dir)) return;
    const rel = relative(dir, file);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) candidates.push(sanitize(`${label}${sep}${rel}`));
  };
  under(options.stateDir, "$OPENCLAW_STATE_DIR");
  under(options.home, "~");
  const shortest = candidates.reduce((a, b) => (displayWidth(b) < displayWidth(a) ? b : a));
  return fitPath(shortest, session, Math.max(8, width));
}

/**
 * A path cut to `width`: the session id in the file's name to its first 8 characters (the header
 * names the session), then the folders' middle, so that the file's name stays whole if it can.
 */
function fitPath(path: string, session: string | null, width: number): string {
  if (displayWidth(path) <= width) return path;
  const cut = path.lastIndexOf(sep) + 1;
  let name = path.slice(cut);
  if (session !== null && session.length > 8 && name.includes(session)) name = name.replace(session, `${session.slice(0, 8)}…`);
  const folders = path.slice(0, cut);
  if (displayWidth(folders) + displayWidth(name) <= width) return folders + name;
  const nameWidth = displayWidth(name);
  if (nameWidth + 4 > width) return elideMiddle(folders + name, width);
  return elideMiddle(folders, width - nameWidth) + name;
}

/**
 * The session as a header names it: its first 8 characters when the run's file name already shows
 * it whole (a real session id is a 36-character UUID); else cut at ID_WIDTH.
 */
export function headerSession(session: string, file: string): string {
  return session.length > 8 && basename(file).includes(session) ? sanitize(session.slice(0, 8)) : clip(session, ID_WIDTH);
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
