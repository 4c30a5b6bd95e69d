/**
 * OpenAI Codex CLI rollouts (agents.md A2) as canonical events, through the transcript replay that
 * OpenClaw sessions use (shared/transcriptReplay.ts: runs, silent runs, parallel calls one by one
 * with results held back until their call is due, run ends for `closeRuns`).
 *
 * - Calls: `function_call` (JSON-string `arguments` parsed), `custom_tool_call` (`input`, parsed
 *   when it is JSON), `local_shell_call` (`action`), `tool_search_call`; each carries
 *   `format: "codex"`, so OpenClaw's tool-specific hashing and poll tools stay out (rule 1).
 * - Results: the `*_output` item of the same `call_id` (outputs.ts). An `exec_command_end` event
 *   written before the output gives its exit code (non-zero: an error). Other `*_end` events echo
 *   items already in the file and are not replayed again.
 * - Parallel calls: calls with no output between them are one model response (CallSequencer).
 * - Runs: turns.ts. Compactions: `compacted`, and `event_msg context_compacted`, which Codex writes
 *   right after it as an echo: one compaction, whichever of the two comes first (rule 5).
 * - Forks: a rollout forked from another (`forked_from_id`) starts with the parent's items again;
 *   read in one unit after the parent, those are duplicates, not replayed twice (forks.ts, rule 7).
 *   Any other item whose `call_id` was already replayed is a copy: ignored and counted.
 * Lines may be parsed from their bytes (`bytePayloads`): arguments and outputs then stay byte
 * strings for hashing (io/jsonBytes.ts; what that means for JSON-string ones: rolloutLines.ts).
 * Every line is accounted for once: used, ignored (known kinds replay does not need, copies,
 * blank lines) or skipped (not JSON, not a rollout line, a call without a name, an output without
 * a call_id).
 */
import { TokenCounts } from "./usage.js";
import { READS_USAGE } from "../shared/runFacts.js";
import { recordedTime } from "../shared/recordedTime.js";
import { quote } from "../../core/quote.js";
import type { StringForm } from "../../core/byteText.js";
import { parseObjectLine, type AdapterContext, type InputAdapter, type ObjectLine } from "../adapter.js";
import { lineForm, parseObjectBytes, usableObject, type ObjectBytesLine } from "../io/jsonBytes.js";
import type { LineSource } from "../io/lineSource.js";
import { TranscriptReplay } from "../shared/transcriptReplay.js";
import { codexSessionsDir, agentOf, CODEX_FORMAT, sessionIdFromRolloutName, sessionIdOf } from "./identity.js";
import { codexForkTag, ForkCopies, forkedFrom } from "./forks.js";
import { outputOutcome } from "./outputs.js";
import { classifyRolloutLine, looksLikeRollout, type RolloutRecord } from "./rolloutLines.js";
import { CodexTurns } from "./turns.js";

class RolloutReader {
  private session: string | undefined;
  private agent = CODEX_FORMAT;
  private readonly fallbackSession: string;
  private readonly turns = new CodexTurns();
  private readonly replay: TranscriptReplay;
  /** The rollout's token_count lines: one turn per model response (codex/usage.ts). */
  private readonly tokenCounts = new TokenCounts();
  /** Calls of one model response share a group; an output closes it. */
  private group = 0;
  /** Exit codes of `exec_command_end` events whose output is still to come. */
  private readonly exitCodes = new Map<string, number | undefined>();
  /** Call ids whose output was replayed (a second output of one is a copy). */
  private readonly answered = new Set<string>();
  /** The compaction marker last replayed, until other activity: its echo is not a second one. */
  private lastCompaction: "compacted" | "contextCompacted" | undefined;
  private sawEvent = false;
  /** A run was started (a turn_context's model then belongs to it), and the model the last turn_context named. */
  private sawRun = false;
  private model: string | undefined;
  /** The parent's items a fork starts with (forks.ts). */
  private readonly forks: ForkCopies;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
  ) {
    this.fallbackSession = sessionIdFromRolloutName(file);
    this.forks = new ForkCopies(context.unit);
    this.replay = new TranscriptReplay(context, file, this.turns.names, () => ({ session: this.session ?? this.fallbackSession, agent: this.agent }), { format: CODEX_FORMAT });
  }

  /** A parsed line: from its text, or from its bytes with the form of its strings. */
  parsed(parsed: ObjectLine | ObjectBytesLine, line: number): void {
    const object = usableObject(parsed, this.context.tally, this.file, line);
    if (object === undefined) return;
    const form = lineForm(object);
    this.line(line, classifyRolloutLine(object.value, form), object.value, form);
  }

  /** `value` is the parsed line (`record` its classification). */
  private line(line: number, record: RolloutRecord, value: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    if (record.kind === "sessionMeta" && this.session === undefined && !this.sawEvent) return this.sessionMeta(line, record.meta, value, form);
    if (this.forks.isCopy(value, form)) return this.duplicate();
    // A model response's usage (cost.md §1), written after its calls; counted as the line was before.
    const turn = READS_USAGE && record.kind === "other" ? this.tokenCounts.of(value) : undefined;
    if (turn?.usage !== undefined) this.replay.usageAfterCalls(line, turn.usage);
    switch (record.kind) {
      case "bad":
        return tally.skipped(this.file, line, record.reason);
      case "other":
        return tally.ignored();
      case "sessionMeta":
        return this.otherSessionMeta(line, record.meta);
      case "userMessage":
        return this.boundary(line, this.turns.userMessage(), value, record.prompt);
      case "turnStart":
        if (record.model !== undefined) this.model = record.model;
        return this.boundary(line, this.turns.turnStart(record.turnId), value, undefined);
      case "turnModel":
        this.noteModel(record.model, value);
        return tally.ignored();
      case "turnEnd":
        this.replay.runFacts({ outcome: record.outcome, ...(this.model !== undefined && { model: this.model }) }, recordedTime(value));
        this.turns.turnEnd();
        return tally.used();
      case "call":
        return this.call(line, record);
      case "output":
        return this.output(line, record);
      case "execEnd":
        return this.execEnd(record.id, record.exitCode);
      case "compacted":
      case "contextCompacted":
        return this.compaction(line, record.kind);
    }
  }

  end(): void {
    this.replay.end();
  }

  /** The first session_meta names the session and agent, and the session it was forked from. */
  private sessionMeta(line: number, meta: Record<string, unknown>, value: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    const id = sessionIdOf(meta);
    this.session = id;
    this.agent = agentOf(meta);
    this.forks.session(id ?? this.fallbackSession, forkedFrom(meta), value, form);
    if (id === undefined) tally.note({ file: this.file, line, reason: "session_meta without an id; the session id is taken from the file name" });
    tally.used();
  }

  /** Later ones (a sub-agent's, or copied from a parent) do not. */
  private otherSessionMeta(line: number, meta: Record<string, unknown>): void {
    const id = sessionIdOf(meta);
    if (id === this.session) return this.context.tally.ignored();
    this.context.tally.ignored(this.file, line, `another session_meta${id !== undefined ? ` (${quote(id)})` : ""}; the rollout's session stays ${quote(this.session ?? this.fallbackSession)}`);
  }

  /** A run that `value` starts is dated by its `timestamp` (`--since`); it ran on the model of the last turn_context. */
  private boundary(line: number, starts: boolean, value: Record<string, unknown>, prompt: string | undefined): void {
    const facts = { ...(prompt !== undefined && { prompt }), ...(this.model !== undefined && { model: this.model }) };
    if (starts) {
      this.sawRun = true;
      this.replay.userMessage(line, recordedTime(value), facts);
      this.lastCompaction = undefined;
    } else if (prompt !== undefined) this.replay.runFacts(facts, recordedTime(value));
    this.context.tally.used();
  }

  /**
   * The model of a turn_context without a turn id (older builds write it after the turn's user
   * message): the run in progress's, and the session's from then on. One with a turn id (0.135+)
   * comes before its turn's user message: only the next run's (`boundary`).
   */
  private noteModel(model: string | undefined, value: Record<string, unknown>): void {
    if (model === undefined) return;
    this.model = model;
    if (this.sawRun) this.replay.runFacts({ model }, recordedTime(value));
  }

  private call(line: number, call: Extract<RolloutRecord, { kind: "call" }>): void {
    const { tally, unit } = this.context;
    if (call.id !== undefined && unit.callIds.has(call.id)) return this.copy();
    this.touch();
    this.replay.toolCalls(this.group, line, [{ id: call.id, tool: call.tool, args: call.args, form: call.form }]);
    tally.used();
  }

  private output(line: number, { id, output, form }: Extract<RolloutRecord, { kind: "output" }>): void {
    this.group++;
    if (this.answered.has(id)) return this.copy();
    const known = this.context.unit.callIds.has(id);
    if (known) this.answered.add(id);
    this.touch();
    const read = outputOutcome(output, this.exitCodes.get(id), form);
    this.exitCodes.delete(id);
    const { unknownTool } = read.outcome;
    this.replay.toolResult(line, { id, tool: undefined, outcome: read.outcome, ...(unknownTool !== undefined && { unknownTool }), form: read.form });
  }

  /** Kept for the output of a call already replayed; any other is an echo of nothing replay holds. */
  private execEnd(id: string, exitCode: number | undefined): void {
    const { tally, unit } = this.context;
    if (!unit.callIds.has(id) || this.answered.has(id)) return tally.ignored();
    this.exitCodes.set(id, exitCode);
    tally.used();
  }

  private compaction(line: number, kind: "compacted" | "contextCompacted"): void {
    if (this.lastCompaction !== undefined && this.lastCompaction !== kind) {
      this.lastCompaction = undefined;
      return this.context.tally.ignored(); // the echo of the compaction just replayed
    }
    this.touch();
    this.replay.compaction(line);
    this.lastCompaction = kind;
  }

  private copy(): void {
    this.context.tally.transcript.copies++;
    this.context.tally.ignored();
  }

  /** An item of the parent a fork starts with, which the parent's own file replayed. */
  private duplicate(): void {
    this.context.tally.transcript.duplicates++;
    this.context.tally.ignored();
  }

  private touch(): void {
    this.turns.touch();
    this.sawEvent = true;
    this.lastCompaction = undefined;
  }
}

export const codexRolloutAdapter: InputAdapter = {
  format: "codex",
  agent: { kind: "codex", homes: (env, home) => [codexSessionsDir(env, home)] },
  files: { forkTag: codexForkTag },

  /** The first JSON object is a rollout line: a `RolloutItem` kind with a `payload` object. */
  sniff(samples) {
    const first = samples.find((sample) => typeof sample === "object" && sample !== null && !Array.isArray(sample));
    return first !== undefined && looksLikeRollout(first);
  },

  async read(source: LineSource, context: AdapterContext) {
    const reader = new RolloutReader(context, source.file);
    // Arguments and outputs may stay byte strings (io/jsonBytes.ts) when only hashing will read them.
    if (context.options.bytePayloads && source.forEachRawLine) {
      await source.forEachRawLine((bytes, start, end, line, terminated, tooLong) => reader.parsed(parseObjectBytes(bytes, start, end, terminated, tooLong), line));
    } else {
      await source.forEachLine((text, line, terminated, problem) => reader.parsed(parseObjectLine(text, terminated, problem), line));
    }
    reader.end();
  },
};
