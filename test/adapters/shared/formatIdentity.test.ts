/**
 * What identifies a run in each agent's format (issue 34 §4), read from files in the shapes those
 * agents write (the shared samples' shapes): the first user prompt, the model, how the run ended,
 * and its first and last dated entries; `null` in json where the format records none.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMain } from "../../helpers/cli.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { TrajectoryBuilder } from "../../helpers/openclawTrajectoryBuilder.js";
import { writePairedSession } from "../../helpers/pairedSession.js";
import { tempDir } from "../../helpers/tempDir.js";

const lines = (...values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join("");

async function runsOf(name: string, text: string): Promise<Array<Record<string, unknown>>> {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  const result = await runMain(["analyze", file, "--all", "-f", "json"]);
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { runs: Array<Record<string, unknown>> }).runs;
}

const CLAUDE_SESSION = "36d9e1bc-63bf-4e97-8a3e-2b20ba8583f2";

describe("run identity per format", () => {
  it("Claude Code: the prompt, message.model, the last stop_reason, first and last timestamps", async () => {
    const base = { sessionId: CLAUDE_SESSION, isSidechain: false, userType: "external", cwd: "/w", version: "2.0.24" };
    const runs = await runsOf(
      `${CLAUDE_SESSION}.jsonl`,
      lines(
        { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: "2025-10-21T20:04:22.388Z", message: { role: "user", content: "Build a Pomodoro timer" } },
        { ...base, type: "assistant", uuid: "a1", parentUuid: "u1", timestamp: "2025-10-21T20:04:30.000Z", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "tool_use", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] } },
        { ...base, type: "user", uuid: "r1", parentUuid: "a1", timestamp: "2025-10-21T20:04:31.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "index.html" }] } },
        { ...base, type: "assistant", uuid: "a2", parentUuid: "r1", timestamp: "2025-10-21T20:05:35.907Z", message: { id: "m2", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "end_turn", content: [{ type: "text", text: "Done." }] } },
      ),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ startedAt: "2025-10-21T20:04:22.388Z", endedAt: "2025-10-21T20:05:35.907Z", prompt: "Build a Pomodoro timer", model: "claude-sonnet-4-5", outcome: { kind: "stopped", reason: "end_turn" }, channel: null });
  });

  it("Codex: the user_message, the turn_context's model, an aborted turn", async () => {
    const at = (s: number) => new Date(Date.parse("2025-10-21T20:04:00.000Z") + s * 1000).toISOString();
    const runs = await runsOf(
      "rollout-2025-10-21T20-02-50-019a085e-04c1-7f81-a09e-9555f6a1fb40.jsonl",
      lines(
        { timestamp: at(0), type: "session_meta", payload: { id: "019a085e-04c1-7f81-a09e-9555f6a1fb40", timestamp: at(0), cwd: "/w", originator: "codex_cli_rs", cli_version: "0.47.0" } },
        { timestamp: at(1), type: "event_msg", payload: { type: "user_message", message: "List the files\nplease", kind: "plain" } },
        { timestamp: at(2), type: "turn_context", payload: { cwd: "/w", approval_policy: "never", model: "gpt-5-codex", summary: "auto" } },
        { timestamp: at(3), type: "response_item", payload: { type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c1" } },
        { timestamp: at(4), type: "response_item", payload: { type: "function_call_output", call_id: "c1", output: '{"output":"a.txt","metadata":{"exit_code":0}}' } },
        { timestamp: at(9), type: "event_msg", payload: { type: "turn_aborted", reason: "interrupted" } },
      ),
    );
    expect(runs[0]).toMatchObject({ startedAt: at(1), endedAt: at(9), prompt: "List the files please", model: "gpt-5-codex", outcome: { kind: "aborted" } });
  });

  it("Gemini CLI: the user content's text and the gemini messages' model", async () => {
    const runs = await runsOf(
      "session-2026-04-29T21-39-gem1.jsonl",
      lines(
        { sessionId: "gemini-s1", projectHash: "0b7d", startTime: "2026-04-29T21:39:22.319Z", lastUpdated: "2026-04-29T21:39:22.319Z", kind: "main" },
        { id: "g-user-1", timestamp: "2026-04-29T21:39:33.155Z", type: "user", content: [{ text: "Say hello and list files." }] },
        { id: "g-a-1", timestamp: "2026-04-29T21:39:45.996Z", type: "gemini", content: "Hello!", thoughts: [], model: "gemini-3-flash-preview" },
      ),
    );
    expect(runs[0]).toMatchObject({ prompt: "Say hello and list files.", model: "gemini-3-flash-preview", startedAt: "2026-04-29T21:39:33.155Z", endedAt: "2026-04-29T21:39:45.996Z" });
  });

  it("OpenHands evaluation output: the instruction, the configured model, the instance's error", async () => {
    const history = [
      { id: 1, timestamp: "2025-01-20T20:29:32.262843", source: "user", action: "message", message: "Fix the bug", args: { content: "Fix the bug" } },
      { id: 2, timestamp: "2025-01-20T20:31:00.000000", source: "agent", action: "run", message: "ls", args: { command: "ls" }, tool_call_metadata: { function_name: "execute_bash", tool_call_id: "tc1", model_response: { id: "r1" } } },
    ];
    const instance = { instance_id: "astropy__astropy-12907", instruction: "Fix the separability bug\nin astropy.modeling", metadata: { llm_config: { model: "litellm_proxy/claude-sonnet-4" } }, history, error: "Agent got stuck in a loop", test_result: {} };
    const runs = await runsOf("output.jsonl", lines(instance));
    expect(runs[0]).toMatchObject({ run: "astropy__astropy-12907#1", prompt: "Fix the separability bug in astropy.modeling", model: "litellm_proxy/claude-sonnet-4", outcome: { kind: "error", message: "Agent got stuck in a loop" } });
  });

  it("OpenClaw trajectory: the session key's channel, the prompt submitted, the model and how it completed", async () => {
    const t = new TrajectoryBuilder("9d6f3f0e-1c1b-4c55-9d0a-0d1e2f3a4b5c", "agent:main:telegram:direct:4242");
    t.runtime("run-1", "session.started")
      .runtime("run-1", "prompt.submitted", { prompt: "Open the pricing page" })
      .runtime("run-1", "tool.call", { toolCallId: "c1", name: "browser", args: { url: "https://x" } })
      .runtime("run-1", "tool.result", { toolCallId: "c1", name: "browser", result: { content: [{ type: "text", text: "ok" }] } })
      .runtime("run-1", "model.completed", { stopReason: "stop", compactionCount: 0 });
    const runs = await runsOf("9d6f3f0e-1c1b-4c55-9d0a-0d1e2f3a4b5c.trajectory.jsonl", t.text());
    expect(runs[0]).toMatchObject({ run: "run-1", channel: "telegram direct", prompt: "Open the pricing page", model: "gpt-5", outcome: { kind: "stopped", reason: "stop" }, startedAt: "2026-05-02T14:00:00.500Z", endedAt: "2026-05-02T14:00:02.500Z" });
  });

  it("OpenClaw transcript with its sidecar: the runs the transcript holds take the sidecar's channel", async () => {
    const story = nightlyBuildStory();
    const written = writePairedSession(story);
    const dir = join(tempDir(), "agents", "main", "sessions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${story.sessionId}.jsonl`), written.transcripts[0]!);
    writeFileSync(join(dir, `${story.sessionId}.trajectory.jsonl`), written.sidecar);
    const result = await runMain(["analyze", dir, "--all", "-f", "json"]);
    const runs = (JSON.parse(result.stdout) as { runs: Array<Record<string, unknown>> }).runs;
    expect(runs.map((run) => run.run)).toEqual(story.runs.map((run) => run.runId));
    for (const [i, run] of runs.entries()) expect(run).toMatchObject({ channel: "discord channel", prompt: story.runs[i]!.prompt, model: "gpt-5" });
  });
});
