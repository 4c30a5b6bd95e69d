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
 * - `answered(call)`, optional, once per call, before or after its turn is fed: no finding or stop
 *   can come for the call any more (after its result was replayed, abort included). A turn whose
 *   calls are all answered is settled at once; without it, turns settle only when more than
 *   `openTurns` are open, or at `finish()`. `answeredBefore(n)`: calls 1…n were answered before the
 *   tally was made.
 * A turn is settled (added to `onFlagged`, `afterStop` and its patterns) in turn order, when all
 * turns before it are: so each sum adds its turns in turn order, exactly as `addUsage` folded over
 * them would (money is a float; see usage.ts). A finding or stop whose call was settled already, or
 * that no turn ever made, cannot be placed: `unplaced` counts them, so that a caller can tell.
 */
import { EMPTY_SUM, UsageTotals, type Usage, type UsageSum } from "./usage.js";
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

/** Open turns held before the oldest is settled whatever comes: a result is rarely turns late. */
const OPEN_TURNS = 64;
/** Notes for calls no turn made yet held at most (the oldest are dropped, and counted unplaced). */
const EARLY_CALLS = 4096;

/** The open turns of every tally that never held one (never written to). */
export const NO_OPEN: Array<OpenTurn | undefined> = [];

export class PatternTotals {
  readonly onFlagged = new UsageTotals();
  readonly afterStop = new UsageTotals();
}

/**
 * Most turns are fed after their calls were answered (a response's usage is written after its
 * calls, or the turn ends at the next response, after the results): such a turn, with none open
 * before it, is settled as it is fed, with no object, map entry or note for it. The maps are made
 * only for the runs that need them: a tally is made for each of thousands of short runs.
 */
export class RunCostTally {
  private readonly spent = new UsageTotals();
  /** Made at the first turn they add (most runs have no finding and no stop). */
  private onFlagged: UsageTotals | undefined;
  private afterStop: UsageTotals | undefined;
  private patterns: Map<string, PatternTotals> | undefined;
  /** Open turns, oldest first, from `head` on (settled ones before it are cleared); `NO_OPEN` until one is held. */
  private open: Array<OpenTurn | undefined> = NO_OPEN;
  private head = 0;
  private turnOfCall: Map<number, OpenTurn> | undefined;
  /** Patterns found on calls no open turn made (yet): kept until their turn is fed. */
  private early: Map<number, string[]> | undefined;
  private fed = 0;
  private stopCall: number | undefined;
  /** The seq of the turn that made the stop's call, once it is known. */
  private stopSeq: number | undefined;
  private unplaced = 0;
  /** Calls 1…answeredUpTo were all answered (calls are mostly answered in order). */
  private answeredUpTo = 0;
  /** Calls answered above `answeredUpTo`, past one not answered yet (bounded: a forgotten one only delays a settling). */
  private answeredAbove: Set<number> | undefined;

  constructor(
    private readonly openTurns = OPEN_TURNS,
    private readonly earlyCalls = EARLY_CALLS,
  ) {}

  /** Turns open and notes of calls no turn made yet: what the tally holds (its patterns aside). */
  get held(): number {
    return this.open.length - this.head + (this.early?.size ?? 0) + (this.answeredAbove?.size ?? 0);
  }

  /** Calls 1…`calls` were answered, whether told one by one or not (replay counts in-order answers itself). */
  answeredBefore(calls: number): void {
    if (calls <= this.answeredUpTo) return;
    this.answeredUpTo = calls;
    this.drainAbove();
  }

  /** Calls 1…answeredInOrder are answered. */
  get answeredInOrder(): number {
    return this.answeredUpTo;
  }

  /** A turn is held for its calls' answers, or answers came out of order: each answer must be told. */
  get waiting(): boolean {
    return this.head < this.open.length || (this.answeredAbove !== undefined && this.answeredAbove.size > 0);
  }

  turn(usage: Usage | undefined, calls: readonly number[]): void {
    const seq = this.fed++;
    this.spent.add(usage);
    let unanswered = 0;
    let patterns: string[] | undefined;
    // Indexed: a `for…of` walks an iterator, which costs until the optimising compiler takes the loop.
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (call === this.stopCall && this.stopSeq === undefined) this.stopSeq = seq;
      if (!this.isAnswered(call)) unanswered++;
      const noted = this.early?.get(call);
      if (noted === undefined) continue;
      this.early!.delete(call);
      for (const pattern of noted) if (!(patterns ??= []).includes(pattern)) patterns.push(pattern);
    }
    if (unanswered === 0 && this.head === this.open.length) return this.settle(seq, usage, patterns);
    const turn: OpenTurn = { seq, usage, calls, unanswered, patterns };
    const turnOfCall = (this.turnOfCall ??= new Map());
    for (const call of calls) turnOfCall.set(call, turn);
    if (this.open === NO_OPEN) this.open = [];
    this.open.push(turn);
    this.settleReady();
  }

  /**
   * `turn` with the calls `first`…`last` (none when `last` < `first`): settled as it is fed, with no
   * array for its calls, when nothing waits before it, no note waits for its calls and they were all
   * answered in order (most turns: replay counts in-order answers); else as `turn`.
   */
  turnOfSpan(usage: Usage | undefined, first: number, last: number): void {
    const settles = this.head === this.open.length && (this.early === undefined || this.early.size === 0) && (last < first || last <= this.answeredUpTo);
    if (!settles) return this.turn(usage, callSpan(first, last));
    const seq = this.fed++;
    this.spent.add(usage);
    const stop = this.stopCall;
    if (stop !== undefined && this.stopSeq === undefined && stop >= first && stop <= last) this.stopSeq = seq;
    this.settle(seq, usage, undefined);
  }

  finding(call: number, pattern: string): void {
    const patterns = (this.patterns ??= new Map());
    if (!patterns.has(pattern)) patterns.set(pattern, new PatternTotals());
    const turn = this.turnOfCall?.get(call);
    if (turn !== undefined) return flag(turn, pattern);
    const noted = this.noteFor(call);
    if (!noted.includes(pattern)) noted.push(pattern);
  }

  stop(call: number): void {
    if (this.stopCall !== undefined) return;
    this.stopCall = call;
    const turn = this.turnOfCall?.get(call);
    // Not made by an open turn: by one fed later (or by one already settled: unplaced at the end).
    if (turn !== undefined) this.stopSeq = turn.seq;
  }

  answered(call: number): void {
    this.noteAnswered(call);
    const turn = this.turnOfCall?.get(call);
    if (turn === undefined) return;
    turn.unanswered--;
    this.settleReady();
  }

  /** Settles every open turn and returns the run's figures; the tally is spent. */
  finish(): RunCost {
    while (this.head < this.open.length) this.settleFront();
    for (const noted of this.early?.values() ?? []) this.unplaced += noted.length;
    this.early = undefined;
    if (this.stopCall !== undefined && this.stopSeq === undefined) this.unplaced++;
    return {
      spent: this.spent.sum(),
      onFlagged: this.onFlagged?.sum() ?? EMPTY_SUM,
      afterStop: this.afterStop?.sum() ?? EMPTY_SUM,
      patterns: this.patterns === undefined ? [] : [...this.patterns].map(([pattern, totals]) => ({ pattern, onFlagged: totals.onFlagged.sum(), afterStop: totals.afterStop.sum() })),
      unplaced: this.unplaced,
    };
  }

  private isAnswered(call: number): boolean {
    return call <= this.answeredUpTo || this.answeredAbove?.has(call) === true;
  }

  private noteAnswered(call: number): void {
    if (call !== this.answeredUpTo + 1) {
      if (call <= this.answeredUpTo) return;
      const above = (this.answeredAbove ??= new Set());
      above.add(call);
      // Past the bound the oldest is forgotten: its turn, if fed later, waits for the limit instead.
      if (above.size > this.earlyCalls) above.delete(above.values().next().value!);
      return;
    }
    this.answeredUpTo = call;
    this.drainAbove();
  }

  /** Moves `answeredUpTo` over the calls answered above it, dropping the notes it passes. */
  private drainAbove(): void {
    const above = this.answeredAbove;
    if (above === undefined || above.size === 0) return;
    for (const call of above) if (call <= this.answeredUpTo) above.delete(call);
    while (above.delete(this.answeredUpTo + 1)) this.answeredUpTo++;
  }

  private noteFor(call: number): string[] {
    const early = (this.early ??= new Map());
    let noted = early.get(call);
    if (noted !== undefined) return noted;
    noted = [];
    early.set(call, noted);
    if (early.size > this.earlyCalls) {
      // The oldest note's call was most likely settled already (a finding that came too late).
      const [oldCall, oldNoted] = early.entries().next().value!;
      early.delete(oldCall);
      this.unplaced += oldNoted.length;
    }
    return noted;
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
    for (const call of turn.calls) if (this.turnOfCall!.get(call) === turn) this.turnOfCall!.delete(call);
    this.settle(turn.seq, turn.usage, turn.patterns);
  }

  /** Adds a turn, all turns before it settled, to the sums it belongs to. */
  private settle(seq: number, usage: Usage | undefined, patterns: readonly string[] | undefined): void {
    const after = this.stopSeq !== undefined && seq > this.stopSeq;
    if (after) (this.afterStop ??= new UsageTotals()).add(usage);
    if (patterns === undefined) return;
    (this.onFlagged ??= new UsageTotals()).add(usage);
    for (const pattern of patterns) {
      const totals = this.patterns!.get(pattern)!;
      totals.onFlagged.add(usage);
      if (after) totals.afterStop.add(usage);
    }
  }
}

/** The calls `first`…`last`, in order. */
function callSpan(first: number, last: number): number[] {
  const calls: number[] = [];
  for (let call = first; call <= last; call++) calls.push(call);
  return calls;
}

function flag(turn: OpenTurn, pattern: string): void {
  if (!(turn.patterns ??= []).includes(pattern)) turn.patterns.push(pattern);
}
