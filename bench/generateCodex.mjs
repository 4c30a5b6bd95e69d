// Codex CLI rollouts for the benchmark (agents.md A2), from the abstract session model of
// bench/generate.mjs, in the shape of the real 0.47.0 rollout: a `session_meta` with long base
// instructions, per run a `user_message` event, `turn_context`, reasoning items (summaries and
// long `encrypted_content`), `token_count` events, `function_call` items with JSON-string
// `arguments` and `function_call_output` items whose `output` is the JSON string
// `{"output":…,"metadata":{"exit_code":…,"duration_seconds":…}}`, apply_patch as a
// `custom_tool_call` with a freeform patch, agent messages. Non-ASCII text is written raw, as Codex's
// serializer does, so most lines take the byte path.

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function opaque(r, length) {
  let out = "gAAAAAB";
  for (let i = 0; i < length; i++) out += BASE64URL[(r.next() * 64) | 0];
  return out;
}

/** Where Codex writes a rollout: `sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`. */
export function codexRolloutPath(index, sessionId) {
  const day = String(1 + (index % 28)).padStart(2, "0");
  return { dir: ["sessions", "2026", "05", day], name: `rollout-2026-05-${day}T09-${String(index % 60).padStart(2, "0")}-00-${sessionId}.jsonl` };
}

/** A call of the model as Codex writes it: the tool it names and the item carrying its arguments. */
function callItem(c) {
  const call_id = c.id;
  if (c.tool === "exec") {
    return { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", c.args.command], workdir: c.args.workdir ?? "/home/u/ws", timeout_ms: 120_000 }), call_id };
  }
  if (c.tool === "edit" || c.tool === "write") {
    const body = c.tool === "edit" ? `@@\n-${c.args.oldText}\n+${c.args.newText}` : `+${c.args.content}`;
    return { type: "custom_tool_call", status: "completed", call_id, name: "apply_patch", input: `*** Begin Patch\n*** ${c.tool === "edit" ? "Update" : "Add"} File: ${c.args.path}\n${body}\n*** End Patch` };
  }
  return { type: "function_call", name: c.tool, arguments: JSON.stringify(c.args), call_id };
}

function outputItem(c, r) {
  const o = c.outcome;
  const failed = o.kind === "error" || o.details?.exitCode === 1;
  const output = JSON.stringify({ output: o.text, metadata: { exit_code: failed ? 1 : 0, duration_seconds: r.int(0, 90_000) / 1000 } });
  return { type: c.tool === "edit" || c.tool === "write" ? "custom_tool_call_output" : "function_call_output", call_id: c.id, output };
}

export function* codexLines(session, r) {
  let clock = Date.UTC(2026, 4, 1, 9);
  const line = (type, payload) => {
    clock += r.int(50, 8000);
    return { timestamp: new Date(clock).toISOString(), type, payload };
  };
  const instructions = Array.from({ length: 40 }, (_, i) => `Rule ${i}: keep edits small, run the tests, explain what changed — “précis”.`).join("\n");
  yield line("session_meta", { id: session.id, timestamp: new Date(clock).toISOString(), cwd: "/home/u/ws", originator: "codex_cli_rs", cli_version: "0.47.0", instructions, source: "cli" });
  const turnContext = () => line("turn_context", { cwd: "/home/u/ws", approval_policy: "never", sandbox_policy: { mode: "danger-full-access" }, model: "gpt-5-codex", summary: "auto" });
  const tokens = () => line("event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: r.int(1000, 200_000), output_tokens: r.int(10, 9000) } }, rate_limits: { primary: { used_percent: r.int(0, 100), window_minutes: 299 } } });
  for (const run of session.runs()) {
    yield line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: run.prompt }] });
    yield line("event_msg", { type: "user_message", message: run.prompt, kind: "plain" });
    yield turnContext();
    for (const [t, turn] of run.turns.entries()) {
      if (t === run.compactionBeforeTurn) {
        yield line("compacted", { message: run.compactionSummary });
        yield line("event_msg", { type: "context_compacted" });
      }
      yield tokens();
      if (turn.thinking !== undefined) {
        const summary = turn.thinking.slice(0, 200);
        yield line("event_msg", { type: "agent_reasoning", text: summary });
        yield line("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: summary }], content: null, encrypted_content: opaque(r, turn.signature.length * 2) });
      }
      if (turn.text !== undefined) yield line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: turn.text }] });
      for (const c of turn.calls) yield line("response_item", callItem(c));
      for (const c of turn.calls) yield line("response_item", outputItem(c, r));
      yield turnContext();
    }
    yield line("event_msg", { type: "agent_message", message: run.finalText });
    yield line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: run.finalText }] });
    yield tokens();
  }
}
