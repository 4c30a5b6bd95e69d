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
 * not apply to Claude Code's tools (rule 1).
 */
import type { StringForm } from "../../core/byteText.js";
import type { LoopEvent } from "../../core/events.js";
import type { AdapterContext, EmitResult } from "../adapter.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../shared/callSequencer.js";
import { RunDating } from "../shared/recordedTime.js";
import { FORMAT, type Identity } from "./identity.js";
import type { ClaudeOutcome } from "./toolResults.js";

/** A result as handed to the sequencer, with what Claude Code says beyond the outcome. */
export interface ClaudeResult extends SequencedResult {
  readonly claudeOutcome: ClaudeOutcome;
}

interface PendingCall {
  readonly id: string | undefined;
  readonly tool: string;
  /** The sequencer group it was handed over in. */
  readonly group: string;
}

export class SessionReplay {
  private readonly sequencer: CallSequencer;
  private runs = 0;
  private run: string | undefined;
  private readonly runNames = new Set<string>();
  /** The response whose calls the sequencer holds, how many calls it was given and how many were answered. */
  private group: { key: string; seqKey: string; calls: number; answered: number; generation: number } | undefined;
  /** Calls without a result yet, in order: a result that names no call answers the oldest. */
  private readonly pending: PendingCall[] = [];
  /** A run is dated by its prompt; one without a dated prompt (a cut or resumed file) by its first dated line. */
  private readonly dating = new RunDating();

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly identity: Identity,
  ) {
    this.sequencer = new CallSequencer({
      call: (call) => this.emitCall(call),
      result: (result) => this.emitResult(result as ClaudeResult),
    });
  }

  /** `time`: the prompt line's `timestamp`, on the run's `run_start` as `ts` (it dates the run: `--since`). */
  prompt(line: number, promptId: string | undefined, time?: string | number): void {
    this.sequencer.flush();
    this.group = undefined;
    this.endRun(line);
    this.runs++;
    const named = promptId !== undefined && !this.identity.subAgent && !this.runNames.has(promptId) ? promptId : undefined;
    this.run = named ?? `${this.identity.session}#${this.runs}`;
    this.runNames.add(this.run);
    this.dating.offer(this.run, time);
    this.emit(this.base("run_start", line));
  }

  /**
   * The calls of one line; `group` names the response (message.id). A response is split over
   * several lines, and a call's result may come before the response's next line: the sequencer
   * then starts a new group, since no call of the group is held back (it holds calls only until the
   * results before them came).
   */
  calls(line: number, group: string, calls: ReadonlyArray<{ id: string | undefined; tool: string; args: unknown }>, form: StringForm, time?: string | number): void {
    this.dating.offer(this.currentRun(), time);
    if (this.group?.key !== group || this.group.answered === this.group.calls) {
      const generation = this.group?.key === group ? this.group.generation + 1 : 0;
      this.group = { key: group, seqKey: `${group}\u0000${generation}`, calls: 0, answered: 0, generation };
    }
    const key = this.group.seqKey;
    for (const call of calls) {
      this.group.calls++;
      this.pending.push({ id: call.id, tool: call.tool, group: key });
      this.sequencer.call(key, { line, id: call.id, tool: call.tool, args: call.args, form });
    }
  }

  /** Whether a call with this id is still waiting for its result. */
  isPending(id: string): boolean {
    return this.pending.some((call) => call.id === id);
  }

  /**
   * A result. With an id it answers that call; without one, the oldest call still waiting (older
   * builds and assembled fixtures write blocks without `tool_use_id`). Returns false when it answers
   * no call. The caller accounts for the line (which may hold several results).
   */
  result(line: number, id: string | undefined, outcome: ClaudeOutcome): boolean {
    const index = id !== undefined ? this.pending.findIndex((call) => call.id === id) : this.pending.findIndex((call) => call.id === undefined);
    const call = index >= 0 ? this.pending.splice(index, 1)[0]! : undefined;
    if (call === undefined && id === undefined) return false;
    if (call !== undefined && this.group !== undefined && call.group === this.group.seqKey) this.group.answered++;
    // outcomeOf marks a result whose strings stayed bytes; an error is always text.
    const form: StringForm = "result" in outcome && outcome.form === "bytes" ? "bytes" : "text";
    const result: ClaudeResult = { line, id, tool: call?.tool, outcome: outcomeFields(outcome), claudeOutcome: outcome, form };
    if (!this.sequencer.result(result)) this.emitResult(result);
    return true;
  }

  compaction(line: number, time?: string | number): void {
    this.sequencer.flush();
    this.group = undefined;
    this.dating.offer(this.currentRun(), time);
    this.tally(line, this.emit(this.base("compaction", line)));
  }

  /** At the end of the file: every call still held back is shown. */
  end(): void {
    this.sequencer.flush();
  }

  /** Tells replay the run is over (when the caller asked for that: `closeRuns`), to free its state. */
  private endRun(line: number): void {
    if (this.run === undefined || !this.context.options.closeRuns) return;
    // Run names are never reused within a file (runNames): no later line of it names the run.
    const event = this.base("run_end", line);
    event.final = true;
    this.emit(event);
  }

  private currentRun(): string {
    if (this.run === undefined) {
      this.runs++;
      this.run = `${this.identity.session}#${this.runs}`;
      this.runNames.add(this.run);
    }
    return this.run;
  }

  /** The common fields, in the order `looplens events` writes them; `ts` on the run's first dated event. */
  private base(type: LoopEvent["type"], line: number): Record<string, unknown> {
    const run = this.currentRun();
    const event: Record<string, unknown> = { type, run, session: this.identity.session, agent: this.identity.agent, file: this.file, line };
    const ts = this.dating.stamp(run);
    if (ts !== undefined) event.ts = ts;
    return event;
  }

  private emit(event: Record<string, unknown>): EmitResult {
    return this.context.emit(event as unknown as LoopEvent);
  }

  private emitCall(call: SequencedCall): void {
    const event = this.base("tool_call", call.line);
    if (call.id !== undefined) event.id = call.id;
    event.tool = call.tool;
    event.format = FORMAT;
    if (call.args !== undefined) event.args = call.args;
    if (call.form === "bytes") event.form = call.form;
    this.emit(event);
  }

  private emitResult(result: ClaudeResult): void {
    const event = this.base("tool_result", result.line);
    if (result.id !== undefined) event.id = result.id;
    if (result.tool !== undefined) event.tool = result.tool;
    Object.assign(event, result.claudeOutcome);
    // The line was accounted for when it was read (it may hold several results): a result replay
    // does not take only gets a diagnostic.
    const emitted = this.emit(event);
    if (!emitted.used) this.context.tally.note({ file: this.file, line: result.line, reason: emitted.reason });
  }

  private tally(line: number, emitted: EmitResult): void {
    if (emitted.used) this.context.tally.used();
    else this.context.tally.ignored(this.file, line, emitted.reason);
  }
}

/** The outcome as the sequencer's type has it (it only passes it through). */
function outcomeFields(outcome: ClaudeOutcome): SequencedResult["outcome"] {
  return "error" in outcome ? { error: outcome.error } : { result: outcome.result };
}
