/** Writes OpenClaw trajectory lines (runtime and transcript events) as the recorder and exporter do. */
import { vetoText, type ToolCallSpec, type ToolOutcomeSpec } from "./openclawTranscript.js";

export class TrajectoryBuilder {
  private readonly lines: string[] = [];
  private seq = 0;
  private clock: number;

  constructor(
    readonly sessionId: string,
    readonly sessionKey: string,
    start = Date.parse("2026-05-02T14:00:00.000Z"),
  ) {
    this.clock = start;
  }

  /** A runtime event (what the live recorder writes). `seq` restarts with each attempt. */
  runtime(runId: string, type: string, data: Record<string, unknown> = {}): this {
    if (type === "session.started") this.seq = 0;
    return this.push({ source: "runtime", type, seq: ++this.seq, runId, provider: "openai", modelId: "gpt-5", data });
  }

  /** A transcript event (the exporter's copy of a session entry; no runId). */
  transcript(type: string, entryId: string, data: Record<string, unknown>): this {
    return this.push({ source: "transcript", type, seq: 0, entryId, data });
  }

  text(): string {
    return this.lines.map((line) => `${line}\n`).join("");
  }

  private push(fields: Record<string, unknown>): this {
    this.clock += 500;
    const { source, type, seq, ...rest } = fields;
    this.lines.push(
      JSON.stringify({
        traceSchema: "openclaw-trajectory",
        schemaVersion: 1,
        traceId: this.sessionId,
        source,
        type,
        ts: new Date(this.clock).toISOString(),
        seq,
        sessionId: this.sessionId,
        sessionKey: this.sessionKey,
        ...rest,
      }),
    );
    return this;
  }
}

/** A pi agent message as the runtime holds it in memory (and a snapshot or transcript writes it). */
export type PiMessage = Record<string, unknown>;

/**
 * The session's conversation as the runtime holds it: what each `model.completed` copies whole into
 * `messagesSnapshot`, and what the session transcript writes one entry per message. The shapes are
 * the transcript's (openclawTranscript.ts): toolCall blocks `{type, id, name, arguments}`, toolResult
 * messages `{toolCallId, toolName, content, details?, isError}`, a millisecond `timestamp` each.
 */
export class Conversation {
  readonly messages: PiMessage[] = [];
  private clock: number;

  constructor(
    start = Date.parse("2026-05-02T14:00:00.000Z"),
    private readonly model = { api: "openai-responses", provider: "openai", model: "gpt-5" },
  ) {
    this.clock = start;
  }

  user(text: string): PiMessage {
    return this.push({ role: "user", content: [{ type: "text", text }] });
  }

  assistantText(text: string): PiMessage {
    return this.assistant([{ type: "text", text }], "stop");
  }

  /** One assistant message with these calls (parallel when more than one), after an optional text. */
  calls(calls: readonly ToolCallSpec[], text?: string): PiMessage {
    const blocks = calls.map((call) => ({ type: "toolCall", id: call.id, name: call.name, arguments: call.args }));
    return this.assistant(text !== undefined ? [{ type: "text", text }, ...blocks] : blocks, "toolUse");
  }

  result(call: Pick<ToolCallSpec, "id" | "name">, outcome: ToolOutcomeSpec): PiMessage {
    const text = outcome.kind === "veto" ? (outcome.text ?? vetoText(call.name)) : outcome.text;
    const base = { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }] };
    switch (outcome.kind) {
      case "error":
        return this.push({ ...base, details: {}, isError: true });
      case "veto":
        return this.push({ ...base, details: { status: "blocked", deniedReason: "tool-loop" }, isError: true });
      case "result":
        return this.push({ ...base, ...(outcome.details ? { details: outcome.details } : {}), isError: outcome.isError ?? false });
    }
  }

  /** The conversation so far, as a snapshot copies it. */
  snapshot(): PiMessage[] {
    return this.messages.slice();
  }

  private assistant(content: unknown[], stopReason: string): PiMessage {
    return this.push({ role: "assistant", content, ...this.model, usage: { input: 1800, output: 120, cacheRead: 0, cacheWrite: 0, totalTokens: 1920 }, stopReason });
  }

  private push(message: PiMessage): PiMessage {
    this.clock += 1000;
    const stamped = { ...message, timestamp: this.clock };
    this.messages.push(stamped);
    return stamped;
  }
}

export interface AttemptSpec {
  /** The prompt; `prompt.submitted` carries it and the attempt starts with it as a user message. */
  readonly prompt: string;
  /** `trace.metadata.data.harness.version`: the OpenClaw build. */
  readonly version: string;
  readonly agentId: string;
  /** Adds the attempt's assistant messages and tool results to the conversation. */
  readonly work: (conversation: Conversation) => void;
  /** `model.completed.data.compactionCount` (the recorder's count, with no event saying when). */
  readonly compactionCount?: number;
}

/**
 * One attempt of a run as a 2026.5 runtime sidecar records it: no `tool.*` events, the calls only
 * in the `messagesSnapshot` of `model.completed` (the whole conversation, earlier runs included).
 * Event order and payloads follow the recorder: started, metadata, compiled context (the messages
 * sent, earlier runs' calls included), the prompt, the completion, the artifacts, the end.
 */
export function writeAttempt(t: TrajectoryBuilder, conversation: Conversation, runId: string, spec: AttemptSpec): void {
  t.runtime(runId, "session.started", { trigger: "user", agentId: spec.agentId, sessionKey: t.sessionKey, toolCount: 14 });
  t.runtime(runId, "trace.metadata", {
    harness: { type: "openclaw", name: "openclaw", version: spec.version, os: { platform: "linux", arch: "x64" }, runtime: { node: "v22.16.0" } },
    model: { provider: "openai", name: "gpt-5", api: "openai-responses" },
    config: { tools: { loopDetection: { enabled: true } } },
  });
  t.runtime(runId, "context.compiled", {
    systemPrompt: "You are a personal assistant running inside OpenClaw.",
    prompt: spec.prompt,
    messages: conversation.snapshot(),
    tools: ["exec", "process", "read", "edit", "web_fetch"].map((name) => ({ name })),
  });
  t.runtime(runId, "prompt.submitted", { trigger: "user", prompt: spec.prompt, imagesCount: 0 });
  const from = conversation.messages.length;
  conversation.user(spec.prompt);
  spec.work(conversation);
  const added = conversation.messages.slice(from);
  const texts = added.flatMap((m) => (m.role === "assistant" ? (m.content as Array<Record<string, unknown>>).filter((b) => b.type === "text").map((b) => b.text) : []));
  t.runtime(runId, "model.completed", {
    aborted: false,
    externalAbort: false,
    timedOut: false,
    idleTimedOut: false,
    timedOutDuringCompaction: false,
    usage: { input: 1800 * added.length, output: 120 * added.length, total: 1920 * added.length },
    compactionCount: spec.compactionCount ?? 0,
    assistantTexts: texts,
    messagesSnapshot: conversation.snapshot(),
  });
  const toolNames = added.filter((m) => m.role === "toolResult").map((m) => m.toolName);
  t.runtime(runId, "trace.artifacts", { finalStatus: "success", aborted: false, assistantTexts: texts, toolMetas: toolNames.map((toolName) => ({ toolName })) });
  t.runtime(runId, "session.ended", { status: "success", aborted: false, timedOut: false });
}
