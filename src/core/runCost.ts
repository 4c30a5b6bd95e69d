/**
 * What a run cost (spec: cost.md §2), from its turns, its findings and its first stop:
 * - `spent`: every turn of the run;
 * - `onFlagged`: the turns any of whose calls has a finding (every finding is a warning or worse, so
 *   its level does not matter here);
 * - `afterStop`: the turns AFTER the turn that made the first stop's call (the call the runtime would
 *   have refused, or the one whose result made the guard abort) — never that turn itself, which the
 *   run would have spent anyway. For an abort it is what the guard would have saved; for a block
 *   what the run went on to spend (a refused call does not end a run), hence "after the first stop".
 * And per pattern (the loop a collapsed table row shows, `costPatternKey`): `onFlagged`, the turns
 * with a finding of that pattern, and `afterStop`, those of them after the run's first stop. A
 * pattern has no "spent" of its own: replay knows a pattern's calls only through its findings, so
 * everything a pattern is known to have cost is on flagged calls. A turn is counted once however
 * many of its calls were flagged, once per pattern it holds a finding of, and once in the run's
 * `onFlagged` even when several patterns flag it (so pattern figures do not add up to the run's).
 *
 * `runCost` takes a whole run; `RunCostTally` is the same accounting fed as replay goes, with memory
 * bounded by what is still open, never by the run's length (a run can make 200,000 calls).
 *
 * Feeding contract of the tally:
 * - `turn(usage, calls)` in turn order, each turn complete: its usage (`undefined`: none recorded)
 *   and the ordinals of the calls it made (none for a final answer). A call belongs to one turn.
 * - `finding(call, pattern)` and `stop(call)` at any time, before or after the turn that made the
 *   call is fed (Codex records a response's usage after its calls; an abort comes with a result).
 *   Only the first `stop` counts (replay's `firstStop`).
 * - `answered(call)`, optional, once per call: no finding or stop can come for the call any more
 *   (after its result was replayed, abort included). A turn whose calls are all answered is settled at once; without
 *   it, turns settle only when more than `openTurns` are open, or at `finish()`.
 * A turn is settled (added to `onFlagged`, `afterStop` and its patterns) in turn order, when all
 * turns before it are: so each sum adds its turns in turn order, exactly as `addUsage` folded over
 * them would (money is a float; see usage.ts). A finding or stop whose call was settled already, or
 * that no turn ever made, cannot be placed: `unplaced` counts them, so that a caller can tell.
 */
import { UsageTotals, type Usage, type UsageSum } from "./usage.js";
import type { DetectorName } from "./detectors.js";

/** A turn as `runCost` takes it. */
export interface CostTurn {
  readonly usage: Usage | undefined;
  /** Ordinals (1-based, within the run) of the calls the turn made. */
  readonly calls: readonly number[];
}

/** A finding as the accounting needs it: the call it flags and the pattern (row) it belongs to. */
export interface CostFinding {
  readonly call: number;
  readonly pattern: string;
}

export interface PatternCost {
  readonly pattern: string;
  readonly onFlagged: UsageSum;
  readonly afterStop: UsageSum;
}

export interface RunCost {
  readonly spent: UsageSum;
  readonly onFlagged: UsageSum;
  readonly afterStop: UsageSum;
  /** In order of each pattern's first finding. */
  readonly patterns: readonly PatternCost[];
  /** Findings (one per call and pattern) and stops that could not be placed in a turn (see the contract above). */
  readonly unplaced: number;
}

/**
 * The pattern a finding belongs to, as the table collapses rows (reporters/findingGroups.ts):
 * detector, tool and arguments — a ping-pong alternates between two patterns that are one loop, so
 * by its detector alone. JSON, not a separator join: tool names may hold any character.
 */
export function costPatternKey(finding: { readonly detector: DetectorName; readonly tool: string; readonly argsHash: string }): string {
  return JSON.stringify(finding.detector === "ping_pong" ? [finding.detector] : [finding.detector, finding.tool, finding.argsHash]);
}

/** The accounting of one whole run (the tally, fed everything, then finished). */
export function runCost(turns: Iterable<CostTurn>, findings: Iterable<CostFinding>, firstStopCall: number | null): RunCost {
  // Everything is held until the end: the whole run is in memory anyway, and no note may be dropped.
  const tally = new RunCostTally(Infinity, Infinity);
  for (const finding of findings) tally.finding(finding.call, finding.pattern);
  if (firstStopCall !== null) tally.stop(firstStopCall);
  for (const turn of turns) tally.turn(turn.usage, turn.calls);
  return tally.finish();
}

/** A fed turn not settled yet. */
interface OpenTurn {
  readonly seq: number;
  readonly usage: Usage | undefined;
  readonly calls: readonly number[];
  /** Calls not answered yet. */
  unanswered: number;
  /** Patterns with a finding on one of its calls (a few at most). */
  patterns: string[] | undefined;
}

/** What came for a call that no open turn made (yet): kept until its turn is fed. */
interface CallNote {
  patterns: string[] | undefined;
  answered: boolean;
}

/** Open turns held before the oldest is settled whatever comes: a result is rarely turns late. */
const OPEN_TURNS = 64;
/** Notes for calls no turn made yet held at most (the oldest are dropped, and counted unplaced). */
const EARLY_CALLS = 4096;

export class PatternTotals {
  readonly onFlagged = new UsageTotals();
  readonly afterStop = new UsageTotals();
}

export class RunCostTally {
  private readonly spent = new UsageTotals();
  private readonly onFlagged = new UsageTotals();
  private readonly afterStop = new UsageTotals();
  private readonly patterns = new Map<string, PatternTotals>();
  /** Open turns, oldest first, from `head` on (settled ones before it are cleared). */
  private open: Array<OpenTurn | undefined> = [];
  private head = 0;
  private readonly turnOfCall = new Map<number, OpenTurn>();
  private readonly early = new Map<number, CallNote>();
  private fed = 0;
  private stopCall: number | undefined;
  /** The seq of the turn that made the stop's call, once it is known. */
  private stopSeq: number | undefined;
  private unplaced = 0;
  /**
   * The highest call ordinal of a settled turn: an answer for an unknown call below it is taken for
   * one of a settled turn (at worst, an interleaved call's turn fed later then waits for the limit).
   */
  private settledCalls = 0;

  constructor(
    private readonly openTurns = OPEN_TURNS,
    private readonly earlyCalls = EARLY_CALLS,
  ) {}

  /** Turns open and notes of calls no turn made yet: what the tally holds (its patterns aside). */
  get held(): number {
    return this.open.length - this.head + this.early.size;
  }

  turn(usage: Usage | undefined, calls: readonly number[]): void {
    const turn: OpenTurn = { seq: this.fed++, usage, calls, unanswered: 0, patterns: undefined };
    this.spent.add(usage);
    for (const call of calls) {
      this.turnOfCall.set(call, turn);
      if (call === this.stopCall && this.stopSeq === undefined) this.stopSeq = turn.seq;
      const note = this.early.get(call);
      if (note === undefined) {
        turn.unanswered++;
        continue;
      }
      this.early.delete(call);
      for (const pattern of note.patterns ?? []) flag(turn, pattern);
      if (!note.answered) turn.unanswered++;
    }
    this.open.push(turn);
    this.settleReady();
  }

  finding(call: number, pattern: string): void {
    if (!this.patterns.has(pattern)) this.patterns.set(pattern, new PatternTotals());
    const turn = this.turnOfCall.get(call);
    if (turn !== undefined) return flag(turn, pattern);
    const note = this.noteFor(call);
    if (!(note.patterns ??= []).includes(pattern)) note.patterns.push(pattern);
  }

  stop(call: number): void {
    if (this.stopCall !== undefined) return;
    this.stopCall = call;
    const turn = this.turnOfCall.get(call);
    // Not made by an open turn: by one fed later (or by one already settled: unplaced at the end).
    if (turn !== undefined) this.stopSeq = turn.seq;
  }

  answered(call: number): void {
    const turn = this.turnOfCall.get(call);
    // A call of no fed turn (most formats write a response's usage after its calls and results) is
    // not noted: its turn, fed later, waits as unanswered until `openTurns` more are open or the
    // end, which changes when it settles, never what it adds; a note per call cost a tenth of
    // reading usage (bench --usage).
    if (turn === undefined) return;
    turn.unanswered--;
    this.settleReady();
  }

  /** Settles every open turn and returns the run's figures; the tally is spent. */
  finish(): RunCost {
    while (this.head < this.open.length) this.settleFront();
    for (const note of this.early.values()) this.unplaced += note.patterns?.length ?? 0;
    this.early.clear();
    if (this.stopCall !== undefined && this.stopSeq === undefined) this.unplaced++;
    return {
      spent: this.spent.sum(),
      onFlagged: this.onFlagged.sum(),
      afterStop: this.afterStop.sum(),
      patterns: [...this.patterns].map(([pattern, totals]) => ({ pattern, onFlagged: totals.onFlagged.sum(), afterStop: totals.afterStop.sum() })),
      unplaced: this.unplaced,
    };
  }

  private noteFor(call: number): CallNote {
    let note = this.early.get(call);
    if (note !== undefined) return note;
    note = { patterns: undefined, answered: false };
    this.early.set(call, note);
    if (this.early.size > this.earlyCalls) {
      // The oldest note's call was most likely settled already (a finding that came too late).
      const [oldCall, oldNote] = this.early.entries().next().value!;
      this.early.delete(oldCall);
      this.unplaced += oldNote.patterns?.length ?? 0;
    }
    return note;
  }

  private settleReady(): void {
    while (this.head < this.open.length && (this.open[this.head]!.unanswered <= 0 || this.open.length - this.head > this.openTurns)) {
      this.settleFront();
    }
    // Drop the settled prefix now and then, so the queue does not grow with the run.
    if (this.head > 32 && this.head * 2 > this.open.length) {
      this.open = this.open.slice(this.head);
      this.head = 0;
    }
  }

  private settleFront(): void {
    const turn = this.open[this.head]!;
    this.open[this.head++] = undefined;
    for (const call of turn.calls) {
      if (this.turnOfCall.get(call) === turn) this.turnOfCall.delete(call);
      if (call > this.settledCalls) this.settledCalls = call;
    }
    const after = this.stopSeq !== undefined && turn.seq > this.stopSeq;
    if (after) this.afterStop.add(turn.usage);
    if (turn.patterns === undefined) return;
    this.onFlagged.add(turn.usage);
    for (const pattern of turn.patterns) {
      const totals = this.patterns.get(pattern)!;
      totals.onFlagged.add(turn.usage);
      if (after) totals.afterStop.add(turn.usage);
    }
  }
}

function flag(turn: OpenTurn, pattern: string): void {
  if (!(turn.patterns ??= []).includes(pattern)) turn.patterns.push(pattern);
}
