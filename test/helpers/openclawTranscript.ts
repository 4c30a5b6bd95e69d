/**
 * Writes OpenClaw session transcripts (pi session format v3) the way the runtime does: a header, then
 * entries chained by parentId, with realistic assistant/toolResult messages. Used to build the
 * fixtures under fixtures/openclaw/ and the random transcripts of the differential test.
 */

export interface ToolCallSpec {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  /** Old transcripts wrote `input` instead of `arguments`. */
  readonly legacyInput?: boolean;
}

export type ToolOutcomeSpec =
  | { readonly kind: "result"; readonly text: string; readonly details?: Record<string, unknown>; readonly isError?: boolean }
  | { readonly kind: "error"; readonly text: string }
  | { readonly kind: "veto"; readonly text?: string };

export class TranscriptBuilder {
  private readonly lines: string[] = [];
  private counter = 0;
  private leaf: string | null = null;
  private clock: number;

  constructor(
    readonly sessionId: string,
    start = Date.parse("2026-05-01T09:00:00.000Z"),
    private readonly model = { api: "openai-responses", provider: "openai", model: "gpt-5" },
  ) {
    this.clock = start;
    this.lines.push(JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: this.iso(), cwd: "/home/u/ws" }));
  }

  /** The id of the newest entry (the parent of the next one). */
  get leafId(): string | null {
    return this.leaf;
  }

  /** The next entry hangs off `id` (an earlier entry): starts a new branch there. */
  branchFrom(id: string | null): this {
    this.leaf = id;
    return this;
  }

  entry(type: string, fields: Record<string, unknown>): string {
    const id = (++this.counter).toString(16).padStart(8, "0");
    this.clock += 1000;
    this.lines.push(JSON.stringify({ type, id, parentId: this.leaf, timestamp: this.iso(), ...fields }));
    this.leaf = id;
    return id;
  }

  bootstrap(runId: string): string {
    return this.custom("openclaw:bootstrap-context:full", { timestamp: this.clock, runId, sessionId: this.sessionId });
  }

  promptError(runId: string, error = "context overflow"): string {
    return this.custom("openclaw:prompt-error", { timestamp: this.clock, runId, sessionId: this.sessionId, error });
  }

  custom(customType: string, data: Record<string, unknown>): string {
    return this.entry("custom", { customType, data });
  }

  user(text: string): string {
    return this.entry("message", { message: { role: "user", content: [{ type: "text", text }], timestamp: this.clock } });
  }

  assistantText(text: string): string {
    return this.assistant([{ type: "text", text }], "stop");
  }

  /** One assistant message with these tool calls (parallel when more than one). */
  calls(calls: readonly ToolCallSpec[], thinking?: string): string {
    const blocks = calls.map((call) => ({ type: "toolCall", id: call.id, name: call.name, [call.legacyInput ? "input" : "arguments"]: call.args }));
    return this.assistant(thinking ? [{ type: "thinking", thinking }, ...blocks] : blocks, "toolUse");
  }

  result(call: Pick<ToolCallSpec, "id" | "name">, outcome: ToolOutcomeSpec): string {
    const base = { role: "toolResult", toolCallId: call.id, toolName: call.name, timestamp: this.clock };
    const content = [{ type: "text", text: outcome.kind === "veto" ? (outcome.text ?? vetoText(call.name)) : outcome.text }];
    switch (outcome.kind) {
      case "error":
        return this.entry("message", { message: { ...base, content, isError: true } });
      case "veto":
        return this.entry("message", {
          message: { ...base, content, details: { status: "blocked", deniedReason: "tool-loop" }, isError: true },
        });
      case "result":
        return this.entry("message", {
          message: { ...base, content, isError: outcome.isError ?? false, ...(outcome.details ? { details: outcome.details } : {}) },
        });
    }
  }

  /**
   * A rewritten copy of an earlier entry, as a later rewrite appends them: the same message under a
   * new entry id and the current parent; `truncate` shortens a tool result's text as rewrites do.
   */
  copy(entryId: string, truncate = false): string {
    const line = this.lines.find((text) => (JSON.parse(text) as { id?: string }).id === entryId);
    if (line === undefined) throw new Error(`no entry ${entryId}`);
    const { type, id: _id, parentId: _parent, timestamp: _ts, ...fields } = JSON.parse(line) as Record<string, unknown>;
    if (truncate && typeof fields.message === "object" && fields.message !== null && (fields.message as { role?: string }).role === "toolResult") {
      const message = fields.message as { content?: unknown };
      if (Array.isArray(message.content)) message.content = [{ type: "text", text: "[... middle content omitted ...]" }];
    }
    return this.entry(type as string, fields);
  }

  compaction(tokensBefore = 180000): string {
    return this.entry("compaction", { summary: "Summary of the conversation so far.", firstKeptEntryId: this.leaf, tokensBefore });
  }

  modelChange(): string {
    return this.entry("model_change", { provider: this.model.provider, modelId: this.model.model });
  }

  label(label = "checkpoint"): string {
    return this.entry("label", { targetId: this.leaf, label });
  }

  /** The file's text; `cut` appends the first half of one more entry, as a crash mid-write leaves it. */
  text(cut?: string): string {
    const tail = cut !== undefined ? cut.slice(0, Math.max(1, Math.floor(cut.length / 2))) : undefined;
    return this.lines.join("\n") + "\n" + (tail ?? "");
  }

  /** A plausible next line (for `text(cut)`). */
  nextLineSample(): string {
    return JSON.stringify({ type: "message", id: "ffffffff", parentId: this.leaf, timestamp: this.iso(), message: { role: "assistant", content: [] } });
  }

  private assistant(content: unknown[], stopReason: string): string {
    return this.entry("message", {
      message: {
        role: "assistant",
        content,
        ...this.model,
        usage: { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0, totalTokens: 1280 },
        stopReason,
        timestamp: this.clock,
      },
    });
  }

  private iso(): string {
    return new Date(this.clock).toISOString();
  }
}

/** The text of the runtime's loop veto result. */
export function vetoText(tool: string): string {
  return `CRITICAL: Called ${tool} with identical arguments and no progress 20 times. Session execution blocked by loop detection.\n\nDo not repeat this exact tool action.`;
}
