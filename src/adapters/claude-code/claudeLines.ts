/**
 * What one line of a Claude Code transcript (`~/.claude/projects/<slug>/<sessionId>.jsonl`,
 * agents.md A1) is to replay. Claude Code writes one JSON object per line; the lines replay needs are
 * - `assistant` lines with `tool_use` blocks (one API response is split over several lines that share
 *   `message.id`: one content block per line);
 * - `user` lines with `tool_result` blocks (the line's `toolUseResult` is the tool's structured result);
 * - `user` lines that are a real prompt (a string or text/image blocks; not `isMeta`, not
 *   `isCompactSummary`): each starts a run;
 * - `system` lines of subtype `compact_boundary`: a compaction.
 * Every other known entry (snapshots, titles, attachments, progress, hooks, api errors, …) is
 * quiet; an unknown `type` is ignored with a diagnostic, so a new Claude Code build that adds one is
 * read and not refused.
 *
 * A line may come parsed from its bytes (`form: "bytes"`, io/jsonBytes.ts): the strings this reads
 * (ids, names, timestamps, prompt text) are turned into text here; arguments, result content and
 * `toolUseResult` stay as parsed, for hashing only. Type tags are ASCII, the same in both forms.
 */
import type { RunFacts } from "../../core/runIdentity.js";
import { promptOf, stopOutcome, textField } from "../shared/messageFacts.js";
import { textOf, trimIn, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { callArguments } from "../shared/callArguments.js";
import { hash53 } from "../shared/textHash.js";
import { READS_USAGE } from "../shared/runFacts.js";
import { messageTurnLine, type ClaudeTurnLine } from "./usage.js";

/** Where the line sits: its tree links, and which (sub-)agent wrote it. */
export interface LineMeta {
  readonly uuid: string | undefined;
  /** `parentUuid`, else (a compact boundary, whose parent is null) `logicalParentUuid`. */
  readonly parent: string | undefined;
  readonly isSidechain: boolean;
  readonly agentId: string | undefined;
  readonly sessionId: string | undefined;
  readonly timestamp: string | undefined;
}

export interface ToolUse {
  readonly id: string | undefined;
  readonly tool: string;
  readonly args: unknown;
}

export interface ToolResultBlock {
  readonly id: string | undefined;
  /** `content` as written: a string, or content blocks. */
  readonly content: unknown;
  readonly isError: boolean;
  /** The form of the strings of `content` (and of the line's `toolUseResult`). */
  readonly form: StringForm;
}

/** What tells the entry's copies (made only when asked: only a unit of several files compares them). */
export type CopyKey = () => string;

export type ClaudeLine =
  | {
      readonly kind: "calls";
      readonly meta: LineMeta;
      readonly group: string | undefined;
      readonly calls: readonly ToolUse[];
      readonly unnamed: number;
      /** The response's model and why it stopped (issue 34 §4). */
      readonly facts: RunFacts | undefined;
      /** The line's part of its response's turn (cost.md §1); `undefined` when usage is not read. */
      readonly turn: ClaudeTurnLine | undefined;
    }
  | {
      readonly kind: "results";
      readonly meta: LineMeta;
      readonly results: readonly ToolResultBlock[];
      /** The line's `toolUseResult` (an object, or a string on errors). */
      readonly toolUseResult: unknown;
      /** Newer builds name the call on the line too (`sourceToolUseID`), even when the block does not. */
      readonly sourceToolUseId: string | undefined;
    }
  | { readonly kind: "prompt"; readonly meta: LineMeta; readonly promptId: string | undefined; readonly key: CopyKey; readonly prompt: string | undefined }
  | { readonly kind: "compaction"; readonly meta: LineMeta; readonly key: CopyKey }
  | {
      readonly kind: "quiet";
      readonly meta: LineMeta;
      /** A reply without calls: its model and why it stopped. */
      readonly facts?: RunFacts;
      /** A reply without calls: its part of its response's turn, as on `calls`. */
      readonly turn?: ClaudeTurnLine;
    }
  | { readonly kind: "unknown"; readonly type: string }
  | { readonly kind: "bad"; readonly reason: string };

/** Entry types Claude Code writes that replay does not need (seen in 1.0.x–2.1.x transcripts). */
export const QUIET_TYPES: ReadonlySet<string> = new Set([
  "summary",
  "file-history-snapshot",
  "attachment",
  "progress",
  "queue-operation",
  "permission-mode",
  "mode",
  "agent-name",
  "custom-title",
  "ai-title",
  "last-prompt",
  "frame-link",
  "pr-link",
  "started",
  "result",
  "relocated",
  "worktree-state",
  "bridge-session",
  "atis-latch",
  "tag",
]);

/**
 * User lines the harness writes in the user's place: they are neither a prompt nor a result, so they
 * start no run (a local command's echoed output, an interruption notice).
 */
const NOT_A_PROMPT = [/^\s*<local-command-(stdout|stderr|caveat)>/, /^\s*\[Request interrupted by user/];

/** A non-blank string as text; `form` is the form of the line's strings. */
function text(value: unknown, form: StringForm): string | undefined {
  return typeof value === "string" && trimIn(form, value) !== "" ? textOf(form, value) : undefined;
}

/**
 * The line's meta, each field read when asked: most lines need none of them but `isSidechain`
 * (the session is named once per file, chains only in inline sidechains), and this runs per line.
 */
class LineMetaOf implements LineMeta {
  readonly isSidechain: boolean;

  constructor(
    private readonly entry: Record<string, unknown>,
    private readonly form: StringForm,
  ) {
    this.isSidechain = own(entry, "isSidechain") === true;
  }

  private field(key: string): string | undefined {
    return text(own(this.entry, key), this.form);
  }

  get uuid() {
    return this.field("uuid");
  }
  get parent() {
    return this.field("parentUuid") ?? this.field("logicalParentUuid");
  }
  get agentId() {
    return this.field("agentId");
  }
  get sessionId() {
    return this.field("sessionId");
  }
  get timestamp() {
    return this.field("timestamp");
  }
}

const lineMeta = (entry: Record<string, unknown>, form: StringForm): LineMeta => new LineMetaOf(entry, form);

/** The line classified; `entry` is a parsed JSON object whose strings are in `form`. */
export function classifyClaudeLine(entry: Record<string, unknown>, form: StringForm): ClaudeLine {
  const rawType = own(entry, "type");
  if (typeof rawType !== "string") return { kind: "bad", reason: 'entry without a "type"' };
  const type = textOf(form, rawType);
  const meta = lineMeta(entry, form);
  switch (type) {
    case "assistant":
      return assistantLine(entry, meta, form);
    case "user":
      return userLine(entry, meta, form);
    case "system":
      return own(entry, "subtype") === "compact_boundary" ? { kind: "compaction", meta, key: () => copyKey(meta, own(entry, "compactMetadata")) } : { kind: "quiet", meta };
    default:
      return QUIET_TYPES.has(type) ? { kind: "quiet", meta } : { kind: "unknown", type };
  }
}

function contentOf(entry: Record<string, unknown>): { ok: true; message: Record<string, unknown>; content: unknown } | { ok: false } {
  const message = own(entry, "message");
  return isPlainObject(message) ? { ok: true, message, content: own(message, "content") } : { ok: false };
}

function assistantLine(entry: Record<string, unknown>, meta: LineMeta, form: StringForm): ClaudeLine {
  const found = contentOf(entry);
  if (!found.ok) return { kind: "bad", reason: 'assistant entry without a "message" object' };
  const facts = replyFacts(found.message, form);
  // Every assistant line, calls or not, is part of a model turn: read in this walk of the message.
  const turn = READS_USAGE ? messageTurnLine(found.message) : undefined;
  if (!Array.isArray(found.content)) return quietReply(meta, facts, turn);
  const calls: ToolUse[] = [];
  let unnamed = 0;
  for (const block of found.content) {
    if (!isPlainObject(block) || own(block, "type") !== "tool_use") continue;
    const tool = text(own(block, "name"), form);
    if (tool === undefined) unnamed++;
    else calls.push({ id: text(own(block, "id"), form), tool, args: callArguments(block) });
  }
  if (calls.length === 0 && unnamed === 0) return quietReply(meta, facts, turn);
  // The lines of one API response share message.id (and requestId): their calls are one group.
  const group = text(own(found.message, "id"), form) ?? text(own(entry, "requestId"), form);
  return { kind: "calls", meta, group, calls, unnamed, facts, turn };
}

/** An assistant line without calls (fields set, not spread: a conditional spread makes an object more). */
function quietReply(meta: LineMeta, facts: RunFacts | undefined, turn: ClaudeTurnLine | undefined): ClaudeLine {
  const line: { kind: "quiet"; meta: LineMeta; facts?: RunFacts; turn?: ClaudeTurnLine } = { kind: "quiet", meta };
  if (facts !== undefined) line.facts = facts;
  if (turn !== undefined) line.turn = turn;
  return line;
}

/** A response's model (`message.model`; `<synthetic>` for the CLI's own messages) and its `stop_reason`. */
function replyFacts(message: Record<string, unknown>, form: StringForm): RunFacts | undefined {
  const name = textField(message, "model", form);
  const model = name === "<synthetic>" ? undefined : name;
  const outcome = stopOutcome(textField(message, "stop_reason", form));
  if (model === undefined && outcome === undefined) return undefined;
  return { ...(model !== undefined && { model }), ...(outcome !== undefined && { outcome }) };
}

function userLine(entry: Record<string, unknown>, meta: LineMeta, form: StringForm): ClaudeLine {
  const found = contentOf(entry);
  if (!found.ok) return { kind: "bad", reason: 'user entry without a "message" object' };
  const { content } = found;
  const results = Array.isArray(content) ? content.filter((block) => isPlainObject(block) && own(block, "type") === "tool_result") : [];
  if (results.length > 0) {
    return {
      kind: "results",
      meta,
      results: results.map((block) => resultBlock(block, form)),
      toolUseResult: own(entry, "toolUseResult"),
      sourceToolUseId: text(own(entry, "sourceToolUseID"), form),
    };
  }
  if (own(entry, "isMeta") === true || own(entry, "isCompactSummary") === true) return { kind: "quiet", meta };
  if (!isPrompt(content, form)) return typeof content === "string" || Array.isArray(content) ? { kind: "quiet", meta } : { kind: "bad", reason: "user message whose content is neither text nor content blocks" };
  return { kind: "prompt", meta, promptId: text(own(entry, "promptId"), form), key: () => copyKey(meta, content), prompt: promptOf(content, form) };
}

function resultBlock(block: Record<string, unknown>, form: StringForm): ToolResultBlock {
  // 2.1.2xx writes the text both as `content` blocks and as `text`; older builds only `content`.
  const content = Object.prototype.hasOwnProperty.call(block, "content") ? own(block, "content") : own(block, "text");
  return { id: text(own(block, "tool_use_id"), form), content, isError: own(block, "is_error") === true, form };
}

/** A prompt's first text (string content, or its text blocks). */
function promptText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b) => isPlainObject(b) && own(b, "type") === "text" && typeof own(b, "text") === "string");
  return block === undefined ? "" : ((block as Record<string, unknown>).text as string);
}

function isPrompt(content: unknown, form: StringForm): boolean {
  const first = promptText(content);
  if (first === undefined) return false;
  // Only the start matters to the patterns: a long pasted prompt is not turned into text whole.
  const start = textOf(form, first.slice(0, 256));
  return !NOT_A_PROMPT.some((pattern) => pattern.test(start));
}

/**
 * What tells a copied entry (a forked or resumed session keeps the uuids it copies) from a new one:
 * its uuid, its timestamp, and a hash of what it says. The uuid alone is not enough: assembled
 * fixtures reuse placeholder uuids for different entries.
 */
function copyKey(meta: LineMeta, body: unknown): string {
  return `${meta.uuid ?? ""}\u0000${meta.timestamp ?? ""}\u0000${hash53(JSON.stringify(body) ?? "")}`;
}
