/**
 * Turns the entries of a transcript, once read and classified, into canonical events through the
 * run writer: runs split at user messages (names from `RunSegments`), parallel calls replayed one
 * by one (`CallSequencer`), compactions in the run in progress. Shared by OpenClaw's session
 * transcripts, the transcript events of a trajectory bundle, and Codex rollouts (whose items are the
 * same shape of conversation). Every event keeps the line of its entry.
 *
 * Line accounting: results and compactions are counted when they are handed to replay (a result
 * may be held back until its call is due); the caller counts every other line.
 *
 * Runs without tool calls: each user message starts a run, and a run is counted whether or not it
 * called a tool or held a compaction: announced `ifSilent` (runWriter.ts), so runs with activity
 * print exactly as they always have in `looplens events`.
 *
 * A result with no call (inputs.md §2): some providers persist the `toolResult` of a call to an
 * unavailable tool without any assistant `toolCall` carrying its id. The runtime attempted and
 * counted those calls (its unknown-tool guard stopped such runs after ten), so a result whose id no
 * earlier call of the session carries and that refuses an unavailable tool (unavailableTool.ts) is
 * replayed as a call of its tool with absent arguments, immediately followed by the result. Other
 * orphans go to replay as they are (which ignores them with a diagnostic).
 *
 * Turns (cost.md §1): a message's usage is written as a turn once the message's calls are all
 * handed over (the sequencer flushed), so that the turn claims them (core/runTurns.ts); a response
 * without calls is a turn alone. Copies and duplicates never reach here, so each turn comes once.
 */
import type { AdapterContext } from "../adapter.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "./callSequencer.js";
import type { IdSet } from "./keySets.js";
import { RunSegments } from "./runSegments.js";
import { RunWriter } from "./runWriter.js";
import type { CallFacts, ResultFacts, RunFacts, RunOwner } from "./runFacts.js";
import { refusesUnavailableTool } from "./unavailableTool.js";
import { methodCallback } from "./methodCallback.js";
import type { Usage } from "../../core/usage.js";

export interface TranscriptOptions {
  /** The foreign agent's format put on every call (Codex); absent for OpenClaw. */
  readonly format?: string;
  /** The session's call ids as this file adds to them (default: the unit's, every id; openclaw/lastFilePass.ts). */
  readonly callIds?: Pick<IdSet, "add" | "has">;
  /** The OpenClaw build that recorded the runs (a paired sidecar's): each run's start is announced with it. */
  readonly harnessVersion?: string;
  /** Told every call id (a paired sidecar learns which calls the transcripts hold). */
  readonly onCall?: (id: string | undefined) => void;
}

export class TranscriptReplay {
  private readonly sequencer: CallSequencer;
  private readonly runs: RunSegments;
  private readonly writer: RunWriter;
  /** The run in progress, asked when its name is needed (one function: the writer keeps facts by it). */
  private readonly currentRun: () => string;
  /** Call ids of the session so far, to recognise a result that no call carries. */
  private readonly callIds: Pick<IdSet, "add" | "has">;
  /** The usage of the message whose calls are being replayed, written once they all are. */
  private pendingTurn: { readonly group: unknown; readonly line: number; readonly usage: Usage } | undefined;
  /** The group of the last calls handed over. */
  private lastGroup: unknown;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    segmentNames: ReadonlyArray<string | undefined>,
    private readonly identity: () => RunOwner & { readonly session: string },
    private readonly options: TranscriptOptions = {},
  ) {
    // Callbacks that call methods, not closures: a reader's state that holds them can be saved (methodCallback.ts).
    const self: TranscriptReplay = this;
    this.runs = new RunSegments(segmentNames, methodCallback(self, "sessionId"), context.unit.runsBefore);
    this.currentRun = methodCallback(this.runs, "current");
    this.callIds = options.callIds ?? context.unit.callIds;
    this.writer = new RunWriter(context, identity, { format: options.format, mayRecur: methodCallback(self, "mayRecur") });
    this.sequencer = new CallSequencer({ call: methodCallback(self, "emitCall"), result: methodCallback(self, "emitResult") });
  }

  /** The session the runs are named after (default names `<session>#<n>`). */
  sessionId(): string {
    return this.identity().session;
  }

  /** An explicit name that a later segment carries too (or that spells a default one) may recur. */
  mayRecur(run: string): boolean {
    return !this.runs.endsWithSegment(run);
  }

  /**
   * The file grew, and its first pass, run again, names its segments `names`: true when they name
   * the segments read so far as before and no later one takes a name of those (a run ended as final
   * may not come back), the later names then taken; false when the file must be read again.
   */
  grown(names: ReadonlyArray<string | undefined>): boolean {
    return this.runs.grown(names);
  }

  userMessage(line: number, time?: string | number, facts?: RunFacts): void {
    this.flush();
    this.writer.endRun();
    this.runs.userMessage();
    const { harnessVersion } = this.options;
    // Named when its first event is handed over: a Codex turn id may name the run after its user message.
    this.writer.startRun(this.currentRun, this.at(line), { time, harnessVersion, announce: "ifSilent", ...(facts && { facts }) });
  }

  /** What a later entry of the run in progress tells of it (the model that answered, how it ended), and when it was written. */
  runFacts(facts: RunFacts | undefined, time: string | number | undefined): void {
    // Before the file's first user message no run is in progress, and asking for one would make one.
    if (!this.runs.started()) return;
    if (facts !== undefined) this.writer.facts(this.currentRun, facts);
    this.writer.lineTime(this.currentRun, time);
  }

  /** The calls of one assistant message (`group` tells messages apart), and the usage it recorded. */
  toolCalls(group: unknown, line: number, calls: readonly CallFacts[], usage?: Usage): void {
    if (this.pendingTurn !== undefined && this.pendingTurn.group !== group) this.flush();
    if (usage !== undefined) this.pendingTurn = { group, line, usage };
    this.lastGroup = group;
    for (const call of calls) {
      if (call.id !== undefined) this.callIds.add(call.id);
      this.options.onCall?.(call.id);
      this.sequencer.call(group, { line, ...call });
    }
  }

  toolResult(line: number, result: ResultFacts): void {
    const held: SequencedResult = { line, ...result };
    if (this.sequencer.result(held)) return;
    // Whether a call had the id is asked only of a result refusing an unavailable tool (openclaw/lastFilePass.ts).
    if (result.id !== undefined && result.tool !== undefined && refusesUnavailableTool(result) && !this.callIds.has(result.id)) {
      // The call the runtime attempted: first its own call, then this result.
      this.sequencer.flush();
      this.callIds.add(result.id);
      this.context.tally.transcript.reconstructedCalls++;
      this.emitCall({ line, id: result.id, tool: result.tool, args: undefined, form: result.form });
    }
    this.emitResult(held);
  }

  /** A model response that made no call (a final answer) and recorded `usage`: a turn of its own. */
  turn(line: number, usage: Usage): void {
    this.flush();
    this.writer.turn(this.runs.current(), this.at(line), { id: `${line}`, usage });
  }

  /**
   * The usage of the response whose calls came last, recorded after them (Codex's token_count):
   * written once those calls are all replayed. Two in a row: the first response made no more calls.
   */
  usageAfterCalls(line: number, usage: Usage): void {
    if (this.pendingTurn !== undefined) this.flush();
    this.pendingTurn = { group: this.lastGroup, line, usage };
  }

  /** A compaction: counted here like the results, since it is an event of its own. */
  compaction(line: number): void {
    this.flush();
    this.count(this.writer.compaction(this.runs.current(), this.at(line)).used);
  }

  end(): void {
    this.flush();
    this.writer.endFile();
    this.context.unit.runsBefore = this.runs.count();
  }

  /** Every held call handed over, then the turn that made them. */
  private flush(): void {
    this.sequencer.flush();
    const turn = this.pendingTurn;
    if (turn === undefined) return;
    this.pendingTurn = undefined;
    this.writer.turn(this.runs.current(), this.at(turn.line), { id: `${turn.line}`, usage: turn.usage });
  }

  private at(line: number) {
    return { file: this.file, line };
  }

  /** The sequencer's output (public for `methodCallback`). */
  emitCall(call: SequencedCall): void {
    this.writer.call(this.runs.current(), this.at(call.line), call);
  }

  emitResult(result: SequencedResult): void {
    this.count(this.writer.result(this.runs.current(), this.at(result.line), result).used);
  }

  /** The line of an event of its own: used, or ignored (the writer said why). */
  private count(used: boolean): void {
    if (used) this.context.tally.used();
    else this.context.tally.ignored();
  }
}
