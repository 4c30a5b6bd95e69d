/**
 * What a watch has already seen, and so what is new in an analysis made again (unitFollower.ts).
 *
 * A finding's identity across analyses is where it is — its file's lineage (fileLineage.ts), line,
 * call, tool, detector, level, count, and whether it came from a log — never its run's name: names
 * arrive late (an OpenClaw bootstrap entry is written after the run's final reply, a trajectory
 * sidecar's run ids when the sidecar appears), so the same finding is first `<sid>#2`, then
 * `run-8f…`. Such a finding is not new: its run was *named*, which is told once per run and file
 * (`RunNamed`), never as a second copy of the finding. The same goes for a run's agent and session,
 * which a Gateway log may tell only on a later line of the run (liveRuns.ts settles them per run). Two findings equal in all of that (there is
 * no such case in replay, but a hand-made log could hold one) are told apart by their rank among
 * the equal ones.
 *
 * "Where" is the line, except in files whose records are written again further down as they change
 * (Gemini CLI appends a whole message again each time its tool calls update, and the last copy is
 * the one replayed): there a call's line moves while the call stays the same, so its place is its
 * run's rank in the file and its call number (`placeOf`), and the line printed is the one it had
 * when it was first made.
 *
 * Findings an analysis no longer makes stand: a file truncated or rewritten is a new generation of
 * its lineage (its content is new), and what was printed for the old one was true when printed.
 */
import type { Diagnostic, Finding } from "../../core/findings.js";

/** A run whose findings of `file` were shown under one name (or agent, or session), now named otherwise. */
export interface RunNamed {
  readonly from: string;
  readonly to: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
}

/** What names a finding's run, as it was shown. */
interface RunIdentity {
  readonly run: string | null;
  readonly agent: string | null;
  readonly session: string | null;
}

/**
 * A shown finding outside any run (a Gateway log line logged while no run was open) whose agent or
 * session (or run) became known later (an echo line merged into it carries them): told by where it is.
 */
export interface FindingRevised {
  readonly file: string;
  readonly line: number;
  readonly detector: string;
  readonly level: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly session: string | null;
}

/** What an analysis holds that the ledger had not seen. */
export interface LedgerNews<F extends Finding = Finding> {
  readonly findings: F[];
  readonly named: RunNamed[];
  readonly revised: FindingRevised[];
}

/** A token's findings: the run each was last seen under (an index into `runs`), and whether it was shown. */
interface TokenEntries {
  readonly runs: RunIdentity[];
  readonly runIndex: Map<string, number>;
  /** Key → run index × 2 + (shown ? 1 : 0). */
  readonly keys: Map<string, number>;
  shown: boolean;
}

/** A tool name is input: a huge one costs its first characters in a key, not its length. */
const TOOL_KEY_CHARS = 256;

/** Where a finding is in its file: its line, unless the file's records move (see above). */
export type PlaceOf = (finding: Finding) => string;

const byLine: PlaceOf = (finding) => String(finding.line);

function findingKey(finding: Finding, placeOf: PlaceOf): string {
  const tool = finding.tool.length > TOOL_KEY_CHARS ? finding.tool.slice(0, TOOL_KEY_CHARS) : finding.tool;
  return `${placeOf(finding)}\u0000${finding.call ?? ""}\u0000${finding.detector}\u0000${finding.level}\u0000${finding.count}\u0000${finding.source ?? ""}\u0000${tool}`;
}

export class FindingLedger {
  private readonly tokens = new Map<string, TokenEntries>();
  private readonly diagnostics = new Set<string>();
  private seenFindings = 0;

  /** Findings the ledger holds (seen, shown or not). */
  get findings(): number {
    return this.seenFindings;
  }

  /** Whether findings of this token were ever shown (a rename of its file is then worth telling). */
  shownUnder(token: string): boolean {
    return this.tokens.get(token)?.shown === true;
  }

  /**
   * Takes an analysis's findings (of any number of files; `tokenOf` gives each file's lineage) and
   * returns those not seen before, and the runs of shown findings that changed names. `show`: the
   * new ones are shown (printed), not only recorded (a watch's silent replay of existing content).
   */
  settle<F extends Finding>(findings: Iterable<F>, tokenOf: (file: string) => string, show: boolean, placeOf: PlaceOf = byLine): LedgerNews<F> {
    const fresh: F[] = [];
    const named = new Map<string, RunNamed>();
    const revised: FindingRevised[] = [];
    const ranks = new Map<string, number>();
    for (const finding of findings) {
      const token = tokenOf(finding.file);
      const entries = this.entriesOf(token);
      const where = findingKey(finding, placeOf);
      const base = `${token}\u0001${where}`;
      const rank = ranks.get(base) ?? 0;
      ranks.set(base, rank + 1);
      const key = rank === 0 ? where : `${where}\u0000#${rank}`;
      const run = indexOfRun(entries, finding);
      const known = entries.keys.get(key);
      if (known === undefined) {
        entries.keys.set(key, run * 2 + (show ? 1 : 0));
        if (show) entries.shown = true;
        this.seenFindings++;
        fresh.push(finding);
        continue;
      }
      const before = known >> 1;
      if (before === run) continue;
      entries.keys.set(key, run * 2 + (known & 1));
      const from = entries.runs[before]!.run;
      // Only a shown finding's reader needs to know its run's new name. A finding outside any run
      // has no run to name: it is told apart by where it is.
      if ((known & 1) === 1 && (from === null || finding.run === null)) {
        const { file, line, detector, level, run, agent, session } = finding;
        revised.push({ file, line, detector, level, run, agent, session });
      } else if ((known & 1) === 1 && from !== null && finding.run !== null) {
        const told = `${token}\u0000${before}\u0000${run}`;
        if (!named.has(told)) named.set(told, { from, to: finding.run, agent: finding.agent, session: finding.session, file: finding.file });
      }
    }
    return { findings: fresh, named: [...named.values()], revised };
  }

  /**
   * Diagnostics not seen before. The numbers in a reason are left out of its identity: a unit's
   * summary notes ("3 entries of this session held by more than one of its files") count what the
   * analysis saw, and an analysis made again as the file grows would say it again with a new number.
   */
  newDiagnostics(diagnostics: readonly Diagnostic[], tokenOf: (file: string) => string): Diagnostic[] {
    const fresh: Diagnostic[] = [];
    for (const diagnostic of diagnostics) {
      const key = `${tokenOf(diagnostic.file)}\u0000${diagnostic.line}\u0000${diagnostic.reason.replace(/\d+/g, "#")}`;
      if (this.diagnostics.has(key)) continue;
      this.diagnostics.add(key);
      fresh.push(diagnostic);
    }
    return fresh;
  }

  private entriesOf(token: string): TokenEntries {
    let entries = this.tokens.get(token);
    if (!entries) {
      entries = { runs: [], runIndex: new Map(), keys: new Map(), shown: false };
      this.tokens.set(token, entries);
    }
    return entries;
  }
}

function indexOfRun(entries: TokenEntries, { run, agent, session }: RunIdentity): number {
  const key = JSON.stringify([run, agent, session]);
  let index = entries.runIndex.get(key);
  if (index === undefined) {
    index = entries.runs.length;
    entries.runs.push({ run, agent, session });
    entries.runIndex.set(key, index);
  }
  return index;
}
