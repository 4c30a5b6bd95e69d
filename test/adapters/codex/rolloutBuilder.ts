/**
 * Writes Codex CLI rollouts in the shapes of real builds, for the tests and the fixtures:
 * - "0.47": no turn ids, `output` a JSON string `{"output","metadata":{"exit_code","duration_seconds"}}`,
 *   a `turn_context` after each step (as the real 0.47.0 rollout);
 * - "0.146": `task_started`/`turn_context`/`task_complete` with `turn_id`, content-item outputs,
 *   `exec_command_end` before a shell output, `metadata.turn_id` on items (as the 0.146 schema fixture).
 */
export type RolloutStyle = "0.47" | "0.146";

export interface OutputSpec {
  readonly text: string;
  /** A shell's exit code (0.47: in the envelope's metadata; 0.146: in an `exec_command_end`). */
  readonly exitCode?: number;
}

export interface CallSpec {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  /** `custom_tool_call` with a freeform `input` (apply_patch) instead of a `function_call`. */
  readonly custom?: boolean;
}

export interface SubAgentSpec {
  readonly parent: string;
  readonly nickname: string;
}

const TS = "2026-01-02T03:04:05.000Z";

export class RolloutBuilder {
  private readonly lines: string[] = [];
  private turn = 0;
  private turnId: string | undefined;
  private wall = 0;

  constructor(
    readonly sessionId: string,
    readonly style: RolloutStyle,
    subAgent?: SubAgentSpec,
  ) {
    const source = subAgent ? { subagent: { thread_spawn: { parent_thread_id: subAgent.parent, depth: 1, agent_nickname: subAgent.nickname, agent_role: "worker" } } } : "cli";
    this.push("session_meta", { id: sessionId, timestamp: TS, cwd: "/tmp/w", originator: "codex_cli_rs", cli_version: style === "0.47" ? "0.47.0" : "0.146.0", source });
  }

  /** The turn id the n-th turn (from 1) of this session gets in the 0.146 style. */
  static turnId(sessionId: string, n: number): string {
    return `${sessionId}-turn-${n}`;
  }

  push(type: string, payload: unknown, extra: Record<string, unknown> = {}): this {
    this.lines.push(JSON.stringify({ timestamp: TS, ...extra, type, payload }));
    return this;
  }

  raw(text: string): this {
    this.lines.push(text);
    return this;
  }

  private meta(): Record<string, unknown> {
    return this.turnId === undefined ? {} : { metadata: { turn_id: this.turnId } };
  }

  userTurn(text: string): this {
    this.turn++;
    if (this.style === "0.47") {
      this.push("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
      this.push("event_msg", { type: "user_message", message: text, kind: "plain" });
      return this.push("turn_context", { cwd: "/tmp/w", approval_policy: "never", model: "gpt-5-codex" });
    }
    this.turnId = RolloutBuilder.turnId(this.sessionId, this.turn);
    this.push("event_msg", { type: "user_message", message: text, images: [] });
    this.push("event_msg", { type: "task_started", turn_id: this.turnId, started_at: TS });
    this.push("turn_context", { turn_id: this.turnId, cwd: "/tmp/w", model: "gpt-5.6" });
    return this.push("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }], ...this.meta() });
  }

  endTurn(aborted = false): this {
    this.push("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }], ...this.meta() });
    if (this.style === "0.47" || this.turnId === undefined) return this;
    return this.push("event_msg", aborted ? { type: "turn_aborted", turn_id: this.turnId, reason: "interrupted" } : { type: "task_complete", turn_id: this.turnId, last_agent_message: "done", duration_ms: 5 });
  }

  call(spec: CallSpec): this {
    if (spec.custom) {
      const input = typeof spec.args === "string" ? spec.args : JSON.stringify(spec.args);
      return this.push("response_item", { type: "custom_tool_call", status: "completed", call_id: spec.id, name: spec.name, input, ...this.meta() });
    }
    return this.push("response_item", { type: "function_call", name: spec.name, arguments: JSON.stringify(spec.args), call_id: spec.id, ...this.meta() });
  }

  output(call: CallSpec, out: OutputSpec): this {
    const type = call.custom ? "custom_tool_call_output" : "function_call_output";
    if (this.style === "0.47") {
      // Durations differ from one identical call to the next: they must not reach the hash.
      const output = out.exitCode === undefined ? out.text : JSON.stringify({ output: out.text, metadata: { exit_code: out.exitCode, duration_seconds: ++this.wall / 10 } });
      return this.push("response_item", { type, call_id: call.id, output });
    }
    if (out.exitCode !== undefined) {
      this.push("event_msg", { type: "exec_command_end", call_id: call.id, turn_id: this.turnId, command: ["bash", "-lc", "x"], aggregated_output: out.text, exit_code: out.exitCode, duration: { secs: 0, nanos: ++this.wall }, status: out.exitCode === 0 ? "completed" : "failed" });
    }
    return this.push("response_item", { type, call_id: call.id, output: [{ type: "input_text", text: out.text }], ...this.meta() });
  }

  compaction(): this {
    this.push("compacted", { message: "summary", replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: "old" }] }], window_number: 2 });
    return this.push("event_msg", { type: "context_compacted" });
  }

  /** Lines replay does not need: reasoning, token counts, an agent message. */
  noise(): this {
    this.push("response_item", { type: "reasoning", summary: [], encrypted_content: "x", ...this.meta() });
    this.push("event_msg", { type: "token_count", info: null });
    return this.push("event_msg", { type: "agent_reasoning", text: "thinking" });
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}
