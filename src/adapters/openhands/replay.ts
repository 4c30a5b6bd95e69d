/**
 * Turns classified OpenHands records into canonical events, in file order (agents.md rule 7):
 * - the calls of one model response (V0 `model_response.id`, V1 `llm_response_id`) are replayed one
 *   after another, each followed by its own result (CallSequencer: results held back until their
 *   call is due, calls until the one before them is answered);
 * - results are linked by the tool-call id (V1 `tool_call_id`; V0 the `cause` action's call id);
 * - an event id seen before in the unit (the same event written twice, e.g. an events folder and
 *   its trajectory, or a conversation copied into another) is not replayed again;
 * - a V0 error observation caused by no action, in OpenHands' own "tool is not registered" words,
 *   is the attempt of a call to an unavailable tool: replayed as a call of that tool with absent
 *   arguments and its error (as OpenClaw's rebuilt calls, inputs.md §2);
 * - consecutive compaction markers with nothing between them are one compaction.
 *
 * One instance serves every file of an input unit (an events folder is one unit of many files), so
 * a parallel group or a delegate span may cross files. An evaluation instance (evalInstance.ts)
 * gets one of its own, which cuts the conversation into one run (`ConversationRuns`).
 */
import type { RunFacts } from "../../core/runIdentity.js";
import { OpenHandsTurns } from "./turns.js";
import type { Usage } from "../../core/usage.js";
import type { AdapterContext } from "../adapter.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../shared/callSequencer.js";
import type { Emitted } from "../shared/runFacts.js";
import { unknownToolIn, unknownToolOf, type Outcome } from "./outcome.js";
import type { CallRecord, OpenHandsRecord, ResultRecord } from "./records.js";
import { AGENT, OpenHandsSession, type RecordPlace } from "./sessions.js";

export type { RecordPlace } from "./sessions.js";

/**
 * How the conversation's runs are cut. A recorded conversation: at each user message (agents.md
 * rule 4). An evaluation instance: one run, which the caller starts (`startRun`); the later user
 * messages of its history are the harness's automatic replies, not a person's (evalInstance.ts).
 */
export type ConversationRuns = { readonly kind: "perUserMessage" } | { readonly kind: "one"; readonly runsBefore: number };

// OpenHands documents are parsed from decoded text (documentRecords.ts): every call and result is in form "text".
interface HeldCall extends SequencedCall {
  readonly place: RecordPlace;
  readonly session: OpenHandsSession;
}

interface HeldResult extends SequencedResult {
  readonly place: RecordPlace;
  readonly session: OpenHandsSession;
}

export class OpenHandsReplay {
  private readonly sequencer: CallSequencer<HeldCall, HeldResult>;
  /** The conversation, then the delegate sessions open inside it (V0), innermost last. */
  private readonly stack: OpenHandsSession[];
  private readonly seen = new Set<string>();
  /** V0: action event id → its call id, to link observations by `cause`. */
  private readonly callOfEvent = new Map<string, string>();
  private readonly turns = new OpenHandsTurns();
  /** Turns waiting for their response's calls to be replayed, and that response's group. */
  private heldTurns: Array<{ readonly usage: Usage; readonly place: RecordPlace; readonly session: OpenHandsSession }> = [];
  private heldGroup: string | undefined;

  constructor(
    private readonly context: AdapterContext,
    session: string,
    private readonly runs: ConversationRuns = { kind: "perUserMessage" },
  ) {
    this.stack = [new OpenHandsSession(context, session, AGENT, undefined, runs.kind === "one" ? runs.runsBefore : 0)];
    this.sequencer = new CallSequencer({
      call: (call) => this.emitCall(call),
      result: (result) => this.emitResult(result),
    });
  }

  private get current(): OpenHandsSession {
    return this.stack[this.stack.length - 1]!;
  }

  /** `event`: the record's object, whose model usage the turns read (cost.md §1). */
  record(record: OpenHandsRecord, place: RecordPlace, event?: Record<string, unknown>): void {
    if (record.kind === "bad") return this.skip(place, record.reason);
    if (record.eventId !== undefined && this.seen.has(record.eventId)) {
      this.context.tally.transcript.copies++; // the same event written again (a copied event)
      return this.ignore(place);
    }
    if (record.eventId !== undefined) this.seen.add(record.eventId);
    const turns = event === undefined ? [] : this.turns.of(event);
    // A response's turn is written once the calls of its group are all replayed (it claims them).
    if (record.kind === "call" && this.heldTurns.length > 0 && (record.group ?? record.callId) !== this.heldGroup) this.flush();
    // The session the event is of (a delegating action opens its delegate's after it).
    const session = this.current;
    this.handle(record, place);
    if (turns.length === 0) return;
    for (const usage of turns) this.heldTurns.push({ usage, place, session });
    this.heldGroup = record.kind === "call" ? (record.group ?? record.callId) : undefined;
  }

  private handle(record: Exclude<OpenHandsRecord, { kind: "bad" }>, place: RecordPlace): void {
    switch (record.kind) {
      case "user":
        this.flush();
        if (this.runs.kind === "one" && this.stack.length === 1) return this.ignore(place); // the run is started already
        return this.account(place, this.current.userTurn(place, record.prompt !== undefined ? { prompt: record.prompt } : undefined));
      case "call":
        return this.call(record, place);
      case "result":
        return this.result(record, place);
      case "orphanError":
        return this.orphanError(record.eventId, record.text, place);
      case "compaction":
        return this.compaction(place);
      case "quiet":
        return this.ignore(place);
      case "unknown":
        return this.ignore(place, `${record.what}; ignored`);
    }
  }

  /** Starts the conversation's one run (`ConversationRuns` "one"), before any of its records. */
  startRun(place: RecordPlace, facts?: RunFacts): void {
    this.account(place, this.stack[0]!.userTurn(place, facts));
  }

  /** After the unit's last file: calls still held back are shown. */
  end(): void {
    this.flush();
  }

  /** Calls held back shown, then the turns that made them. */
  private flush(): void {
    this.sequencer.flush();
    for (const { usage, place, session } of this.heldTurns) session.turn(place, usage);
    this.heldTurns = [];
  }

  /**
   * After an evaluation instance's last event: calls held back are shown and its runs (delegates'
   * still open, then the conversation's) are over, so that replay frees them before the next line.
   */
  endAll(): void {
    this.flush();
    while (this.stack.length > 0) this.stack.pop()!.endRun();
  }

  private call(record: CallRecord, place: RecordPlace): void {
    const id = record.callId ?? (record.eventId !== undefined ? `openhands-event-${record.eventId}` : undefined);
    if (record.eventId !== undefined && id !== undefined) this.callOfEvent.set(record.eventId, id);
    const session = this.current;
    session.compactedLast = false;
    if (record.model !== undefined) session.runFacts({ model: record.model });
    this.sequencer.call(record.group ?? id, { line: place.line, id, tool: record.tool, args: record.args, form: "text", place, session });
    this.account(place, { used: true });
    if (record.delegate !== undefined && record.eventId !== undefined) {
      this.sequencer.flush(); // the sub-agent's events are not the parent's response
      this.stack.push(new OpenHandsSession(this.context, `${session.id}/delegate-${record.eventId}`, `${AGENT}/${record.delegate}`, record.eventId));
    }
  }

  private result(record: ResultRecord, place: RecordPlace): void {
    const viaCause = record.cause !== undefined ? this.callOfEvent.get(record.cause) : undefined;
    // A V0 observation of an action that was no tool call (a user message's NullObservation).
    if (record.cause !== undefined && viaCause === undefined && record.callId === undefined) return this.ignore(place);
    if (record.cause !== undefined) this.closeDelegate(record.cause);
    const id = viaCause ?? record.callId;
    this.current.compactedLast = false;
    const unknownTool = unknownToolOf(record.outcome);
    const held: HeldResult = { line: place.line, id, tool: record.tool, outcome: record.outcome, ...(unknownTool !== undefined && { unknownTool }), form: "text", place, session: this.current };
    if (!this.sequencer.result(held)) this.emitResult(held);
  }

  /** The delegate's own observation ends its session: back to the parent. */
  private closeDelegate(cause: string): void {
    const index = this.stack.findIndex((session) => session.delegateAction === cause);
    if (index <= 0) return;
    this.flush();
    while (this.stack.length > index) this.stack.pop()!.endRun();
  }

  private orphanError(eventId: string | undefined, text: string, place: RecordPlace): void {
    const named = /^\s*Tool (\S+) is not registered\b/.exec(text)?.[1];
    const unknownTool = unknownToolIn(text);
    // Other agent errors without a cause (malformed responses, the agent's own stuck-loop stop) are no call.
    if (named === undefined || unknownTool === undefined) return this.ignore(place);
    this.sequencer.flush();
    const session = this.current;
    session.compactedLast = false;
    const id = `openhands-event-${eventId ?? place.line}`;
    this.context.tally.transcript.reconstructedCalls++;
    this.emitCall({ line: place.line, id, tool: named, args: undefined, form: "text", place: { ...place, tallies: false }, session });
    const outcome: Outcome = { error: text };
    this.emitResult({ line: place.line, id, tool: named, outcome, form: "text", place, session, unknownTool });
  }

  private compaction(place: RecordPlace): void {
    this.flush();
    const session = this.current;
    if (session.compactedLast) return this.ignore(place); // the same condensation's second marker
    session.compactedLast = true;
    this.account(place, session.compaction(place));
  }

  private emitCall(call: HeldCall): void {
    call.session.call(call.place, call);
  }

  private emitResult(result: HeldResult): void {
    this.account(result.place, result.session.result(result.place, result));
  }

  /** A record of one event: its line (when it accounts for one) used, or ignored (the writer said why). */
  private account(place: RecordPlace, emitted: Emitted): void {
    if (!place.tallies) return;
    if (emitted.used) this.context.tally.used();
    else this.context.tally.ignored();
  }

  private ignore(place: RecordPlace, reason?: string): void {
    if (place.tallies) return this.context.tally.ignored(place.file, place.line, reason === undefined ? undefined : placed(place, reason));
    if (reason !== undefined) this.context.tally.note({ file: place.file, line: place.line, reason: placed(place, reason) });
  }

  private skip(place: RecordPlace, reason: string): void {
    if (place.tallies) return this.context.tally.skipped(place.file, place.line, placed(place, reason));
    this.context.tally.note({ file: place.file, line: place.line, reason: `${placed(place, reason)}; skipped` });
  }
}

/** A diagnostic's reason, naming the event within its line when the line holds many. */
function placed(place: RecordPlace, reason: string): string {
  return place.within === undefined ? reason : `${place.within}: ${reason}`;
}
