/**
 * Turns the entries of an OpenClaw transcript, once read and classified, into canonical events:
 * runs split at user messages (names from `runNaming`), parallel calls replayed one by one
 * (`CallSequencer`), compactions in the run in progress. Shared by the session transcript adapter and
 * the transcript events of a trajectory bundle. Every event keeps the line of its entry.
 *
 * Line accounting: results are tallied when they are handed to replay (they may be held back until
 * their call is due); the caller tallies every other line.
 *
 * Runs without tool calls: each user message starts a run, and a run is counted whether or not it
 * called a tool or held a compaction. A run that emitted nothing by its end gets a lone `run_start`
 * (at its user message's line), so runs with activity print exactly as before in `looplens events`.
 *
 * A result with no call (inputs.md §2): some providers persist the `toolResult` of a call to an
 * unavailable tool without any assistant `toolCall` carrying its id. The runtime attempted and
 * counted those calls (its unknown-tool guard stopped such runs after ten), so a result whose
 * `toolCallId` no earlier call of the session carries and whose error names an unknown tool, or is
 * the runtime's own `Tool <name> not found` for any name (`google:search`, which the unknown-tool
 * patterns do not take: the generic detectors count such calls, no unknown-tool streak does), is
 * replayed as a call of its `toolName` with absent arguments, immediately followed by the result.
 * Other orphans go to replay as they are (which ignores them with a diagnostic).
 */
import type { LoopEvent } from "../../core/events.js";
import type { AdapterContext } from "../adapter.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../shared/callSequencer.js";
import { refusesUnavailableTool, type ToolCallBlock, type ToolResultMessage } from "./messages.js";
import { RunSegments } from "./runNaming.js";
import type { IdSet } from "../shared/keySets.js";

export interface TranscriptIdentity {
  readonly session: string;
  readonly agent: string | undefined;
}

export class TranscriptReplay {
  private readonly sequencer: CallSequencer;
  private readonly runs: RunSegments;
  /** The run of the segment in progress once an event of it was emitted, and that event's line. */
  private openRun: string | undefined;
  private openRunLine = 0;
  /** The line of the user message that started the run in progress, until the run emits an event. */
  private silentRunLine: number | undefined;
  /** Call ids of the session so far, to recognise a result that no call carries. */
  private readonly callIds: Pick<IdSet, "add" | "has">;
  /**
   * When the run in progress started (its user message's `timestamp`), until its first event
   * carries it as `ts`: replay dates the run by it (`--since`), and one event a run is enough.
   */
  private runTime: string | number | undefined;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    segmentNames: ReadonlyArray<string | undefined>,
    private readonly identity: () => TranscriptIdentity,
    /** The session's call ids as this file adds to them (default: the unit's, every id; lastFilePass.ts). */
    callIds: Pick<IdSet, "add" | "has"> = context.unit.callIds,
  ) {
    this.runs = new RunSegments(segmentNames, () => this.identity().session, context.unit.runsBefore);
    this.callIds = callIds;
    this.sequencer = new CallSequencer({
      call: (call) => this.emitCall(call),
      result: (result) => this.emitResult(result),
    });
  }

  userMessage(line: number, time?: string | number): void {
    this.sequencer.flush();
    this.startSilentRun();
    this.endRun();
    this.runs.userMessage();
    this.runTime = time;
    const { sidecar } = this.context.unit;
    const version = sidecar === false ? undefined : sidecar.harnessVersion;
    if (version === undefined) this.silentRunLine = line;
    // The build a sidecar records must reach replay before the run's first event (`--profile auto`).
    else {
      const event = this.base("run_start", line);
      event.harnessVersion = version;
      this.context.emit(event as unknown as LoopEvent);
    }
  }

  /** A run that emitted nothing is still a run: it is counted with a lone `run_start`. */
  private startSilentRun(): void {
    const line = this.silentRunLine;
    if (line === undefined) return;
    this.silentRunLine = undefined;
    this.context.emit(this.base("run_start", line) as unknown as LoopEvent);
  }

  /**
   * Tells replay that the run in progress is over, when the caller asked for that (`closeRuns`) and
   * no later segment can carry its name: replay then frees the run's working state. A transcript of
   * 100 000 runs kept ~150 MB of it to the end otherwise. The event is not a line of its own.
   */
  private endRun(): void {
    const run = this.openRun;
    this.openRun = undefined;
    if (run === undefined || !this.context.options.closeRuns || !this.runs.endsWithSegment(run)) return;
    const { session, agent } = this.identity();
    this.context.emit({ type: "run_end", run, session, ...(agent !== undefined ? { agent } : {}), file: this.file, line: this.openRunLine, final: true });
  }

  /** The calls of one assistant message (`group` tells messages apart). */
  toolCalls(group: unknown, line: number, calls: readonly ToolCallBlock[]): void {
    const { sidecar } = this.context.unit;
    for (const call of calls) {
      if (call.id !== undefined) this.callIds.add(call.id);
      if (sidecar !== false) sidecar.transcriptCall(call.id);
      this.sequencer.call(group, { line, ...call });
    }
  }

  toolResult(line: number, message: ToolResultMessage): void {
    const result: SequencedResult = { line, ...message };
    if (this.sequencer.result(result)) return;
    // Whether a call had the id is asked only of a result refusing an unavailable tool (lastFilePass.ts).
    if (message.id !== undefined && message.tool !== undefined && refusesUnavailableTool(message) && !this.callIds.has(message.id)) {
      // The call the runtime attempted: first its own call, then this result.
      this.sequencer.flush();
      this.callIds.add(message.id);
      this.context.tally.transcript.reconstructedCalls++;
      this.emitCall({ line, id: message.id, tool: message.tool, args: undefined, form: message.form });
    }
    this.emitResult(result);
  }

  /** A compaction: tallied here like the results, since it is an event of its own. */
  compaction(line: number): void {
    this.sequencer.flush();
    this.tally(line, this.emit(this.base("compaction", line)));
  }

  /** Hands an event to replay; once replay used one, the run in progress is no longer silent. */
  private emit(event: Record<string, unknown>): ReturnType<AdapterContext["emit"]> {
    const emitted = this.context.emit(event as unknown as LoopEvent);
    if (emitted.used) this.silentRunLine = undefined;
    return emitted;
  }

  end(): void {
    this.sequencer.flush();
    this.startSilentRun();
    this.context.unit.runsBefore = this.runs.count();
  }

  /**
   * An event's common fields, in the order they are written out (type, run, session, agent, file,
   * line), filled in by assignment: spreading optional parts cost ~1 µs an event, which on
   * transcripts of small entries was a tenth of the run.
   */
  private base(type: LoopEvent["type"], line: number): Record<string, unknown> {
    const { session, agent } = this.identity();
    const run = this.runs.current();
    this.openRun = run;
    this.openRunLine = line;
    const event: Record<string, unknown> = { type, run, session };
    if (agent !== undefined) event.agent = agent;
    if (this.runTime !== undefined) {
      event.ts = this.runTime;
      this.runTime = undefined;
    }
    event.file = this.file;
    event.line = line;
    return event;
  }

  private emitCall(call: SequencedCall): void {
    const event = this.base("tool_call", call.line);
    if (call.id !== undefined) event.id = call.id;
    event.tool = call.tool;
    if (call.args !== undefined) event.args = call.args;
    if (call.form === "bytes") event.form = call.form;
    this.emit(event);
  }

  private emitResult(result: SequencedResult): void {
    const event = this.base("tool_result", result.line);
    if (result.id !== undefined) event.id = result.id;
    if (result.tool !== undefined) event.tool = result.tool;
    Object.assign(event, result.outcome);
    if (result.form === "bytes") event.form = result.form;
    this.tally(result.line, this.emit(event));
  }

  private tally(line: number, emitted: ReturnType<AdapterContext["emit"]>): void {
    if (emitted.used) this.context.tally.used();
    else this.context.tally.ignored(this.file, line, emitted.reason);
  }
}
