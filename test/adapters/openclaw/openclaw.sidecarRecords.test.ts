/**
 * Runtime sidecar snapshots beside the other records of the same calls, and what a snapshot holds
 * that is no plain call and result: results whose call no snapshot holds (inputs.md §2 "A result
 * with no call"), unusable messages, a snapshot outside any run.
 */
import { describe, expect, it } from "vitest";
import type { Analysis } from "../../../src/pipeline/analysis.js";
import { runMain } from "../../helpers/cli.js";
import { analyzePaths, verdicts, writeSessionFile } from "../../helpers/inProcess.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { Conversation, TrajectoryBuilder, writeAttempt } from "../../helpers/openclawTrajectoryBuilder.js";
import { transcriptEventsText, writeStory } from "../../helpers/runtimeSidecar.js";

const reasons = (analysis: Analysis) => analysis.diagnostics.map((d) => [d.line, d.reason]);
const calls = (analysis: Analysis) => analysis.runs.map((r) => [r.run, r.calls]);

async function analyze(text: string, name = "s-1.trajectory.jsonl"): Promise<Analysis> {
  const analysis = await analyzePaths([writeSessionFile(text, name)]);
  const { read, used, ignored, skipped } = analysis.lines;
  expect(read).toBe(used + ignored + skipped);
  return analysis;
}

describe("snapshots beside other records of the same calls", () => {
  it("runtime tool events are the record: snapshot copies of their calls are ignored", async () => {
    const write = (withSnapshot: boolean) => {
      const t = new TrajectoryBuilder("s-1", "agent:main:main");
      const c = new Conversation();
      t.runtime("r1", "session.started", { trigger: "user", agentId: "main" });
      t.runtime("r1", "prompt.submitted", { prompt: "Summarise my notes." });
      c.user("Summarise my notes.");
      for (let i = 1; i <= 11; i++) {
        const call = { id: `c${i}`, name: "read", args: { path: "notes.md" } };
        t.runtime("r1", "tool.call", { toolCallId: call.id, name: call.name, args: call.args });
        t.runtime("r1", "tool.result", { toolCallId: call.id, name: call.name, success: true, result: { content: [{ type: "text", text: "same" }] } });
        c.calls([call]);
        c.result(call, { kind: "result", text: "same" });
      }
      t.runtime("r1", "model.completed", withSnapshot ? { compactionCount: 0, messagesSnapshot: c.snapshot() } : { compactionCount: 0 });
      t.runtime("r1", "session.ended", { status: "success" });
      return t.text();
    };
    const plain = await analyze(write(false));
    const copied = await analyze(write(true));
    expect(calls(copied)).toEqual([["r1", 11]]);
    expect(verdicts(copied)).toEqual([["r1", 11, "generic_repeat", "warning", 10]]);
    expect(verdicts(copied)).toEqual(verdicts(plain));
    expect(copied.lines).toEqual(plain.lines);
    expect(copied.diagnostics).toEqual([]);
  });

  it("an export bundle of a 2026.5 session: its transcript events are replayed, the snapshots not again", async () => {
    const story = nightlyBuildStory();
    const written = writeStory(story);
    const alone = await analyze(written.sidecar, `${story.sessionId}.trajectory.jsonl`);
    const bundle = await analyze(written.sidecar + transcriptEventsText(story, written), "events.jsonl");
    expect(calls(bundle)).toEqual(calls(alone));
    expect(verdicts(bundle)).toEqual(verdicts(alone));
    // Transcript events used: per run its bootstrap and prompt, every call and result (assistant
    // messages are ignored). The runtime's prompt.submitted and model.completed lines no longer
    // replay anything: ignored, one pair per run.
    const messages = written.runs.flatMap((run) => run.messages);
    const blocks = messages.flatMap((m) => (m.role === "assistant" ? (m.content as Array<{ type: string }>).filter((b) => b.type === "toolCall") : []));
    const results = messages.filter((m) => m.role === "toolResult").length;
    const assistants = messages.filter((m) => m.role === "assistant").length;
    const runs = written.runs.length;
    expect(bundle.lines).toEqual({
      read: alone.lines.read + runs + messages.length + blocks.length,
      // Per run, prompt.submitted and model.completed stop being used; bootstrap and user start.
      used: alone.lines.used - 2 * runs + (2 * runs + blocks.length + results),
      ignored: alone.lines.ignored + 2 * runs + assistants,
      skipped: 0,
    });
    expect(bundle.diagnostics).toEqual([]);
  });
});

describe("what else a snapshot holds", () => {
  /**
   * A local model whose provider keeps only the results of its calls to a tool the agent lacks: 6
   * in the first attempt, 5 more in the retry (whose snapshot repeats the first 6), and beside them
   * one result of no call that is not an unknown-tool error.
   */
  function orphans(): string {
    const t = new TrajectoryBuilder("s-1", "agent:local:main");
    const c = new Conversation();
    let n = 0;
    const browse = (count: number) => () => {
      for (let i = 0; i < count; i++) c.result({ id: `call_browser_${++n}`, name: "browser" }, { kind: "error", text: "Tool browser not found" });
    };
    const attempt = { prompt: "Open the pricing page.", version: "2026.5.2", agentId: "local" };
    writeAttempt(t, c, "run-local", {
      ...attempt,
      work: (conversation) => {
        browse(6)();
        conversation.result({ id: "call_read_9", name: "read" }, { kind: "result", text: "notes" });
      },
    });
    writeAttempt(t, c, "run-local", { ...attempt, work: browse(5) });
    return t.text();
  }

  it("results of an unknown tool with no call are replayed as calls with absent arguments, once; other such results are not", async () => {
    const analysis = await analyze(orphans());
    expect(calls(analysis)).toEqual([["run-local", 11]]);
    // Ten identical unavailable-tool failures, then the 11th attempt is what the live guard blocks.
    expect(verdicts(analysis)).toEqual([["run-local", 11, "unknown_tool_repeat", "critical", 10]]);
    expect(reasons(analysis)).toEqual([[5, 'toolResult "call_read_9" of a call no snapshot holds; not replayed']]);
    // The summary counts the rebuilt calls.
    expect(analysis.transcript.reconstructedCalls).toBe(11);
    // Both model.completed lines added calls.
    expect(analysis.lines).toEqual({ read: 14, used: 8, ignored: 6, skipped: 0 });
    const events = await runMain(["events", writeSessionFile(orphans(), "s-1.trajectory.jsonl")]);
    const rebuilt = events.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.type === "tool_call");
    expect(rebuilt.map((e) => [e.id, e.tool, "args" in e])).toEqual(Array.from({ length: 11 }, (_, i) => [`call_browser_${i + 1}`, "browser", false]));
  });

  it("unusable messages are noted, and a snapshot outside any run is skipped", async () => {
    const t = new TrajectoryBuilder("s-1", "agent:main:main");
    const event = (fields: Record<string, unknown>) => JSON.stringify({ traceSchema: "openclaw-trajectory", schemaVersion: 1, sessionId: "s-1", ...fields });
    const snapshot = (messages: unknown[]) => ({ compactionCount: 1, messagesSnapshot: messages });
    const call = { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } }], timestamp: 1 };
    t.runtime("r1", "session.started", { trigger: "user" });
    t.runtime("r1", "model.completed", snapshot([42, call, { role: "assistant", content: [{ type: "toolCall", id: "c2", arguments: {} }], timestamp: 2 }, { role: "toolResult", content: [], timestamp: 3 }]));
    const text = event({ type: "model.completed", data: snapshot([call]) }) + "\n" + t.text();
    const analysis = await analyze(text);
    expect(calls(analysis)).toEqual([["r1", 1]]);
    expect(reasons(analysis)).toEqual([
      [1, "model.completed without runId, outside any started run; its messagesSnapshot is not replayed"],
      [3, '1 toolCall block without a "name" in messagesSnapshot; not replayed'],
      [3, "toolResult without toolCallId or toolName in messagesSnapshot; not replayed"],
      [3, "model.completed reports 1 compaction(s) but the trajectory does not say when; the post-compaction guard is not armed"],
    ]);
    expect(analysis.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
  });
});
