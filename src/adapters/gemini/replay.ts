/**
 * Turns the replayed records of one Gemini CLI recording into canonical events (agents.md rules
 * 1–7): each `user` message starts a run (`<session>#<n>`: Gemini writes no turn id, and a message
 * id names a message, not a turn), counted with a `run_start` whether or not it calls a tool; each
 * tool call of a `gemini` message is replayed in the order of the message, immediately followed by
 * its outcome, which the same record holds (so nothing is held back, unlike OpenClaw transcripts
 * whose results come later: callSequencer.ts is not needed). A call id already replayed in this
 * file is not replayed again. Every call carries `format: "gemini-cli"`, so OpenClaw's
 * tool-specific hashing and known-poll tools never apply to Gemini's tools.
 */
import type { LoopEvent } from "../../core/events.js";
import type { AdapterContext } from "../adapter.js";
import { RunSegments } from "../openclaw/runNaming.js";
import type { GeminiIdentity } from "./identity.js";
import { GEMINI_FORMAT } from "./identity.js";
import { toolOutcome, type GeminiOutcome } from "./outcome.js";
import type { GeminiCall } from "./records.js";

export class GeminiReplay {
  private readonly runs: RunSegments;
  private readonly callIds = new Set<string>();
  /** The run of the segment in progress once it emitted an event, and that event's line. */
  private openRun: string | undefined;
  private openRunLine = 0;
  /** Calls replayed without an outcome (the recording ended while they were queued or running). */
  pendingCalls = 0;
  /** Calls not replayed because this file already replayed their id. */
  repeatedCalls = 0;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly identity: () => GeminiIdentity,
  ) {
    // No explicit run names: every run is `<session>#<n>`.
    this.runs = new RunSegments([], () => this.identity().session, context.unit.runsBefore);
  }

  /** A user message: the next run starts here. Returns whether replay used its `run_start`. */
  userMessage(line: number, time?: string | number): boolean {
    this.endRun();
    this.runs.userMessage();
    const start = this.base("run_start", line);
    // The message's `timestamp` dates the run (`--since`).
    if (time !== undefined) start.ts = time;
    return this.emit(start);
  }

  /** The calls of one `gemini` message, each at its own line; returns the lines of the events replay used. */
  toolCalls(calls: ReadonlyArray<{ readonly call: GeminiCall; readonly line: number }>): number[] {
    const lines: number[] = [];
    for (const { call, line } of calls) {
      if (call.id !== undefined && this.callIds.has(call.id)) {
        this.repeatedCalls++;
        continue;
      }
      if (call.id !== undefined) this.callIds.add(call.id);
      let used = this.emitCall(call, line);
      const outcome = toolOutcome(call.record);
      if (outcome.kind === "pending") this.pendingCalls++;
      else used = this.emitOutcome(call, outcome, line) || used;
      if (used && lines.at(-1) !== line) lines.push(line);
    }
    return lines;
  }

  end(): void {
    this.endRun();
    this.context.unit.runsBefore = this.runs.count();
  }

  /**
   * Tells replay that the run in progress is over, when the caller asked for that (`closeRuns`):
   * Gemini's run names are never reused, so replay can free the run's state. Not a line of its own.
   */
  private endRun(): void {
    const run = this.openRun;
    this.openRun = undefined;
    if (run === undefined || !this.context.options.closeRuns) return;
    const event = this.base("run_end", this.openRunLine);
    event.run = run;
    event.final = true;
    this.context.emit(event as unknown as LoopEvent);
    this.openRun = undefined;
  }

  private emitCall(call: GeminiCall, line: number): boolean {
    const event = this.base("tool_call", line);
    if (call.id !== undefined) event.id = call.id;
    event.tool = call.tool;
    event.format = GEMINI_FORMAT;
    if (call.args !== undefined) event.args = call.args;
    return this.emit(event);
  }

  private emitOutcome(call: GeminiCall, outcome: Exclude<GeminiOutcome, { kind: "pending" }>, line: number): boolean {
    const event = this.base("tool_result", line);
    if (call.id !== undefined) event.id = call.id;
    event.tool = call.tool;
    if (outcome.kind === "error") {
      event.error = outcome.text;
      if (outcome.unknownTool !== undefined) event.unknownTool = outcome.unknownTool;
    } else {
      event.result = { content: [{ type: "text", text: outcome.text }], details: outcome.details };
    }
    return this.emit(event);
  }

  private emit(event: Record<string, unknown>): boolean {
    const emitted = this.context.emit(event as unknown as LoopEvent);
    if (!emitted.used) this.context.tally.note({ file: this.file, line: event.line as number, reason: emitted.reason });
    return emitted.used;
  }

  /** An event's common fields, in the order `looplens events` writes them. */
  private base(type: LoopEvent["type"], line: number): Record<string, unknown> {
    const { session, agent } = this.identity();
    const run = this.runs.current();
    if (type !== "run_end") {
      this.openRun = run;
      this.openRunLine = line;
    }
    return { type, run, session, agent, file: this.file, line };
  }
}
