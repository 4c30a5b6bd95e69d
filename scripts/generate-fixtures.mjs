// Regenerates the hand-designed canonical-event fixtures in fixtures/ (run from the project root).
// Each block documents the scenario its file shows; tests assert the exact findings of each file.
import { writeFileSync } from "node:fs";
const w = (name, lines) => writeFileSync(`fixtures/${name}`, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
const text = (t, details = {}) => ({ content: [{ type: "text", text: t }], details });
const veto = { content: [{ type: "text", text: "blocked: tool loop" }], details: { status: "blocked", deniedReason: "tool-loop" } };

// poll-loop: command_status polled with no progress; the live runtime vetoed calls 21-22.
{
  const run = "poll-1", base = { run, session: "sess-poll", agent: "main" };
  const l = [{ type: "run_start", ...base }];
  for (let i = 1; i <= 22; i++) {
    l.push({ type: "tool_call", ...base, id: `p${i}`, tool: "command_status", args: { commandId: "build-42" } });
    l.push({ type: "tool_result", ...base, id: `p${i}`, tool: "command_status", result: i <= 20 ? text("status: running", { status: "running", commandId: "build-42" }) : veto });
  }
  l.push({ type: "run_end", ...base });
  w("poll-loop.jsonl", l);
}
// ping-pong: alternating between two reads that never change.
{
  const run = "pingpong-1", base = { run, session: "sess-pp", agent: "main" };
  const l = [{ type: "run_start", ...base }];
  for (let i = 1; i <= 20; i++) {
    const path = i % 2 ? "src/a.ts" : "src/b.ts";
    l.push({ type: "tool_call", ...base, id: `r${i}`, tool: "read", args: { path } });
    l.push({ type: "tool_result", ...base, id: `r${i}`, tool: "read", result: text(`contents of ${path}`) });
  }
  l.push({ type: "run_end", ...base });
  w("ping-pong.jsonl", l);
}
// unknown-tool: the model keeps calling a tool that does not exist.
{
  const run = "unknown-1", base = { run, session: "sess-unknown", agent: "main" };
  const l = [{ type: "run_start", ...base }];
  for (let i = 1; i <= 11; i++) {
    l.push({ type: "tool_call", ...base, id: `u${i}`, tool: "browser", args: { url: "https://example.com", step: i } });
    l.push({ type: "tool_result", ...base, id: `u${i}`, tool: "browser", error: "Unknown tool: browser" });
  }
  l.push({ type: "run_end", ...base });
  w("unknown-tool.jsonl", l);
}
// compaction-loop: the same failing read before and after a compaction (aborts); a second run recovers.
{
  const l = [];
  const stuck = { run: "compact-stuck", session: "sess-compact", agent: "main" };
  l.push({ type: "run_start", ...stuck });
  let n = 0;
  const read = (base) => {
    n++;
    l.push({ type: "tool_call", ...base, id: `k${n}`, tool: "read", args: { path: "/ws/ROADMAP.md" } });
    l.push({ type: "tool_result", ...base, id: `k${n}`, tool: "read", error: "ENOENT: no such file or directory, open '/ws/ROADMAP.md'" });
  };
  for (let i = 0; i < 3; i++) read(stuck);
  l.push({ type: "compaction", ...stuck });
  for (let i = 0; i < 3; i++) read(stuck);
  l.push({ type: "run_end", ...stuck });
  const ok = { run: "compact-recovers", session: "sess-compact", agent: "main" };
  l.push({ type: "run_start", ...ok });
  for (let i = 0; i < 2; i++) read(ok);
  l.push({ type: "compaction", ...ok });
  for (const [i, path] of ["/ws/README.md", "/ws/docs/ROADMAP.md", "/ws/docs/PLAN.md"].entries()) {
    l.push({ type: "tool_call", ...ok, id: `ok${i}`, tool: "read", args: { path } });
    l.push({ type: "tool_result", ...ok, id: `ok${i}`, tool: "read", result: text(`contents of ${path}`) });
  }
  l.push({ type: "run_end", ...ok });
  w("compaction-loop.jsonl", l);
}
// generic-repeat: the same exec again and again; outputs differ, so it warns but never blocks.
{
  const run = "exec-retry", base = { run, session: "sess-exec", agent: "main" };
  const l = [{ type: "run_start", ...base }];
  for (let i = 1; i <= 12; i++) {
    l.push({ type: "tool_call", ...base, id: `e${i}`, tool: "exec", args: { command: "npm test" } });
    l.push({ type: "tool_result", ...base, id: `e${i}`, tool: "exec", result: text(`${40 + i} passed, 1 failed`, { status: "failed", exitCode: 1, aggregated: `${40 + i} passed, 1 failed`, durationMs: 5000 + i, pid: 4000 + i }) });
  }
  l.push({ type: "run_end", ...base });
  w("generic-repeat.jsonl", l);
}
// healthy: a normal run: varied calls, an exec whose duration changes but output does not, a send.
{
  const run = "healthy-1", base = { run, session: "sess-ok", agent: "main" };
  const l = [{ type: "run_start", ...base }];
  const steps = [
    ["read", { path: "package.json" }, text("{\"name\":\"demo\"}")],
    ["exec", { command: "npm test" }, text("42 passed", { status: "completed", exitCode: 0, aggregated: "42 passed", durationMs: 5120, pid: 311 })],
    ["edit", { path: "src/index.ts", oldText: "a", newText: "b" }, text("edited")],
    ["exec", { command: "npm test" }, text("43 passed", { status: "completed", exitCode: 0, aggregated: "43 passed", durationMs: 4980, pid: 312 })],
    ["message", { action: "send", to: "telegram:123", text: "tests pass" }, text("sent", { ok: true, messageId: "m-1", ts: 1777626001 })],
  ];
  steps.forEach(([tool, args, result], i) => {
    l.push({ type: "tool_call", ...base, id: `h${i + 1}`, tool, args });
    l.push({ type: "tool_result", ...base, id: `h${i + 1}`, tool, result });
  });
  l.push({ type: "run_end", ...base });
  w("healthy.jsonl", l);
}
