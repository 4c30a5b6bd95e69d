/** The Gemini CLI adapter, feature by feature, on recordings in the real shapes (in-process). */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvents } from "../../../src/pipeline/analysis.js";
import type { LoopEvent, ToolCallEvent, ToolResultEvent } from "../../../src/core/events.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { NO_COMPACTION_MARKER } from "../../../src/adapters/gemini/geminiAdapter.js";
import { analyzePaths } from "../../helpers/inProcess.js";
import { GeminiRecording, writeChat, type CallSpec } from "./geminiRecording.js";

/** The events but the model turns (what they carry: test/adapters/usageSums.test.ts). */
async function eventsOf(paths: string[]) {
  const events: LoopEvent[] = [];
  const summary = await readEvents(paths, await loadXxhashDigest(), {}, (event) => (event as LoopEvent).type !== "turn" && events.push(event as LoopEvent));
  return { events, ...summary };
}

const calls = (events: LoopEvent[]) => events.filter((e): e is ToolCallEvent => e.type === "tool_call");
const results = (events: LoopEvent[]) => events.filter((e): e is ToolResultEvent => e.type === "tool_result");
const findingsOf = async (path: string) => (await analyzePaths([path])).runs.flatMap((r) => [...r.findings].map((f) => `${f.run} ${f.tool} ${f.detector} ${f.level}`));

const read = (n: number, output = "same text"): CallSpec => ({ id: `read_file-${n}`, name: "read_file", args: { file_path: "a.md" }, outcome: { kind: "result", output } });

describe("Gemini CLI recordings", () => {
  it("replays each call with its outcome, format gemini-cli, in runs per user message", async () => {
    const g = new GeminiRecording("sess-1");
    g.user("look");
    g.gemini([read(1)]);
    g.gemini([]);
    g.user("again");
    g.user("and again"); // a run without calls is still a run
    g.gemini([read(2)]);
    const path = writeChat(g.jsonl());
    const { events, lines } = await eventsOf([path]);
    expect(events.map((e) => `${e.type} ${e.run}`)).toEqual([
      "run_start sess-1#1",
      "tool_call sess-1#1",
      "tool_result sess-1#1",
      "run_start sess-1#2",
      "run_start sess-1#3",
      "tool_call sess-1#3",
      "tool_result sess-1#3",
    ]);
    expect(calls(events).every((c) => c.format === "gemini-cli" && c.agent === "gemini-cli" && c.session === "sess-1")).toBe(true);
    expect(results(events)[0]!.result).toEqual({ content: [{ type: "text", text: "same text" }], details: {} });
    expect(lines.read).toBe(lines.used + lines.ignored + lines.skipped);
    expect(lines.skipped).toBe(0);
    const analysis = await analyzePaths([path]);
    expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual([["sess-1#1", 1], ["sess-1#2", 0], ["sess-1#3", 1]]);
  });

  it("finds a repeated call loop and a ping-pong", async () => {
    const loop = new GeminiRecording("loop");
    loop.user("read it");
    for (let i = 0; i < 12; i++) loop.gemini([read(i)]);
    expect(await findingsOf(writeChat(loop.jsonl()))).toContain("loop#1 read_file generic_repeat warning");

    const pong = new GeminiRecording("pong");
    pong.user("fix it");
    for (let i = 0; i < 12; i++) {
      pong.gemini([i % 2 === 0 ? read(i) : { id: `grep-${i}`, name: "search_file_content", args: { pattern: "x" }, outcome: { kind: "result", output: "No matches found" } }]);
    }
    expect((await findingsOf(writeChat(pong.jsonl()))).some((f) => f.includes("ping_pong"))).toBe(true);
  });

  it("makes status error and cancelled errors, and reads Gemini's own unknown-tool message", async () => {
    const g = new GeminiRecording("errs");
    g.user("go");
    g.gemini([{ id: "replace-1", name: "replace", args: { file_path: "x" }, outcome: { kind: "error", error: "Failed to edit, 0 occurrences found" } }]);
    g.gemini([{ id: "shell-1", name: "run_shell_command", args: { command: "rm -rf /" }, outcome: { kind: "cancelled" } }]);
    // A name OpenClaw's own patterns do not read (":" and "/"): only Gemini's message names it.
    const unknown = (n: number): CallSpec => ({ id: `u-${n}`, name: "mcp:srv/do", args: {}, outcome: { kind: "error", error: 'Tool "mcp:srv/do" not found in registry. Tools must use the exact names that are registered. Did you mean "read_file"?' } });
    for (let i = 0; i < 11; i++) g.gemini([unknown(i)]); // the 11th attempt is blocked after ten
    const path = writeChat(g.jsonl());
    const { events } = await eventsOf([path]);
    const outcomes = results(events);
    expect(outcomes[0]).toMatchObject({ id: "replace-1", error: "Failed to edit, 0 occurrences found" });
    expect(outcomes[1]!.error).toMatch(/^\[Operation Cancelled\]/);
    expect(outcomes[2]).toMatchObject({ unknownTool: "mcp:srv/do" });
    expect(await findingsOf(path)).toContain("errs#1 mcp:srv/do unknown_tool_repeat critical");
  });

  it("guesses no compaction from a $set of messages: the guard is not armed, and a diagnostic says why", async () => {
    const g = new GeminiRecording("comp");
    g.user("go");
    for (let i = 0; i < 3; i++) g.gemini([read(i)]);
    g.compress();
    for (let i = 3; i < 8; i++) g.gemini([read(i)]);
    const path = writeChat(g.jsonl());
    const analysis = await analyzePaths([path]);
    expect(analysis.runs.map((r) => r.compactions)).toEqual([0]);
    expect(analysis.runs.flatMap((r) => [...r.findings]).map((f) => f.detector)).not.toContain("compaction_loop_persisted");
    expect(analysis.diagnostics.filter((d) => d.reason === NO_COMPACTION_MARKER)).toHaveLength(1);

    // The same calls with a compaction marker (as canonical events) do abort: the difference is only the marker.
    const canonical = (await eventsOf([path])).events.map((e) => JSON.stringify({ ...e, file: undefined, line: undefined }));
    canonical.splice(1 + 3 * 2, 0, JSON.stringify({ type: "compaction", run: "comp#1", session: "comp", agent: "gemini-cli" }));
    const marked = join(dirname(path), "marked.events.jsonl");
    writeFileSync(marked, canonical.join("\n") + "\n");
    expect((await analyzePaths([marked])).runs.flatMap((r) => [...r.findings]).map((f) => f.detector)).toContain("compaction_loop_persisted");
  });

  it("replays the parallel calls of one message in order, each followed by its result", async () => {
    const g = new GeminiRecording("par");
    g.user("go");
    g.gemini([read(1), { id: "ls-1", name: "list_directory", args: { path: "." }, outcome: { kind: "result", output: "a\nb" } }, read(2)], 2);
    const { events } = await eventsOf([writeChat(g.jsonl())]);
    expect(events.filter((e) => e.type !== "run_start").map((e) => `${e.type} ${(e as ToolCallEvent).id}`)).toEqual([
      "tool_call read_file-1",
      "tool_result read_file-1",
      "tool_call ls-1",
      "tool_result ls-1",
      "tool_call read_file-2",
      "tool_result read_file-2",
    ]);
  });

  it("keeps the last copy of a re-appended message, and still replays what a rewind removed", async () => {
    const g = new GeminiRecording("rw");
    g.user("first try");
    g.gemini([read(1)], 3); // written 4 times: scheduled, executing, scheduled, success
    const redo = g.user("second try");
    g.gemini([read(2)]);
    g.rewindTo(redo);
    g.user("third try");
    g.gemini([read(3)]);
    const path = writeChat(g.jsonl());
    const { events, lines } = await eventsOf([path]);
    expect(calls(events).map((c) => c.id)).toEqual(["read_file-1", "read_file-2", "read_file-3"]);
    expect(results(events).map((r) => r.id)).toEqual(["read_file-1", "read_file-2", "read_file-3"]);
    expect(calls(events)[0]!.line).toBe(7); // metadata, user, $set, then the copies at lines 4–7: the last
    expect(lines.skipped).toBe(0);
  });

  it("reads a sub-agent's recording as its own session and agent", async () => {
    const g = new GeminiRecording("child-77", "subagent");
    g.user("investigate");
    for (let i = 0; i < 11; i++) g.gemini([read(i)]);
    const path = writeChat(g.jsonl(), "parent-1/child-77.jsonl");
    const analysis = await analyzePaths([path]);
    expect(analysis.runs.map((r) => [r.session, r.agent, r.run])).toEqual([["child-77", "gemini-cli/child-77", "child-77#1"]]);
    expect([...analysis.runs[0]!.findings].map((f) => f.detector)).toContain("generic_repeat");
  });

  it("replays a call still running at the end as pending, and drops volatile parts of results", async () => {
    const g = new GeminiRecording("vol");
    g.user("go");
    for (const pgid of [111, 222]) {
      g.gemini([{ id: `sh-${pgid}`, name: "run_shell_command", args: { command: "ls" }, outcome: { kind: "result", output: `Output: a\nProcess Group PGID: ${pgid}`, extra: { durationMs: pgid, kept: "yes" } } }]);
    }
    g.gemini([{ id: "sh-run", name: "run_shell_command", args: { command: "sleep 9" }, outcome: { kind: "pending", status: "executing" } }]);
    const { events } = await eventsOf([writeChat(g.jsonl())]);
    const [a, b] = results(events);
    expect(a!.result).toEqual({ content: [{ type: "text", text: "Output: a\n" }], details: { kept: "yes" } });
    expect(b!.result).toEqual(a!.result);
    expect(calls(events).map((c) => c.id)).toContain("sh-run");
    expect(results(events).map((r) => r.id)).not.toContain("sh-run");
  });

  it("skips bad lines with a reason and reads the rest", async () => {
    const g = new GeminiRecording("bad");
    g.user("go");
    g.raw("not json at all");
    g.raw("[1, 2]");
    g.raw(JSON.stringify({ hello: "world" }));
    g.gemini([read(1)]);
    const text = g.jsonl() + '{"id":"g-cut","type":"gemini","toolCalls":[{"id":"x"'; // cut-off last line
    const path = writeChat(text);
    const analysis = await analyzePaths([path]);
    expect(analysis.lines).toMatchObject({ skipped: 4 });
    expect(analysis.lines.read).toBe(analysis.lines.used + analysis.lines.ignored + analysis.lines.skipped);
    expect(analysis.diagnostics.map((d) => `${d.line} ${d.reason}`)).toEqual(
      expect.arrayContaining(["4 not valid JSON", "5 not a JSON object", expect.stringMatching(/^6 not a Gemini CLI record/), expect.stringMatching(/^8 truncated last line/)]),
    );
    expect(analysis.runs[0]!.calls).toBe(1);
  });

  it("reads the legacy .json document, each call at the line its record starts", async () => {
    const g = new GeminiRecording("0b23371a-legacy");
    g.user("build it");
    g.gemini([read(1), read(2)]);
    g.user("more");
    g.gemini([{ id: "replace-9", name: "replace", args: { file_path: "x" }, outcome: { kind: "error", error: "no change" } }]);
    const text = g.legacy();
    const path = writeChat(text, "session-2025-10-21T20-04-0b23371a.json");
    const { events, lines } = await eventsOf([path]);
    const textLines = text.split("\n");
    for (const call of calls(events)) expect(textLines[call.line]).toContain(`"id": "${call.id}"`); // the line after the `{`
    expect(events.map((e) => `${e.type} ${e.run}`)).toEqual([
      "run_start 0b23371a-legacy#1",
      "tool_call 0b23371a-legacy#1",
      "tool_result 0b23371a-legacy#1",
      "tool_call 0b23371a-legacy#1",
      "tool_result 0b23371a-legacy#1",
      "run_start 0b23371a-legacy#2",
      "tool_call 0b23371a-legacy#2",
      "tool_result 0b23371a-legacy#2",
    ]);
    expect(lines).toEqual({ read: textLines.length, used: 1 + 2 + 3, ignored: textLines.length - 6, skipped: 0 });

    // Cut off: every line of the document is skipped, with the reason.
    const cut = await analyzePaths([writeChat(text.slice(0, text.length / 2), "session-cut.json")]);
    expect(cut.lines.skipped).toBe(cut.lines.read);
    expect(cut.diagnostics[0]!.reason).toMatch(/cut off/);
  });
});
