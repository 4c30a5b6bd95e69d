/**
 * Replays the tool calls of one assistant message the way the runtime executed them: one after
 * another, each checked just before it runs, so each call is followed by its own result before the
 * next call is shown (inputs.md §2). A transcript writes all the calls first and the results after,
 * possibly out of order; this holds back the calls not yet due and the results that came early.
 *
 * Only the group in progress is buffered: a later call waits for the result of the one before it,
 * and the group is flushed (every call shown, each with its early result if any) as soon as the
 * transcript moves on (next assistant message, user message, compaction, end of file). A call that
 * never gets a result stays pending.
 */
import type { StringForm } from "../../core/byteText.js";
import type { Outcome } from "../openclaw/messages.js";

export interface SequencedCall {
  readonly line: number;
  readonly id: string | undefined;
  readonly tool: string;
  readonly args: unknown;
  readonly form: StringForm;
}

export interface SequencedResult {
  readonly line: number;
  readonly id: string | undefined;
  readonly tool: string | undefined;
  readonly outcome: Outcome;
  readonly form: StringForm;
}

export interface SequencerOutput {
  call(call: SequencedCall): void;
  result(result: SequencedResult): void;
}

interface Slot {
  readonly call: SequencedCall;
  result: SequencedResult | undefined;
}

export class CallSequencer {
  private group: unknown = undefined;
  private slots: Slot[] = [];
  /** Index of the shown call whose result is awaited; later slots are not shown yet. */
  private awaited = 0;

  constructor(private readonly out: SequencerOutput) {}

  /** Adds a call of the group `key` (e.g. the assistant entry); a new key flushes the previous group. */
  call(key: unknown, call: SequencedCall): void {
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
  result(result: SequencedResult): boolean {
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
  private slotFor(result: SequencedResult): number | undefined {
    for (let i = this.awaited; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      if (slot.result) continue;
      const matches = result.id !== undefined ? slot.call.id === result.id : slot.call.tool === result.tool;
      if (matches) return i;
    }
    return undefined;
  }
}
