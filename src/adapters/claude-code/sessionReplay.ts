/**
 * The replay of one Claude Code session (the main one, or a sub-agent's) into canonical events:
 * its runs (one per prompt, agents.md rule 4), its calls one by one in response order, each followed
 * by its own result (rule 6, through the shared `CallSequencer`), and its compactions.
 *
 * Runs: a prompt emits the run's `run_start` at once (so a run without calls is still counted). The
 * run is named by the prompt's `promptId` (2.1.x) in the main session when no earlier run of the
 * session has it, else `<session>#<n>`, n counting the session's runs from 1. Activity before the
 * first prompt (a cut or resumed file) is a run of its own.
 *
 * Every call carries `format: "claude-code"`: OpenClaw's tool-specific hashing and known polls do
 * not apply to Claude Code's tools (rule 1). A line of results is counted once its results were
 * handed to replay (they may be held back until their calls are due): used when replay took any.
 */
import type { RunFacts } from "../../core/runIdentity.js";
import type { StringForm } from "../../core/byteText.js";
import type { AdapterContext } from "../adapter.js";
import { AwaitedCalls } from "../shared/callPairing.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../shared/callSequencer.js";
import { RunWriter } from "../shared/runWriter.js";
import type { EventPlace } from "../shared/runFacts.js";
import { LineEvents } from "../shared/lineEvents.js";
import { FORMAT, type Identity } from "./identity.js";
import type { ClaudeOutcome } from "./toolResults.js";
import { StreamedTurns, type ClaudeTurn, type ClaudeTurnLine } from "./usage.js";

/** A result as handed to the sequencer, with the line it is counted on. */
interface ClaudeResult extends SequencedResult {
  readonly lineEvents: LineEvents;
}

interface PendingCall {
  readonly id: string | undefined;
  readonly tool: string;
  /** The sequencer group it was handed over in. */
  readonly group: string;
}

export class SessionReplay {
  private readonly sequencer: CallSequencer<SequencedCall, ClaudeResult>;
  private readonly writer: RunWriter;
  private runs = 0;
  private run: string | undefined;
  private readonly runNames = new Set<string>();
  /** The response whose calls the sequencer holds, how many calls it was given and how many were answered. */
  private group: { key: string; seqKey: string; calls: number; answered: number; generation: number } | undefined;
  /** Calls without a result yet, in order (callPairing.ts: a result that names no call answers the oldest without an id). */
  private readonly pending = new AwaitedCalls<PendingCall>();
  /** The session's responses, one turn per `message.id` however many lines stream it (cost.md §1). */
  private readonly turns = new StreamedTurns();

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly identity: Identity,
  ) {
    // Run names are never reused within a file (runNames): no later line of it names an ended run.
    this.writer = new RunWriter(context, () => identity, { format: FORMAT });
    this.sequencer = new CallSequencer({
      call: (call) => this.emitCall(call),
      result: (result) => this.emitResult(result),
    });
  }

  /** `time`: the prompt line's `timestamp`; it dates the run (`--since`). */
  prompt(line: number, promptId: string | undefined, time: string | number | undefined, counted: (id: string) => boolean, prompt?: string): void {
    this.sequencer.flush();
    // The responses of the run before are over: their turns are that run's.
    this.endTurns(line, counted);
    this.group = undefined;
    this.runs++;
    const named = promptId !== undefined && !this.identity.subAgent && !this.runNames.has(promptId) ? promptId : undefined;
    this.run = named ?? `${this.identity.session}#${this.runs}`;
    this.runNames.add(this.run);
    this.writer.startRun(this.run, this.at(line), { time, announce: "now", ...(prompt !== undefined && { facts: { prompt } }) });
  }

  /** What a line tells of the run in progress (a response's model, why it stopped), and when it was written. */
  replied(facts: RunFacts | undefined, time: string | number | undefined): void {
    // A line before any prompt names no run yet, and must not make one (run numbering).
    if (this.run === undefined) return;
    if (facts !== undefined) this.writer.facts(this.run, facts);
    this.writer.lineTime(this.run, time);
  }

  /**
   * The calls of one line; `group` names the response (message.id). A response is split over
   * several lines, and a call's result may come before the response's next line: the sequencer
   * then starts a new group, since no call of the group is held back (it holds calls only until the
   * results before them came).
   */
  calls(line: number, group: string, calls: ReadonlyArray<{ id: string | undefined; tool: string; args: unknown }>, form: StringForm, time: string | number | undefined, turn: string | undefined): void {
    // A run without a dated prompt (a cut or resumed file) is dated by its first dated line.
    this.writer.offerTime(this.currentRun(), time);
    if (this.group?.key !== group || this.group.answered === this.group.calls) {
      const generation = this.group?.key === group ? this.group.generation + 1 : 0;
      this.group = { key: group, seqKey: `${group}\u0000${generation}`, calls: 0, answered: 0, generation };
    }
    const key = this.group.seqKey;
    for (const call of calls) {
      this.group.calls++;
      this.pending.add({ id: call.id, tool: call.tool, group: key });
      // One shape for every call (the writer skips an undefined `turn`): a spread made two per call.
      this.sequencer.call(key, { line, id: call.id, tool: call.tool, args: call.args, form, turn });
    }
  }

  /** Whether a call with this id is still waiting for its result. */
  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  /**
   * A result of the line `lineEvents` counts. With an id it answers that call; without one, the
   * oldest call still waiting without an id (older builds and assembled fixtures write blocks
   * without `tool_use_id`). Returns false when it answers no call.
   */
  result(line: number, id: string | undefined, outcome: ClaudeOutcome, lineEvents: LineEvents): boolean {
    const call = this.pending.take({ id, tool: undefined });
    if (call === undefined && id === undefined) return false;
    if (call !== undefined && this.group !== undefined && call.group === this.group.seqKey) this.group.answered++;
    lineEvents.expect();
    // outcomeOf marks a result whose strings stayed bytes; an error is always text.
    const held: ClaudeResult =
      "error" in outcome
        ? { line, id, tool: call?.tool, outcome: { error: outcome.error }, ...(outcome.unknownTool !== undefined && { unknownTool: outcome.unknownTool }), form: "text", lineEvents }
        : { line, id, tool: call?.tool, outcome: { result: outcome.result }, form: outcome.form === "bytes" ? "bytes" : "text", lineEvents };
    if (!this.sequencer.result(held)) this.emitResult(held);
    return true;
  }

  compaction(line: number, time?: string | number): void {
    this.sequencer.flush();
    this.group = undefined;
    this.writer.offerTime(this.currentRun(), time);
    const emitted = this.writer.compaction(this.currentRun(), this.at(line));
    if (emitted.used) this.context.tally.used();
    else this.context.tally.ignored();
  }

  /**
   * An assistant line (calls or not): its part of its response's turn. A turn is written when the
   * response is over (its last line's usage), unless `counted` says an earlier file of the unit
   * (a fork, a rewritten copy) counted that response already.
   */
  turnLine(line: number, turn: ClaudeTurnLine, counted: (id: string) => boolean): void {
    this.lastLine = line;
    for (const done of this.turns.push(turn)) this.endTurn(line, done, counted);
  }

  /** At the end of the file: every call still held back is shown, then the responses still open end. */
  end(counted: (id: string) => boolean): void {
    this.sequencer.flush();
    this.endTurns(this.lastLine, counted);
    this.writer.endFile();
  }

  /** The last line a turn was fed: where the turns still open at the end of the file are written. */
  private lastLine = 0;

  private endTurns(line: number, counted: (id: string) => boolean): void {
    for (const done of this.turns.finish()) this.endTurn(line, done, counted);
  }

  private endTurn(line: number, turn: ClaudeTurn, counted: (id: string) => boolean): void {
    if (turn.usage === undefined || (turn.id !== undefined && counted(turn.id))) return;
    // Without an id, its calls carried no key: the turn claims the calls since the last one.
    this.writer.turn(this.currentRun(), this.at(line), { id: turn.id ?? `line ${line}`, usage: turn.usage });
  }

  private currentRun(): string {
    if (this.run === undefined) {
      this.runs++;
      this.run = `${this.identity.session}#${this.runs}`;
      this.runNames.add(this.run);
    }
    return this.run;
  }

  private at(line: number): EventPlace {
    return { file: this.file, line };
  }

  private emitCall(call: SequencedCall): void {
    this.writer.call(this.currentRun(), this.at(call.line), call);
  }

  private emitResult(result: ClaudeResult): void {
    result.lineEvents.settle(this.writer.result(this.currentRun(), this.at(result.line), result));
  }
}
