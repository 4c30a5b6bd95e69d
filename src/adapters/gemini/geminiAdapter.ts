/**
 * Gemini CLI chat recordings (agents.md A3): `~/.gemini/tmp/<projectId>/chats/session-*.jsonl`,
 * sub-agents' `chats/<parentSessionId>/<sid>.jsonl`, and the legacy single-document `.json`.
 *
 * Two passes. The first only notes, per message id, the line of its last copy: Gemini re-appends a
 * whole message each time its tool calls update, and the last copy is the one that holds their
 * final status and results (as Gemini's own loader keeps the last). The second pass replays, in
 * file order, each message at its last copy (GeminiReplay); earlier copies are ignored.
 *
 * What is not replayed, and why:
 * - `$rewindTo`: the rewound messages were executed, so they stay replayed (rule 7); the record
 *   itself is ignored.
 * - `$set`: metadata updates, ignored. One that writes a whole `messages` list is how history
 *   compression (and tool-output masking) shows in the file; it is no compaction marker, so no
 *   compaction is guessed from it: a diagnostic says so, once per file. Its messages are a
 *   rewrite of what was already replayed.
 * - `info` / `error` / `warning` messages and `gemini` messages without tool calls: ignored.
 * Line accounting: the metadata line, user messages and messages whose calls were replayed are
 * used; bad lines (and lines of a legacy document that does not parse) are skipped.
 */
import { promptOf, textField } from "../shared/messageFacts.js";
import { geminiUsage } from "./usage.js";
import { recordedTime } from "../shared/recordedTime.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import type { AdapterContext, InputAdapter } from "../adapter.js";
import type { LineSource } from "../io/lineSource.js";
import { GEMINI_CHAT_JSON_FILE, geminiDefaultRoot, identityOf, type GeminiIdentity } from "./identity.js";
import { forEachRecord, type DocumentMessage, type RecordLine } from "./recordLines.js";
import { classifyRecord, MODEL_TYPE, QUIET_MESSAGE_TYPES, toolCallsOf, USER_TYPE, type GeminiRecord } from "./records.js";
import { GeminiReplay } from "./replay.js";
import { sniffGemini } from "./sniff.js";

/** `lines`: where the events of a used record were emitted, when not at its own line (a document's tool calls). */
type Disposition = { readonly kind: "used"; readonly lines?: readonly number[] } | { readonly kind: "ignored"; readonly reason?: string } | { readonly kind: "skipped"; readonly reason: string };

const USED: Disposition = { kind: "used" };
const IGNORED: Disposition = { kind: "ignored" };

export const NO_COMPACTION_MARKER =
  '"$set" rewrote the message list (history compression or tool-output masking): Gemini CLI writes no compaction marker, so the post-compaction guard is not armed for this file';

/** First pass: the line of the last copy of each message id. */
async function lastCopies(source: LineSource): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  await forEachRecord(source, (item) => {
    if (item.kind === "record" && item.record.kind === "message" && item.record.id !== undefined) last.set(item.record.id, item.line);
    if (item.kind !== "document") return;
    for (const message of item.messages) {
      const record = isPlainObject(message.value) ? classifyRecord(message.value) : undefined;
      if (record?.kind === "message" && record.id !== undefined) last.set(record.id, message.line);
    }
  });
  return last;
}

class RecordingReader {
  private metadata: Record<string, unknown> | undefined;
  private identity: GeminiIdentity | undefined;
  private sawMessage = false;
  private notedCompression = false;
  private readonly replay: GeminiReplay;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    private readonly last: ReadonlyMap<string, number>,
  ) {
    this.replay = new GeminiReplay(context, file, () => this.who());
  }

  item(item: RecordLine): void {
    const { tally } = this.context;
    switch (item.kind) {
      case "blank":
        return tally.ignored();
      case "bad":
        return tally.skipped(this.file, item.line, item.reason);
      case "record":
        if (item.notice !== undefined) tally.note({ file: this.file, line: item.line, reason: item.notice });
        return this.account(item.line, this.record(item.line, item.record));
      case "badDocument":
        for (let line = item.lines.first; line <= item.lines.last; line++) tally.skipped(this.file, line, item.reason);
        return;
      case "document":
        return this.document(item);
    }
  }

  end(): void {
    this.replay.end();
    const { pendingCalls, repeatedCalls } = this.replay;
    if (pendingCalls > 0) this.note(1, `${pendingCalls} tool call(s) without a final status (queued or running when the recording ended): replayed without a result`);
    if (repeatedCalls > 0) this.note(1, `${repeatedCalls} tool call(s) whose id an earlier message already held: replayed once`);
  }

  private note(line: number, reason: string): void {
    this.context.tally.note({ file: this.file, line, reason });
  }

  /** The session and agent, fixed at the first event: from the metadata, else the file name. */
  private who(): GeminiIdentity {
    this.identity ??= identityOf(this.file, this.metadata);
    return this.identity;
  }

  private account(line: number, disposition: Disposition): void {
    const { tally } = this.context;
    if (disposition.kind === "used") tally.used();
    else if (disposition.kind === "skipped") tally.skipped(this.file, line, disposition.reason);
    else tally.ignored(this.file, line, disposition.reason);
  }

  private record(line: number, record: GeminiRecord): Disposition {
    switch (record.kind) {
      case "metadata":
        return this.header(record.value);
      case "document":
        return this.header(record.value); // not reached: forEachRecord hands documents over whole
      case "message":
        return this.message(line, record, []);
      case "set":
        if (Array.isArray(record.fields.messages) && !this.notedCompression) {
          this.notedCompression = true;
          return { kind: "ignored", reason: NO_COMPACTION_MARKER };
        }
        return IGNORED;
      case "rewind":
        return IGNORED;
      case "unknown":
        return { kind: "skipped", reason: record.reason };
    }
  }

  private header(value: Record<string, unknown>): Disposition {
    if (this.metadata !== undefined || this.sawMessage) return { kind: "ignored", reason: "another metadata record; the first one names the session" };
    this.metadata = value;
    return USED;
  }

  /** A legacy document: its first line is the metadata, each message is at the line it starts on. */
  private document(item: Extract<RecordLine, { kind: "document" }>): void {
    const used = new Set<number>([this.header(item.metadata).kind === "used" ? item.lines.first : -1]);
    for (const line of this.messages(item.messages)) used.add(line);
    for (let line = item.lines.first; line <= item.lines.last; line++) {
      if (used.has(line)) this.context.tally.used();
      else this.context.tally.ignored();
    }
  }

  /** Replays the messages of a document; returns the lines that produced an event. */
  private messages(messages: readonly DocumentMessage[]): Set<number> {
    const used = new Set<number>();
    for (const message of messages) {
      const record = isPlainObject(message.value) ? classifyRecord(message.value) : undefined;
      const disposition: Disposition = record?.kind === "message" ? this.message(message.line, record, message.callLines) : { kind: "skipped", reason: "document message that is not a message record" };
      if (disposition.kind === "used") for (const line of disposition.lines ?? [message.line]) used.add(line);
      else if (disposition.reason !== undefined) this.note(message.line, disposition.reason);
    }
    return used;
  }

  private message(line: number, record: Extract<GeminiRecord, { kind: "message" }>, callLines: readonly number[]): Disposition {
    if (record.id !== undefined && this.last.get(record.id) !== line) return IGNORED; // a copy the record was written again over
    if (!this.sawMessage && this.metadata === undefined) this.note(line, "no metadata line; the session id is taken from the file name");
    this.sawMessage = true;
    if (record.type === USER_TYPE) return this.replay.userMessage(line, recordedTime(record.value), promptOf(own(record.value, "content"))) ? USED : IGNORED;
    if (record.type === MODEL_TYPE) {
      this.replay.replied(textField(record.value, "model"), recordedTime(record.value));
      return this.modelMessage(line, record.value, callLines);
    }
    if (QUIET_MESSAGE_TYPES.has(record.type)) return IGNORED;
    return { kind: "ignored", reason: `unknown message type ${quote(record.type)}` };
  }

  /** Only the record's last copy gets here (`message`): its tokens are the turn's, once (cost.md §1). */
  private modelMessage(line: number, message: Record<string, unknown>, callLines: readonly number[]): Disposition {
    const { calls, unnamed } = toolCallsOf(message);
    const unnamedReason = `${unnamed} tool call(s) without a "name"; not replayed`;
    const usage = geminiUsage(own(message, "tokens"));
    if (calls.length === 0) {
      if (unnamed > 0) return { kind: "skipped", reason: unnamedReason };
      if (usage !== undefined) this.replay.turn(line, usage);
      return IGNORED;
    }
    if (unnamed > 0) this.note(line, unnamedReason);
    const located = calls.map((call) => ({ call, line: callLines[call.index] ?? line }));
    const lines = this.replay.toolCalls(located);
    if (usage !== undefined) this.replay.turn(line, usage);
    return lines.length > 0 ? { kind: "used", lines } : IGNORED;
  }
}

export const geminiCliAdapter: InputAdapter = {
  format: "gemini-cli",
  agent: { kind: "gemini-cli", homes: (_env, home) => [geminiDefaultRoot(home)] },
  // Gemini CLI's legacy `chats/session-*.json` documents.
  files: { scan: (_name, path) => GEMINI_CHAT_JSON_FILE.test(path) },

  sniff(samples) {
    return sniffGemini(samples);
  },

  async read(source: LineSource, context: AdapterContext) {
    const reader = new RecordingReader(context, source.file, await lastCopies(source));
    await forEachRecord(source, (item) => reader.item(item));
    reader.end();
  },
};
