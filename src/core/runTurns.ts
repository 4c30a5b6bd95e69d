/**
 * A run's model turns as replay meets them (cost.md): which calls each turn made, fed to the run's
 * cost tally (runCost.ts) once the turn is over, with the findings and the first stop as they come.
 *
 * What the events say (events.ts):
 * - a call carrying `turn: K` was made by turn K, which stays open until its `turn` event (a format
 *   may know a response's usage only after other responses' calls: Claude Code's streamed lines);
 * - a `turn` event K ends turn K with its usage. When no call carried K, the turn made the calls
 *   that carry no key since the previous `turn` event (a format that writes a response's calls and
 *   then its usage: Codex's token_count, an OpenClaw message once its calls are replayed), none for
 *   a final answer. Turns end in the order of their `turn` events;
 * - a call's own `usage` (canonical events) is its turn's when the turn event brings none; such a
 *   turn ends at the next event of another turn (calls of one turn come together there); a call
 *   with usage and no `turn` is a turn of its own (and ends what a later turn event could claim).
 * Turns still open when the run is handed out end then (canonical events may name turns without
 * ever ending them); more than `OPEN_TURNS` open at once end oldest first, so memory stays bounded.
 * Every call is in at most one turn, each turn is fed once, and nothing is guessed: a turn that
 * recorded no usage is a turn without usage.
 */
import { costPatternKey, RunCostTally, type RunCost } from "./runCost.js";
import type { DetectorName } from "./detectors.js";
import type { Usage } from "./usage.js";

/** Turns, in order, as a picture of the run draws them: calls made when each ended, and its tokens. */
export interface TurnMarks {
  readonly after: number[];
  /** The turn's recorded `total`; -1 when it recorded none. */
  readonly tokens: number[];
}

/** Turns named by calls and not ended yet, held at most (responses interleave two or three deep). */
const OPEN_TURNS = 64;

interface OpenTurn {
  readonly calls: number[];
  usage: Usage | undefined;
  /** Its usage came with its calls (canonical events): it ends where its calls stop coming. */
  fromCalls: boolean;
}

export class RunTurns {
  private readonly tally = new RunCostTally();
  /** Turns named by a call and not ended yet, oldest first (made at the first such call: most formats name none). */
  private open: Map<string, OpenTurn> | undefined;
  /** The run's calls when the last turn ended: later calls without a key are the next turn's to claim. */
  private claimedUpTo = 0;
  /** The key of the last call that carried one. */
  private lastKey: string | undefined;
  /** Its open turn while it is open: the calls of one response come together, so most skip the map. */
  private lastTurn: OpenTurn | undefined;

  /**
   * `run.answeredUpTo`: the run's calls 1…answeredUpTo were answered, kept by replay as outcomes come
   * (one comparison each); the tally reads it when a turn is fed, and is told of an answer itself
   * only when it is out of order or a turn waits for it (`waiting`).
   */
  constructor(
    private readonly marks?: TurnMarks,
    private readonly run: { readonly answeredUpTo: number } = { answeredUpTo: 0 },
  ) {}

  /** Call `ordinal` was made by turn `key` (`undefined`: a turn of its own when it has `usage`). */
  call(ordinal: number, key: string | undefined, usage: Usage | undefined): void {
    if (key === undefined) {
      if (usage === undefined) return;
      this.claimedUpTo = ordinal;
      return this.feed(usage, [ordinal], ordinal);
    }
    let turn = key === this.lastKey ? this.lastTurn : undefined;
    if (turn === undefined) turn = this.openTurn(key, ordinal);
    turn.calls.push(ordinal);
    if (turn.usage === undefined && usage !== undefined) {
      turn.usage = usage;
      turn.fromCalls = true;
    }
  }

  /** The open turn `key` (made if it is not), now the last call's; call `ordinal` is about to join it. */
  private openTurn(key: string, ordinal: number): OpenTurn {
    this.endCallTurn(key, ordinal - 1);
    const open = (this.open ??= new Map());
    let turn = open.get(key);
    if (turn === undefined) {
      open.set(key, (turn = { calls: [], usage: undefined, fromCalls: false }));
      if (open.size > OPEN_TURNS) this.end(open.keys().next().value!, undefined, ordinal - 1);
    }
    this.lastKey = key;
    this.lastTurn = turn;
    return turn;
  }

  /** Turn `key` is over; `callsSoFar`: the run's calls when it ended. */
  turn(key: string, usage: Usage | undefined, callsSoFar: number): void {
    this.endCallTurn(key, callsSoFar);
    this.end(key, usage, callsSoFar);
  }

  /**
   * Canonical events name a turn on its calls and end it with nothing: a turn whose usage its calls
   * carried ends at the first event of another turn, so that turns are summed in their order.
   */
  private endCallTurn(key: string, callsSoFar: number): void {
    const last = this.lastKey;
    if (last === undefined || last === key) return;
    this.lastKey = undefined;
    this.lastTurn = undefined;
    if (this.open?.get(last)?.fromCalls === true) this.end(last, undefined, callsSoFar);
  }

  finding(call: number, finding: { readonly detector: DetectorName; readonly tool: string; readonly argsHash: string }): void {
    this.tally.finding(call, costPatternKey(finding));
  }

  stop(call: number): void {
    this.tally.stop(call);
  }

  /** Whether an answer must be told (`answered`): a turn waits for its calls' answers, or one came out of order. */
  get waiting(): boolean {
    return this.tally.waiting;
  }

  /** Call `call` was answered; `inOrder`: calls 1…inOrder were. Returns how many are answered in order now. */
  answered(call: number, inOrder = this.run.answeredUpTo): number {
    this.tally.answeredBefore(inOrder);
    this.tally.answered(call);
    return this.tally.answeredInOrder;
  }

  /** The run is handed out: its figures, the turns still open ended first (in the order they opened). */
  finish(callsSoFar: number): RunCost {
    const open = this.open;
    this.open = undefined;
    this.lastTurn = undefined;
    for (const turn of open?.values() ?? []) this.feed(turn.usage, turn.calls, callsSoFar);
    return this.tally.finish();
  }

  private end(key: string, usage: Usage | undefined, callsSoFar: number): void {
    const open = this.open;
    if (open === undefined || open.size === 0) {
      // No turn holds a call (most formats name none): the turn made every call since the last one.
      const first = this.claimedUpTo + 1;
      this.claimedUpTo = Math.max(this.claimedUpTo, callsSoFar);
      this.tally.answeredBefore(this.run.answeredUpTo);
      this.tally.turnOfSpan(usage, first, callsSoFar);
      return this.mark(usage, callsSoFar);
    }
    const turn = open.get(key);
    if (turn !== undefined) open.delete(key);
    if (turn === this.lastTurn) this.lastTurn = undefined;
    const calls = turn?.calls ?? this.unclaimed(callsSoFar);
    this.claimedUpTo = Math.max(this.claimedUpTo, callsSoFar);
    this.feed(usage ?? turn?.usage, calls, callsSoFar);
  }

  /** Calls since the last turn ended that no open turn holds (the ones made with no key). */
  private unclaimed(callsSoFar: number): number[] {
    const calls: number[] = [];
    if (callsSoFar <= this.claimedUpTo) return calls;
    const keyed = this.open === undefined || this.open.size === 0 ? undefined : new Set([...this.open.values()].flatMap((turn) => turn.calls));
    for (let call = this.claimedUpTo + 1; call <= callsSoFar; call++) if (keyed?.has(call) !== true) calls.push(call);
    return calls;
  }

  private feed(usage: Usage | undefined, calls: readonly number[], callsSoFar: number): void {
    this.tally.answeredBefore(this.run.answeredUpTo);
    this.tally.turn(usage, calls);
    this.mark(usage, callsSoFar);
  }

  /** The turn fed last, on the run's timeline when it has one. */
  private mark(usage: Usage | undefined, callsSoFar: number): void {
    if (this.marks === undefined) return;
    this.marks.after.push(callsSoFar);
    this.marks.tokens.push(usage?.total ?? -1);
  }
}
