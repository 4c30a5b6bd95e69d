/**
 * OpenClaw trajectory files (inputs.md §3): the runtime's sidecar `<sessionId>.trajectory.jsonl`
 * (legacy ones with `tool.*` events, 2026.5 ones with message snapshots instead) and the
 * `events.jsonl` of an `openclaw sessions export-trajectory` bundle. Each line is
 * `{traceSchema:"openclaw-trajectory", schemaVersion:1, source?, type, ts, seq, sessionId, sessionKey,
 * runId, data}`.
 *
 * Two kinds of events share the format. Runtime events (`source:"runtime"`, or no `source`) are what
 * the live recorder wrote, with an explicit `runId`. Transcript events (`source:"transcript"`) are
 * the session's active branch rebuilt at export time, without `runId`; a bundle holds both, sorted by
 * time, so every tool call appears twice.
 *
 * Mapping of runtime events:
 * - `session.started` → `run_start` of its runId; it also makes that run the one later run-less
 *   events (compactions) belong to. `session.ended` emits nothing: a compaction retry starts a new
 *   attempt under the same runId, and the runtime keeps the run's history across it.
 * - `tool.call` `{toolCallId, name, args}` → `tool_call`.
 * - `tool.result` `{toolCallId, name, success, result}` → `tool_result`. A failure (`success:false`
 *   or `isError:true`) whose result has no details is a thrown error whose text is the error (the
 *   runtime wraps a thrown error as `{content:[{text}], details:{}}`); anything else is the result,
 *   loop vetoes (`details.status:"blocked"`) included. An explicit `data.error` is the error.
 * - `session.compaction` (or `compaction`) → `compaction` in the run of the line, else the last run seen.
 *   The runtime itself records no compaction event, only a count in `model.completed`
 *   (`compactionCount`), which does not say when they happened: without compaction events in the file
 *   such a count is reported as a diagnostic and the guard is not armed.
 * Runtime sidecars of 2026.5 builds have no tool events: the calls and results are in the
 * `messagesSnapshot` of each `model.completed`, replayed by trajectorySnapshots.ts (each call once, in
 * snapshot order, in the run of the line's runId); such a line is used when replay took any of it.
 * There `prompt.submitted` starts the run of its runId (a run is one prompt) and is used.
 *
 * Which record of the calls is replayed, when a file holds several (they are copies of each other):
 * runtime tool events, else transcript tool events, else snapshots. Runtime tool events were written
 * as the calls ran; a bundle's transcript events are the session's transcript, which §3 replays in
 * preference to its sidecar (the snapshots) when both are read. The record not replayed is ignored
 * without a diagnostic (a normal file). Beside runtime events (tool events or snapshots), transcript
 * events only give their `session.compaction` (the runtime records no compaction event of its own).
 * Replayed, transcript events are read like a session transcript (`user.message` starts a run,
 * `session.custom` bootstrap/prompt-error entries name it, calls of one `assistantEntryId` are
 * replayed one by one, `tool.result` carries the toolResult `message`).
 *
 * Read with its session's transcripts (the unit's `sidecar`, sidecarRuns.ts), a sidecar names their
 * runs in its first pass, made before they are read, and its own reading then replays only the runs
 * that no transcript holds, as it would alone; its other lines are ignored, with one diagnostic.
 *
 * Not guessed: `seq` restarts with every attempt's recorder, so file order is the order; `ts` is not
 * needed. An event the recorder cut for size (`data.truncated` with `reason:"trajectory-event-size-
 * limit"`) lost its args or result: skipped with a diagnostic. Unknown event types are ignored with
 * a diagnostic; the other known types (`trace.metadata`, `context.compiled`, `trace.artifacts`, and
 * `prompt.submitted`/`model.completed` when they replay nothing, …) silently. The first pass also
 * records the build (`trace.metadata.data.harness.version`) and the prompts' run ids, for callers
 * (see `TrajectoryScan`). The recorder also redacts secrets and shortens long strings, arrays and
 * deep objects in args and results, so hashes may differ from the live runtime's on such values;
 * identical values are shortened identically, so repeats still compare equal.
 * Its lines are parsed from decoded text: every string read from them is in form "text".
 */
import { completedUsage } from "./usage.js";
import { recordedTime } from "../shared/recordedTime.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import type { AdapterContext, InputAdapter } from "../adapter.js";
import { RunWriter } from "../shared/runWriter.js";
import type { Emitted } from "../shared/runFacts.js";
import type { LineSource } from "../io/lineSource.js";
import { sidecarOf } from "./sidecarPreface.js";
import { agentIdFromPath, agentIdFromSessionKey, sessionIdFromFileName } from "./identity.js";
import { callArguments } from "../shared/callArguments.js";
import { idText, toolResultMessage } from "./messages.js";
import { customRunMarker } from "./runNaming.js";
import type { SidecarPairing } from "./sidecarRuns.js";
import { SnapshotReplay } from "./trajectorySnapshots.js";
import { trajectoryFacts } from "./runFacts.js";
import {
  COMPACTION_TYPES,
  QUIET_TYPES,
  TRACE_SCHEMA,
  classifyTrajectoryLine,
  isCutForSize,
  isToolEvent,
  messagesSnapshot,
  runIdOf,
  runtimeOutcome,
  scanTrajectory,
} from "./trajectoryLines.js";
import type { TrajectoryScan } from "./trajectoryScan.js";
import { TranscriptReplay } from "../shared/transcriptReplay.js";

class TrajectoryReader {
  private run: string | undefined;
  private session: string;
  private agent: string | undefined;
  private readonly pathAgent: string | undefined;
  private readonly transcriptReplay: TranscriptReplay;
  /** The runtime events' runs: named by their lines (a run restarts under its id on a compaction retry, so no run end is final). */
  private readonly writer: RunWriter;

  /** Transcript events are copies of runtime ones (tool events or snapshots) and only give compactions. */
  private readonly besideRuntime: boolean;
  /** Set when the snapshots are the record replayed (see the header). */
  private readonly snapshots: SnapshotReplay | undefined;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly scan: TrajectoryScan,
    /** Read with the session's transcripts: only the runs they do not hold are replayed. */
    private readonly pairing: SidecarPairing | undefined,
  ) {
    this.snapshots = scan.snapshotTools && !scan.runtimeTools && !scan.transcriptTools ? new SnapshotReplay(context, file, pairing) : undefined;
    this.besideRuntime = scan.runtimeTools || this.snapshots !== undefined;
    this.session = sessionIdFromFileName(file);
    this.pathAgent = agentIdFromPath(file);
    this.agent = this.pathAgent;
    const owner = () => ({ session: this.session, agent: this.agent });
    this.transcriptReplay = new TranscriptReplay(context, file, scan.names, owner);
    this.writer = new RunWriter(context, owner, { mayRecur: () => true });
  }

  event(line: number, type: string, transcript: boolean, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const session = idText(own(value, "sessionId"), "text");
    if (session !== undefined) this.session = session;
    this.agent = this.pathAgent ?? agentIdFromSessionKey(own(value, "sessionKey")) ?? this.agent;
    if (!transcript) this.noteFacts(type, value, data);
    // Beside the session's transcripts, the transcript events are theirs.
    if (transcript && this.pairing) return this.context.tally.ignored();
    if (transcript) return this.besideRuntime ? this.transcriptBesideRuntime(line, type) : this.transcriptEvent(line, type, value, data);
    if (this.pairing && !this.pairing.replays(runIdOf(value) ?? this.runAfter(type, value) ?? "")) return this.heldRun(line, type, value, data);
    this.runtimeEvent(line, type, value, data);
  }

  /** The run an event without runId belongs to, as `runtimeEvent` attributes it. */
  private runAfter(type: string, value: Record<string, unknown>): string | undefined {
    return type === "session.started" || type === "prompt.submitted" ? runIdOf(value) : this.run;
  }

  /** A line of a run the transcripts hold: ignored, but it still says which run later lines belong to. */
  private heldRun(line: number, type: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const run = runIdOf(value) ?? this.run;
    if (type === "session.started" || (type === "prompt.submitted" && this.snapshots)) this.run = run;
    const snapshot = type === "model.completed" && this.snapshots ? messagesSnapshot(data) : undefined;
    // What the snapshot adds is the held run's: taken in (not replayed), so that no later snapshot adds it again.
    if (snapshot && run !== undefined) this.snapshots!.snapshot(line, snapshot, { run, session: this.session, agent: this.agent });
    this.context.tally.ignored();
  }

  end(): void {
    this.transcriptReplay.end();
    this.snapshots?.end();
    // Hands on what the runtime lines told of their runs, after every event of the file.
    this.writer.endFile();
  }

  /** What a runtime line tells of its run (runFacts.ts), and when it was written. */
  private noteFacts(type: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const run = runIdOf(value) ?? this.runAfter(type, value);
    if (run === undefined) return;
    this.writer.facts(run, trajectoryFacts(type, value, data));
    this.writer.lineTime(run, recordedTime(value, "ts"));
  }

  private runtimeEvent(line: number, type: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const { tally } = this.context;
    if (type === "session.ended") return tally.used();
    if (type === "session.started") {
      const run = runIdOf(value);
      if (run === undefined) return tally.skipped(this.file, line, "session.started without runId");
      this.run = run;
      return this.count(this.runStart(line, run, value));
    }
    if (COMPACTION_TYPES.has(type)) return this.compaction(line, runIdOf(value));
    if (type === "model.completed") return this.completed(line, value, data);
    if (type === "prompt.submitted" && this.snapshots) return this.prompt(line, value);
    if (!isToolEvent(type)) return this.other(line, type);

    if (isCutForSize(data)) return tally.skipped(this.file, line, `${type} cut by the trajectory recorder (event over its size limit); its payload is lost`);
    const run = runIdOf(value) ?? this.run;
    if (run === undefined) return tally.skipped(this.file, line, `${type} without runId, outside any started run`);
    const id = idText(own(data, "toolCallId"), "text");
    const name = own(data, "name");
    const tool = typeof name === "string" && name.trim() !== "" ? name : undefined;
    if (type === "tool.call") {
      if (tool === undefined) return tally.skipped(this.file, line, 'tool.call without a tool "name"');
      // The runtime records `args`; `arguments` (or `input`) is the transcript form.
      const args = Object.prototype.hasOwnProperty.call(data, "args") ? data.args : callArguments(data);
      return this.count(this.writer.call(run, this.at(line), { id, tool, args, form: "text" }));
    }
    if (id === undefined && tool === undefined) return tally.skipped(this.file, line, "tool.result without toolCallId or name");
    const outcome = runtimeOutcome(data);
    if (!outcome) return tally.skipped(this.file, line, "tool.result without a result or error");
    this.count(this.writer.result(run, this.at(line), { id, tool, outcome, form: "text" }));
  }

  private transcriptBesideRuntime(line: number, type: string): void {
    if (COMPACTION_TYPES.has(type)) return this.compaction(line, undefined);
    if (!isToolEvent(type)) return this.other(line, type);
    this.context.tally.ignored();
  }

  private transcriptEvent(line: number, type: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const { tally } = this.context;
    switch (type) {
      case "user.message":
        this.transcriptReplay.userMessage(line, recordedTime(value, "ts"));
        return tally.used();
      case "session.custom":
        return customRunMarker(line, own(data, "customType"), own(data, "data"), "text") ? tally.used() : tally.ignored();
      case "tool.call": {
        const name = own(data, "name");
        if (typeof name !== "string" || name.trim() === "") return tally.skipped(this.file, line, 'tool.call without a tool "name"');
        const group = own(data, "assistantEntryId") ?? line;
        this.transcriptReplay.toolCalls(group, line, [{ id: idText(own(data, "toolCallId"), "text"), tool: name, args: callArguments(data), form: "text" }]);
        return tally.used();
      }
      case "tool.result": {
        const message = own(data, "message");
        if (!isPlainObject(message)) return tally.skipped(this.file, line, 'transcript tool.result without its toolResult "message"');
        const result = toolResultMessage(message, "text");
        if (!result.ok) return tally.skipped(this.file, line, result.reason);
        return this.transcriptReplay.toolResult(line, result.value);
      }
      default:
        if (COMPACTION_TYPES.has(type)) return this.transcriptReplay.compaction(line);
        return this.other(line, type);
    }
  }

  /**
   * Snapshot replay only: the prompt starts the run of its runId. The attempt's `session.started`
   * carries the same runId and has usually started it already; then the line only confirms it.
   */
  private prompt(line: number, value: Record<string, unknown>): void {
    const run = runIdOf(value);
    if (run === undefined) return this.context.tally.ignored(this.file, line, "prompt.submitted without runId; it starts no run");
    if (run === this.run) return this.context.tally.used();
    this.run = run;
    this.count(this.runStart(line, run, value));
  }

  /**
   * A run's start, with the OpenClaw build the file records (`trace.metadata`, read by the first
   * pass): `--profile auto` replays the run under that build's generation. The line's `ts` dates
   * the run (`--since`/`--until`).
   */
  private runStart(line: number, run: string, value: Record<string, unknown>): Emitted {
    const { harnessVersion } = this.scan;
    return this.writer.startRun(run, this.at(line), { time: recordedTime(value, "ts"), announce: "now", ...(harnessVersion !== undefined && { harnessVersion }) })!;
  }

  private completed(line: number, value: Record<string, unknown>, data: Record<string, unknown>): void {
    const { tally } = this.context;
    const count = own(data, "compactionCount");
    const unplaced = !this.scan.compactions && typeof count === "number" && count > 0;
    // A count with no compaction event in the file does not say when they happened: not guessed.
    const why = `model.completed reports ${count} compaction(s) but the trajectory does not say when; the post-compaction guard is not armed`;
    const snapshot = this.snapshots ? messagesSnapshot(data) : undefined;
    // The attempt's usage is one turn when no snapshot message records any (its messages are turns then: trajectorySnapshots.ts).
    // After the attempt's calls, so that the turn claims them.
    const usage = completedUsage(data);
    const run = runIdOf(value) ?? this.run;
    const turn = () => usage.kind === "run" && usage.usage !== undefined && run !== undefined && this.writer.turn(run, this.at(line), { id: `${line}`, usage: usage.usage });
    if (this.snapshots && snapshot) {
      if (run === undefined) return tally.skipped(this.file, line, "model.completed without runId, outside any started run; its messagesSnapshot is not replayed");
      const used = this.snapshots.snapshot(line, snapshot, { run, session: this.session, agent: this.agent });
      turn();
      if (used) {
        if (unplaced) tally.note({ file: this.file, line, reason: why });
        return tally.used();
      }
    } else turn();
    if (!unplaced) return tally.ignored();
    tally.ignored(this.file, line, why);
  }

  private compaction(line: number, runId: string | undefined): void {
    const run = runId ?? this.run;
    if (run === undefined) return this.context.tally.ignored(this.file, line, "compaction before any run started; not replayed");
    this.count(this.writer.compaction(run, this.at(line)));
  }

  private other(line: number, type: string): void {
    if (QUIET_TYPES.has(type) || type.startsWith("approval.") || type.startsWith("message.")) return this.context.tally.ignored();
    this.context.tally.ignored(this.file, line, `unknown trajectory event type ${quote(type)}`);
  }

  private at(line: number) {
    return { file: this.file, line };
  }

  /** A line of one event: used, or ignored (the writer said why). */
  private count(emitted: Emitted): void {
    if (emitted.used) this.context.tally.used();
    else this.context.tally.ignored();
  }
}

export const openclawTrajectoryAdapter: InputAdapter = {
  format: "openclaw-trajectory",
  agent: { kind: "openclaw" },

  sniff(samples) {
    return samples.some((sample) => isPlainObject(sample) && own(sample, "traceSchema") === TRACE_SCHEMA);
  },

  async read(source: LineSource, context: AdapterContext) {
    const pairing = sidecarOf(context.unit) || undefined;
    const scan = pairing?.file === source.file ? pairing.scan : await scanTrajectory(source);
    // Beside transcripts that hold every run, no line is replayed: the snapshots need not be read.
    const replaysAny = pairing === undefined || pairing.leftoverRuns().length > 0;
    const reader = new TrajectoryReader(context, source.file, scan, pairing);
    let first = pairing !== undefined;
    await source.forEachLine((text, line, terminated, problem) => {
      const classified = classifyTrajectoryLine(text, terminated, problem);
      if (classified.kind === "blank") return context.tally.ignored();
      if (classified.kind === "bad") return context.tally.skipped(source.file, line, classified.reason);
      if (first) {
        first = false;
        context.tally.note({ file: source.file, line, reason: pairing!.diagnostic() });
      }
      if (classified.notice !== undefined) context.tally.note({ file: source.file, line, reason: classified.notice });
      if (!replaysAny) return context.tally.ignored();
      reader.event(line, classified.type, classified.transcript, classified.value, classified.data);
    });
    reader.end();
  },
};
