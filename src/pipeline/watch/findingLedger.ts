/**
 * What a watch has already seen, and so what is new in an analysis made again (unitFollower.ts).
 *
 * A finding's identity across analyses is where it is — its file's lineage (fileLineage.ts), line,
 * call, tool, detector, level, count, and whether it came from a log — never its run's name: names
 * arrive late (an OpenClaw bootstrap entry is written after the run's final reply, a trajectory
 * sidecar's run ids when the sidecar appears), so the same finding is first `<sid>#2`, then
 * `run-8f…`. Such a finding is not new: its run was *named*, which is told once per run
 * (`RunNamed`), never as a second copy of the finding. Two findings equal in all of that (there is
 * no such case in replay, but a hand-made log could hold one) are told apart by their rank among
 * the equal ones.
 *
 * Findings an analysis no longer makes stand: a file truncated or rewritten is a new generation of
 * its lineage (its content is new), and what was printed for the old one was true when printed.
 */
import type { Diagnostic, Finding } from "../../core/findings.js";

/** A run whose findings were shown under one name, now named otherwise. */
export interface RunNamed {
  readonly from: string;
  readonly to: string;
  readonly session: string | null;
  readonly file: string;
}

/** What an analysis holds that the ledger had not seen. */
export interface LedgerNews<F extends Finding = Finding> {
  readonly findings: F[];
  readonly named: RunNamed[];
}

/** A token's findings: the run each was last seen under (an index into `runs`), and whether it was shown. */
interface TokenEntries {
  readonly runs: Array<string | null>;
  readonly runIndex: Map<string | null, number>;
  /** Key → run index × 2 + (shown ? 1 : 0). */
  readonly keys: Map<string, number>;
  shown: boolean;
}

/** A tool name is input: a huge one costs its first characters in a key, not its length. */
const TOOL_KEY_CHARS = 256;

function findingKey(finding: Finding): string {
  const tool = finding.tool.length > TOOL_KEY_CHARS ? finding.tool.slice(0, TOOL_KEY_CHARS) : finding.tool;
  return `${finding.line}\u0000${finding.call ?? ""}\u0000${finding.detector}\u0000${finding.level}\u0000${finding.count}\u0000${finding.source ?? ""}\u0000${tool}`;
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
  settle<F extends Finding>(findings: Iterable<F>, tokenOf: (file: string) => string, show: boolean): LedgerNews<F> {
    const fresh: F[] = [];
    const named = new Map<string, RunNamed>();
    const ranks = new Map<string, number>();
    for (const finding of findings) {
      const token = tokenOf(finding.file);
      const entries = this.entriesOf(token);
      const base = `${token}\u0001${findingKey(finding)}`;
      const rank = ranks.get(base) ?? 0;
      ranks.set(base, rank + 1);
      const key = rank === 0 ? findingKey(finding) : `${findingKey(finding)}\u0000#${rank}`;
      const run = indexOfRun(entries, finding.run);
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
      const from = entries.runs[before]!;
      // Only a shown finding's reader needs to know its run's new name; a null run (a log line
      // outside any run) never had a name to change.
      if ((known & 1) === 1 && from !== null && finding.run !== null) {
        const told = `${token}\u0000${from}\u0000${finding.run}`;
        if (!named.has(told)) named.set(told, { from, to: finding.run, session: finding.session, file: finding.file });
      }
    }
    return { findings: fresh, named: [...named.values()] };
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

function indexOfRun(entries: TokenEntries, run: string | null): number {
  let index = entries.runIndex.get(run);
  if (index === undefined) {
    index = entries.runs.length;
    entries.runs.push(run);
    entries.runIndex.set(run, index);
  }
  return index;
}
