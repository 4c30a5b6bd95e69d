/**
 * Writes Gemini CLI chat recordings in the shapes of the real files (agents.md A3): a metadata
 * line, message records, a `gemini` message re-appended whole as its tool calls update, `$set`,
 * `$rewindTo`; or the legacy single `.json` document (`JSON.stringify(…, null, 2)`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../../helpers/tempDir.js";

export type OutcomeSpec =
  | { readonly kind: "result"; readonly output: string; readonly extra?: Record<string, unknown> }
  | { readonly kind: "error"; readonly error: string }
  | { readonly kind: "cancelled" }
  | { readonly kind: "pending"; readonly status: "scheduled" | "executing" | "awaiting_approval" | "validating" };

export interface CallSpec {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly outcome: OutcomeSpec;
}

const STATUS = { result: "success", error: "error", cancelled: "cancelled" } as const;

function callRecord(call: CallSpec, ts: string, status?: string): Record<string, unknown> {
  const base = { id: call.id, name: call.name, args: call.args };
  const { outcome } = call;
  if (status !== undefined || outcome.kind === "pending") return { ...base, status: status ?? (outcome as { status: string }).status, timestamp: ts };
  const response =
    outcome.kind === "result" ? { output: outcome.output, ...outcome.extra } : outcome.kind === "error" ? { error: outcome.error } : { error: "[Operation Cancelled] Reason: User cancelled the operation." };
  return {
    ...base,
    result: [{ functionResponse: { id: call.id, name: call.name, response } }],
    status: STATUS[outcome.kind],
    timestamp: ts,
    ...(outcome.kind === "error" ? { resultDisplay: outcome.error } : {}),
    displayName: call.name,
    description: `runs ${call.name}`,
    renderOutputAsMarkdown: false,
  };
}

export class GeminiRecording {
  private readonly records: string[] = [];
  /** The last copy of each message, in order of first appearance (what the legacy document holds). */
  private readonly messages = new Map<string, Record<string, unknown>>();
  private counter = 0;
  private clock = Date.UTC(2026, 3, 29, 21, 39, 22);

  constructor(
    readonly sessionId: string,
    private readonly kind: "main" | "subagent" = "main",
  ) {}

  private ts(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private metadata(): Record<string, unknown> {
    return { sessionId: this.sessionId, projectHash: "0b7dfb1274ee51b3", startTime: "2026-04-29T21:39:22.319Z", lastUpdated: new Date(this.clock).toISOString(), kind: this.kind };
  }

  private push(message: Record<string, unknown>): void {
    this.messages.set(message.id as string, message);
    this.records.push(JSON.stringify(message));
  }

  raw(line: string): this {
    this.records.push(line);
    return this;
  }

  user(text: string): string {
    const id = `u-${++this.counter}`;
    this.push({ id, timestamp: this.ts(), type: "user", content: [{ text }] });
    this.records.push(JSON.stringify({ $set: { lastUpdated: new Date(this.clock).toISOString() } }));
    return id;
  }

  info(text: string): this {
    this.push({ id: `i-${++this.counter}`, timestamp: this.ts(), type: "info", content: text });
    return this;
  }

  /**
   * A model message with these calls; `updates` re-appends it that many times first with the calls
   * still `scheduled` / `executing` (as Gemini does while they run), then once with their outcomes.
   */
  gemini(calls: readonly CallSpec[], updates = 0): string {
    const id = `g-${++this.counter}`;
    const ts = this.ts();
    const message = (status?: string) => ({ id, timestamp: ts, type: "gemini", content: "", thoughts: [], tokens: { input: 100, output: 10, total: 110 }, model: "gemini-3-flash-preview", toolCalls: calls.map((c) => callRecord(c, ts, status)) });
    for (let i = 0; i < updates; i++) this.push(message(i % 2 === 0 ? "scheduled" : "executing"));
    this.push(calls.length === 0 ? { id, timestamp: ts, type: "gemini", content: "Done." } : message());
    return id;
  }

  rewindTo(id: string): this {
    this.records.push(JSON.stringify({ $rewindTo: id }));
    return this;
  }

  /** History compression as it shows in the file: the message list rewritten, shorter. */
  compress(): this {
    const kept = [...this.messages.values()].slice(-2);
    this.records.push(JSON.stringify({ $set: { messages: [{ id: `summary-${++this.counter}`, timestamp: this.ts(), type: "user", content: [{ text: "<state_snapshot>…</state_snapshot>" }] }, ...kept] } }));
    return this;
  }

  jsonl(): string {
    return [JSON.stringify(this.metadata()), ...this.records].join("\n") + "\n";
  }

  /** The legacy `.json` form: one document, the last copy of each message. */
  legacy(): string {
    const { kind: _kind, ...metadata } = this.metadata();
    return JSON.stringify({ ...metadata, messages: [...this.messages.values()] }, null, 2);
  }
}

/** Writes `content` under a fresh `<tmp>/.gemini/tmp/proj/chats/` as `relPath`. */
export function writeChat(content: string | Buffer, relPath = "session-2026-04-29T21-39-abcd1234.jsonl"): string {
  const path = join(tempDir("looplens-gemini-"), ".gemini", "tmp", "proj", "chats", relPath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
