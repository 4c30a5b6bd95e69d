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
import type { Usage } from "../../core/usage.js";
import type { AdapterContext } from "../adapter.js";
import { RunSegments } from "../shared/runSegments.js";
import { RunWriter } from "../shared/runWriter.js";
import type { EventPlace } from "../shared/runFacts.js";
import type { GeminiIdentity } from "./identity.js";
import { GEMINI_FORMAT } from "./identity.js";
import { toolOutcome, type GeminiOutcome } from "./outcome.js";
import type { GeminiCall } from "./records.js";

export class GeminiReplay {
  private readonly runs: RunSegments;
  /** Gemini's run names are never reused: every run end is final. */
  private readonly writer: RunWriter;
  private readonly callIds = new Set<string>();
  /** Calls replayed without an outcome (the recording ended while they were queued or running). */
  pendingCalls = 0;
  /** Calls not replayed because this file already replayed their id. */
  repeatedCalls = 0;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    identity: () => GeminiIdentity,
  ) {
    // No explicit run names: every run is `<session>#<n>`.
    this.runs = new RunSegments([], () => identity().session, context.unit.runsBefore);
    this.writer = new RunWriter(context, identity, { format: GEMINI_FORMAT });
  }

  /** A user message: the next run starts here, dated by the message's `timestamp`. Returns whether replay used its `run_start`. */
  userMessage(line: number, time?: string | number, prompt?: string): boolean {
    this.writer.endRun();
    this.runs.userMessage();
    return this.writer.startRun(this.runs.current(), this.at(line), { time, announce: "now", ...(prompt !== undefined && { facts: { prompt } }) })?.used === true;
  }

  /** A `gemini` message of the run in progress: the model that wrote it, and when. */
  replied(model: string | undefined, time: string | number | undefined): void {
    if (!this.runs.started()) return; // before the first user message: no run yet
    const run = this.runs.current();
    if (model !== undefined) this.writer.facts(run, { model });
    this.writer.lineTime(run, time);
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
      const run = this.runs.current();
      let used = this.writer.call(run, this.at(line), { id: call.id, tool: call.tool, args: call.args, form: "text" }).used;
      const outcome = toolOutcome(call.record);
      if (outcome.kind === "pending") this.pendingCalls++;
      else used = this.emitOutcome(run, call, outcome, line) || used;
      if (used && lines.at(-1) !== line) lines.push(line);
    }
    return lines;
  }

  /** A `gemini` message's tokens, after its calls: the turn claims them (core/runTurns.ts). */
  turn(line: number, usage: Usage): void {
    this.writer.turn(this.runs.current(), this.at(line), { id: `${line}`, usage });
  }

  /** The file holds the whole recording: its last run is over. */
  end(): void {
    this.writer.endRun();
    this.context.unit.runsBefore = this.runs.count();
  }

  private emitOutcome(run: string, call: GeminiCall, outcome: Exclude<GeminiOutcome, { kind: "pending" }>, line: number): boolean {
    const result =
      outcome.kind === "error"
        ? { id: call.id, tool: call.tool, outcome: { error: outcome.text }, ...(outcome.unknownTool !== undefined && { unknownTool: outcome.unknownTool }), form: "text" as const }
        : { id: call.id, tool: call.tool, outcome: { result: { content: [{ type: "text", text: outcome.text }], details: outcome.details } }, form: "text" as const };
    return this.writer.result(run, this.at(line), result).used;
  }

  private at(line: number): EventPlace {
    return { file: this.file, line };
  }
}
