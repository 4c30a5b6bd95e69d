/**
 * The tool calls of a runtime trajectory sidecar (inputs.md §3). The 2026.5 recorder writes no
 * `tool.*` events: each attempt's `model.completed` carries `messagesSnapshot[]`, the session's whole
 * conversation as the model saw it at the end of the attempt — the same `assistant` messages with
 * `toolCall` blocks and `toolResult` messages as a transcript. A snapshot repeats what earlier
 * snapshots held, so replay takes from each snapshot only the messages no earlier snapshot had, in
 * snapshot order, and replays them like a transcript: the calls of one assistant message one by
 * one, each followed by its own result (`CallSequencer`).
 *
 * Which messages are copies. A message is known by its role, its `timestamp` and its tool-call ids
 * (its toolCall block ids, or its `toolCallId`) — the transcript's copy rule (§2). Ids alone would
 * drop real calls of providers that number ids per turn (`call_0`, `call_1`, … again each turn);
 * a copy in a later snapshot is the same message, so it has the same timestamp. A message without
 * ids (a call block without `id`, a result without `toolCallId`) is known by a digest of its whole
 * JSON instead. The n-th message with a given key in a snapshot is the n-th one of every earlier
 * snapshot, so identical messages (no timestamp, no id) are counted, not merged: a snapshot holding
 * k of them adds only those beyond the most an earlier snapshot held.
 * Limit: a compaction inside an attempt drops messages from the context before the attempt's
 * snapshot is written; calls that no snapshot ever held cannot be replayed.
 *
 * A result with no call (§2): a `toolResult` whose `toolCallId` no call replayed so far carries (a
 * conversation holds a call before its result, so none can come later) is replayed as a call of its
 * `toolName` with absent arguments, followed by the result, when its error refuses an unavailable
 * tool (messages.ts `refusesUnavailableTool`);
 * other such results are not replayed (diagnostic).
 *
 * Read with the session's transcripts (sidecarRuns.ts), only runs no transcript holds are replayed:
 * the messages a snapshot of a held run adds are taken in without being replayed, and inside a
 * replayed run so are those after a user message a transcript holds.
 *
 * Line accounting: the events of a snapshot all carry the line of its `model.completed`; `snapshot`
 * says whether any was used, and the caller tallies the line once. Events replay did not take are
 * noted with their reason.
 */
import type { Usage } from "../../core/usage.js";
import { assistantTurnUsage } from "./usage.js";
import { createHash } from "node:crypto";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import type { AdapterContext } from "../adapter.js";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../shared/callSequencer.js";
import { RunWriter } from "../shared/runWriter.js";
import type { Emitted } from "../shared/runFacts.js";
import { refusesUnavailableTool } from "../shared/unavailableTool.js";
import { idText, toolCallBlocks, toolResultMessage } from "./messages.js";
import type { SidecarPairing } from "./sidecarRuns.js";

/** Who the events of a snapshot belong to. */
export interface SnapshotIdentity {
  readonly run: string;
  readonly session: string;
  readonly agent: string | undefined;
}

export class SnapshotReplay {
  /** Keys (role, timestamp, ids or digest, and the n of `messageKey`) of every message taken from a snapshot so far. */
  private readonly seen = new Set<string>();
  /** Ids of the calls replayed so far (a result whose id is not here has no call). */
  private readonly callIds = new Set<string>();
  private readonly sequencer: CallSequencer;
  /** Runs are started by the trajectory's own lines (trajectory.ts): this only adds their calls. */
  private readonly writer: RunWriter;
  private identity: SnapshotIdentity | undefined;
  private line = 0;
  private used = false;
  /** The usage of the assistant message whose calls the sequencer holds: its turn, written after them (cost.md §1). */
  private pendingUsage: Usage | undefined;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly pairing?: SidecarPairing,
  ) {
    this.sequencer = new CallSequencer({ call: (call) => this.emitCall(call), result: (result) => this.emitResult(result) });
    this.writer = new RunWriter(context, () => this.identity!, { mayRecur: () => true });
  }

  /** Replays what this snapshot adds; true when replay used any of it (the line is then used). */
  snapshot(line: number, messages: readonly unknown[], identity: SnapshotIdentity): boolean {
    this.identity = identity;
    this.line = line;
    this.used = false;
    const occurrences = new Map<string, number>();
    const held = this.pairing !== undefined && !this.pairing.replays(identity.run);
    let muted = held;
    for (const message of messages) {
      if (!isPlainObject(message)) continue;
      const base = messageKey(message);
      const n = occurrences.get(base) ?? 0;
      occurrences.set(base, n + 1);
      const key = `${base}#${n}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      if (this.pairing && own(message, "role") === "user") muted = held || this.pairing.holdsUserMessage(own(message, "timestamp"));
      if (muted) this.takeIn(message);
      else this.message(message);
    }
    this.flush();
    return this.used;
  }

  /** Nothing is held back past a snapshot; kept for the reader's symmetry with TranscriptReplay. */
  end(): void {
    this.flush();
  }

  /** Calls held back shown, then the turn of the message that made them. */
  private flush(): void {
    this.sequencer.flush();
    const usage = this.pendingUsage;
    if (usage === undefined) return;
    this.pendingUsage = undefined;
    this.writer.turn(this.identity!.run, { file: this.file, line: this.line }, { id: `${this.line}`, usage });
  }

  private message(message: Record<string, unknown>): void {
    switch (own(message, "role")) {
      case "user":
        // A new prompt: calls still held back are due now, as in a transcript.
        return this.flush();
      case "assistant":
        return this.assistant(message);
      case "toolResult":
        return this.toolResult(message);
      default:
        return; // custom, bashExecution, compaction and branch summaries: nothing replay uses.
    }
  }

  /** A message that is not replayed (the transcripts hold it): its calls are known, so their results are not taken for orphans. */
  private takeIn(message: Record<string, unknown>): void {
    this.sequencer.flush();
    if (own(message, "role") !== "assistant") return;
    for (const call of toolCallBlocks(message, "text").calls) if (call.id !== undefined) this.callIds.add(call.id);
  }

  /** Each message of the snapshots once (`seen`): its usage is one turn (openclaw/usage.ts). */
  private assistant(message: Record<string, unknown>): void {
    this.flush();
    this.pendingUsage = assistantTurnUsage(message)?.usage;
    const { calls, unnamed } = toolCallBlocks(message, "text");
    if (unnamed > 0) this.note(this.line, `${unnamed} toolCall block${unnamed === 1 ? "" : "s"} without a "name" in messagesSnapshot; not replayed`);
    for (const call of calls) {
      if (call.id !== undefined) this.callIds.add(call.id);
      this.sequencer.call(message, { line: this.line, ...call });
    }
  }

  private toolResult(message: Record<string, unknown>): void {
    const parsed = toolResultMessage(message, "text");
    if (!parsed.ok) return this.note(this.line, `${parsed.reason} in messagesSnapshot; not replayed`);
    const result: SequencedResult = { line: this.line, ...parsed.value };
    if (result.id === undefined || this.callIds.has(result.id)) {
      if (!this.sequencer.result(result)) this.emitResult(result);
      return;
    }
    // No snapshot holds its call.
    if (result.tool === undefined || !refusesUnavailableTool(parsed.value)) {
      return this.note(this.line, `toolResult ${quote(result.id)} of a call no snapshot holds; not replayed`);
    }
    this.callIds.add(result.id);
    this.context.tally.transcript.reconstructedCalls++; // the summary counts them
    this.sequencer.flush();
    this.emitCall({ line: this.line, id: result.id, tool: result.tool, args: undefined, form: "text" });
    this.emitResult(result);
  }

  // Every event of a snapshot is at the line of its `model.completed`.
  private emitCall(call: SequencedCall): void {
    this.took(this.writer.call(this.identity!.run, { file: this.file, line: this.line }, call));
  }

  private emitResult(result: SequencedResult): void {
    this.took(this.writer.result(this.identity!.run, { file: this.file, line: this.line }, result));
  }

  /** The line is used once replay used any event of it; the writer said why it refused one. */
  private took(emitted: Emitted): void {
    if (emitted.used) this.used = true;
  }

  private note(line: number, reason: string): void {
    this.context.tally.note({ file: this.file, line, reason });
  }
}

/**
 * `role|timestamp|ids`, or `role|timestamp|#digest` when a tool call or result lacks its id (or the
 * message has neither ids nor a timestamp to tell it apart from another). NUL separates the parts:
 * ids are free text.
 */
function messageKey(message: Record<string, unknown>): string {
  const role = own(message, "role");
  const raw = own(message, "timestamp");
  const timestamp = typeof raw === "number" || typeof raw === "string" ? String(raw) : undefined;
  const head = `${typeof role === "string" ? role : ""}\u0000${timestamp ?? ""}\u0000`;
  const ids = messageIds(message);
  if (ids !== undefined && (ids !== "" || timestamp !== undefined)) return head + ids;
  return `${head}#${createHash("sha256").update(JSON.stringify(message)).digest("base64")}`;
}

/** The message's tool-call ids joined, "" when it has none, undefined when one lacks its id. */
function messageIds(message: Record<string, unknown>): string | undefined {
  if (own(message, "role") === "toolResult") return idText(own(message, "toolCallId"), "text");
  const { calls, unnamed } = toolCallBlocks(message, "text");
  if (unnamed > 0 || calls.some((call) => call.id === undefined)) return undefined;
  return calls.map((call) => call.id).join("\u0000");
}
