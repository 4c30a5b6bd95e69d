/**
 * Writes abstract agent sessions in OpenHands' real shapes (V0 trajectory / event files, V1 SDK
 * events one per line) and as the canonical events the detectors should see, from the same
 * description, so that a mistake in the adapter shows up as a difference in findings.
 */
export type Outcome = { readonly kind: "result"; readonly text: string; readonly details: Record<string, unknown> } | { readonly kind: "error"; readonly text: string };

export interface CallSpec {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** `undefined`: the call never got a result. */
  readonly outcome: Outcome | undefined;
}

export type Step =
  | { readonly kind: "calls"; readonly calls: readonly CallSpec[]; readonly reversedResults: boolean }
  | { readonly kind: "unknownTool"; readonly tool: string; readonly args: Record<string, unknown> }
  | { readonly kind: "compaction" }
  | { readonly kind: "noise" };

export interface AbstractSession {
  readonly id: string;
  readonly runs: ReadonlyArray<readonly Step[]>;
}

const V0_UNKNOWN = (tool: string, args: unknown) => `Tool ${tool} is not registered. (arguments: ${JSON.stringify(args)}). Please check the tool name and retry with an existing tool.`;
const V1_UNKNOWN = (tool: string) => `Tool '${tool}' not found. Available: ['terminal', 'file_editor']`;

/** The `n`th second after `start`, as OpenHands writes times: no zone, microseconds. */
function zonelessTime(start: number, n: number): string {
  return new Date(start + n * 1000).toISOString().replace(/Z$/, "000");
}

/** V0 events: actions with tool_call_metadata, observations by `cause`, ids counting from 0. */
export function v0Events(session: AbstractSession): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  let response = 0;
  const push = (event: Record<string, unknown>) => {
    const id = events.length;
    events.push({ id, timestamp: zonelessTime(Date.parse("2025-01-20T20:29:00Z"), id), ...event });
    return id;
  };
  push({ source: "environment", message: "", observation: "agent_state_changed", content: "", extras: { agent_state: "loading" } });
  session.runs.forEach((steps, r) => {
    const user = push({ source: "user", message: `task ${r}`, action: "message", args: { content: `task ${r}`, image_urls: [], wait_for_response: false } });
    push({ source: "user", message: "No observation", cause: user, observation: "null", content: "", extras: {} });
    for (const step of steps) {
      if (step.kind === "noise") push({ source: "agent", message: "thinking", action: "message", args: { content: "thinking", image_urls: null, wait_for_response: false } });
      if (step.kind === "compaction") push({ source: "agent", message: "Summary", action: "condensation", args: { forgotten_event_ids: null, forgotten_events_start_id: 1, forgotten_events_end_id: 2, summary: "so far", summary_offset: 1 } });
      if (step.kind === "unknownTool") push({ source: "agent", message: V0_UNKNOWN(step.tool, step.args), observation: "error", content: V0_UNKNOWN(step.tool, step.args), extras: { error_id: "" } });
      if (step.kind !== "calls") continue;
      const responseId = `chatcmpl-${++response}`;
      const ids = step.calls.map((_, k) => `toolu_${response}_${k}`);
      const modelResponse = {
        id: responseId,
        choices: [{ finish_reason: "tool_calls", index: 0, message: { role: "assistant", content: "", tool_calls: step.calls.map((c, k) => ({ index: k, id: ids[k], type: "function", function: { name: c.tool, arguments: JSON.stringify(c.args) } })) } }],
        usage: { prompt_tokens: 10 + response, completion_tokens: 5 },
      };
      const actionIds = step.calls.map((c, k) =>
        push({
          source: "agent",
          message: `Running ${c.tool}`,
          action: c.tool === "execute_bash" ? "run" : "edit",
          tool_call_metadata: { function_name: c.tool, tool_call_id: ids[k], model_response: modelResponse, total_calls_in_response: step.calls.length },
          args: { ...c.args, thought: `thought ${events.length}`, confirmation_state: "confirmed" },
        }),
      );
      const order = step.calls.map((_, k) => k);
      if (step.reversedResults) order.reverse();
      for (const k of order) {
        const call = step.calls[k]!;
        if (!call.outcome) continue;
        const metadata = { function_name: call.tool, tool_call_id: ids[k], model_response: modelResponse, total_calls_in_response: step.calls.length };
        if (call.outcome.kind === "error") push({ source: "agent", message: call.outcome.text, cause: actionIds[k], observation: "error", tool_call_metadata: metadata, content: call.outcome.text, extras: { error_id: "" } });
        else push({ source: "agent", message: "done", cause: actionIds[k], observation: "run", tool_call_metadata: metadata, content: call.outcome.text, extras: { ...call.outcome.details, metadata: { exit_code: 0, pid: 100 + events.length, hostname: `h${events.length}` } }, success: true });
      }
    }
    push({ source: "environment", message: "", observation: "agent_state_changed", content: "", extras: { agent_state: "awaiting_user_input" } });
  });
  return events;
}

/** A V0 trajectory as OpenHands saves it: a JSON array, indent 2. */
export function v0Trajectory(session: AbstractSession): string {
  return JSON.stringify(v0Events(session), null, 2) + "\n";
}

/** V1 SDK events, one per line. */
export function v1Jsonl(session: AbstractSession): string {
  const lines: string[] = [];
  let n = 0;
  const push = (event: Record<string, unknown>) => {
    const id = `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
    lines.push(JSON.stringify({ id, timestamp: zonelessTime(Date.parse("2026-06-16T05:39:00Z"), n), ...event }));
    return id;
  };
  push({ source: "environment", key: "execution_status", value: "running", kind: "ConversationStateUpdateEvent" });
  session.runs.forEach((steps, r) => {
    push({ source: "user", llm_message: { role: "user", content: [{ type: "text", text: `task ${r}` }] }, activated_skills: [], kind: "MessageEvent" });
    let response = 0;
    for (const step of steps) {
      if (step.kind === "noise") push({ source: "environment", key: "stats", value: { n }, kind: "ConversationStateUpdateEvent" });
      if (step.kind === "compaction") push({ source: "environment", forgotten_event_ids: [], summary: "so far", summary_offset: 1, llm_response_id: `cond-${n}`, kind: "Condensation" });
      if (step.kind === "unknownTool") {
        const callId = `call-u-${n}`;
        push({ source: "agent", thought: [], action: null, tool_name: step.tool, tool_call_id: callId, tool_call: { id: callId, name: step.tool, arguments: JSON.stringify(step.args), origin: "completion" }, llm_response_id: `resp-${r}-${++response}`, kind: "ActionEvent" });
        push({ source: "agent", tool_name: step.tool, tool_call_id: callId, error: V1_UNKNOWN(step.tool), kind: "AgentErrorEvent" });
      }
      if (step.kind !== "calls") continue;
      const responseId = `resp-${r}-${++response}`;
      const ids = step.calls.map((c, k) => `call-${n}-${k}`);
      const actionIds = step.calls.map((c, k) =>
        push({ source: "agent", thought: [{ type: "text", text: `t${n}` }], action: { ...c.args, kind: "TerminalAction" }, tool_name: c.tool, tool_call_id: ids[k], tool_call: { id: ids[k], name: c.tool, arguments: JSON.stringify(c.args), origin: "completion" }, llm_response_id: responseId, kind: "ActionEvent" }),
      );
      const order = step.calls.map((_, k) => k);
      if (step.reversedResults) order.reverse();
      for (const k of order) {
        const call = step.calls[k]!;
        if (!call.outcome) continue;
        const failed = call.outcome.kind === "error";
        const details = call.outcome.kind === "result" ? call.outcome.details : {};
        push({
          source: "environment",
          tool_name: call.tool,
          tool_call_id: ids[k],
          observation: { content: [{ type: "text", text: call.outcome.text }], is_error: failed, ...details, metadata: { pid: n, exit_code: failed ? 1 : 0 }, kind: "TerminalObservation" },
          action_id: actionIds[k],
          kind: "ObservationEvent",
        });
      }
    }
  });
  return lines.join("\n") + "\n";
}

/** The canonical events the adapter should give for the session, in either version. */
export function canonicalText(session: AbstractSession, version: "v0" | "v1"): string {
  const lines: string[] = [];
  session.runs.forEach((steps, r) => {
    const base = { run: `${session.id}#${r + 1}`, session: session.id, agent: "openhands" };
    lines.push(JSON.stringify({ type: "run_start", ...base }));
    let compacted = false;
    for (const step of steps) {
      if (step.kind === "compaction" && !compacted) lines.push(JSON.stringify({ type: "compaction", ...base }));
      if (step.kind !== "noise") compacted = step.kind === "compaction";
      if (step.kind === "unknownTool") {
        const id = `u${lines.length}`;
        const args = version === "v1" ? { args: step.args } : {};
        const text = version === "v1" ? V1_UNKNOWN(step.tool) : V0_UNKNOWN(step.tool, step.args);
        lines.push(JSON.stringify({ type: "tool_call", ...base, id, tool: step.tool, format: "openhands", ...args }));
        lines.push(JSON.stringify({ type: "tool_result", ...base, id, tool: step.tool, error: text, unknownTool: step.tool.toLowerCase() }));
      }
      if (step.kind !== "calls") continue;
      for (const call of step.calls) {
        const id = `c${lines.length}`;
        lines.push(JSON.stringify({ type: "tool_call", ...base, id, tool: call.tool, format: "openhands", args: call.args }));
        if (!call.outcome) continue;
        lines.push(JSON.stringify({ type: "tool_result", ...base, id, tool: call.tool, ...canonicalOutcome(call.outcome, version) }));
      }
    }
  });
  return lines.join("\n") + "\n";
}

function canonicalOutcome(outcome: Outcome, version: "v0" | "v1"): Record<string, unknown> {
  if (outcome.kind === "error") return { error: outcome.text };
  const details = version === "v0" ? { ...outcome.details, metadata: { exit_code: 0 } } : { is_error: false, ...outcome.details, metadata: { exit_code: 0 }, kind: "TerminalObservation" };
  return { result: { content: [{ type: "text", text: outcome.text }], details } };
}
