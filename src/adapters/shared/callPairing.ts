/**
 * Which call a result answers, as every adapter pairs them: the one rule, used where an adapter must
 * know it before replay does (callSequencer.ts, to show a held-back call's result right after it;
 * Claude Code, whose result blocks may lack an id). A result with an id answers the waiting call
 * with that id; one without, the oldest waiting call of the tool it names, or, when it names none,
 * the oldest waiting call that has no id either (older Claude Code builds write neither).
 *
 * Why replay links again (core/prepare.ts): canonical events are a format of their own (inputs.md
 * §1), written by hand or by `looplens events`, whose results name their call only by id or tool,
 * and every adapter's results reach replay as such events, some later than the sequencer held their
 * call (a late result of an earlier response, a call in an earlier file of the unit). Preparation
 * must find each result's call arguments and ordinal whatever the input was; its rule is the
 * canonical format's (a result without an id answers the *newest* unanswered call of its tool), and
 * the adapters' pairing only decides order and identity, never what is hashed.
 */
export interface CallKey {
  readonly id: string | undefined;
  readonly tool: string;
}

export interface ResultKey {
  readonly id: string | undefined;
  readonly tool: string | undefined;
}

export function answers(call: CallKey, result: ResultKey): boolean {
  if (result.id !== undefined) return call.id === result.id;
  return result.tool !== undefined ? call.tool === result.tool : call.id === undefined;
}

/** Calls waiting for their result, oldest first. */
export class AwaitedCalls<Call extends CallKey> {
  private readonly calls: Call[] = [];

  add(call: Call): void {
    this.calls.push(call);
  }

  /** The call the result answers, taken out; undefined when it answers none. */
  take(result: ResultKey): Call | undefined {
    const index = this.calls.findIndex((call) => answers(call, result));
    return index < 0 ? undefined : this.calls.splice(index, 1)[0];
  }

  /** Whether a call with this id is still waiting. */
  has(id: string): boolean {
    return this.calls.some((call) => call.id === id);
  }
}
