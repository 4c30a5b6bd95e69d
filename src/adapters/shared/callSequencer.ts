/**
 * Replays the tool calls of one assistant message the way the runtime executed them: one after
 * another, each checked just before it runs, so each call is followed by its own result before the
 * next call is shown (inputs.md §2). A transcript writes all the calls first and the results after,
 * possibly out of order; this holds back the calls not yet due and the results that came early.
 *
 * Only the group in progress is buffered: a later call waits for the result of the one before it,
 * and the group is flushed (every call shown, each with its early result if any) as soon as the
 * transcript moves on (next assistant message, user message, compaction, end of file). A call that
 * never gets a result stays pending. Which call a result answers is callPairing.ts's rule: this only
 * orders.
 */
import { answers } from "./callPairing.js";
import type { CallFacts, ResultFacts } from "./runFacts.js";

export interface SequencedCall extends CallFacts {
  readonly line: number;
}

export interface SequencedResult extends ResultFacts {
  readonly line: number;
}

/** Where calls and results go once due: the very objects given, so an adapter may carry more on them. */
export interface SequencerOutput<Call extends SequencedCall, Result extends SequencedResult> {
  call(call: Call): void;
  result(result: Result): void;
}

interface Slot<Call, Result> {
  readonly call: Call;
  result: Result | undefined;
}

export class CallSequencer<Call extends SequencedCall = SequencedCall, Result extends SequencedResult = SequencedResult> {
  private group: unknown = undefined;
  private slots: Array<Slot<Call, Result>> = [];
  /** Index of the shown call whose result is awaited; later slots are not shown yet. */
  private awaited = 0;

  constructor(private readonly out: SequencerOutput<Call, Result>) {}

  /** Adds a call of the group `key` (e.g. the assistant entry); a new key flushes the previous group. */
  call(key: unknown, call: Call): void {
    if (key !== this.group) {
      this.flush();
      this.group = key;
    }
    this.slots.push({ call, result: undefined });
    // Due now when every call before it in the group is answered (the first call, or a later line
    // of the same response after the earlier calls' results: agents that write one line per call).
    if (this.slots.length - 1 === this.awaited) this.out.call(call);
  }

  /**
   * Takes a result that answers a call of the group in progress; returns false (and leaves it to
   * the caller) when it answers none, e.g. a late result of an earlier group.
   */
  result(result: Result): boolean {
    const index = this.slotFor(result);
    if (index === undefined) return false;
    if (index > this.awaited) {
      this.slots[index]!.result = result;
      return true;
    }
    this.slots[index]!.result = result;
    this.out.result(result);
    this.advance();
    return true;
  }

  /** Shows every call still held back, each followed by its early result. */
  flush(): void {
    for (let i = this.awaited + 1; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      this.out.call(slot.call);
      if (slot.result) this.out.result(slot.result);
    }
    this.slots = [];
    this.awaited = 0;
    this.group = undefined;
  }

  private advance(): void {
    while (++this.awaited < this.slots.length) {
      const slot = this.slots[this.awaited]!;
      this.out.call(slot.call);
      if (!slot.result) return;
      this.out.result(slot.result);
    }
  }

  /** The first call from the awaited one on, without a result yet, that this result answers. */
  private slotFor(result: Result): number | undefined {
    for (let i = this.awaited; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      if (slot.result) continue;
      if (answers(slot.call, result)) return i;
    }
    return undefined;
  }
}
