/** Session transcript variants: run naming, identity, older forms, result shapes (in-process). */
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../src/core/events.js";
import { readEvents } from "../src/commands/analysis.js";
import { loadXxhashDigest } from "../src/core/xxhashDigest.js";
import { writeSessionFile } from "./helpers/inProcess.js";
import { TranscriptBuilder } from "./helpers/openclawTranscript.js";

async function eventsOf(path: string, allBranches = false) {
  const events: LoopEvent[] = [];
  const result = await readEvents([path], await loadXxhashDigest(), { allBranches }, (event) => events.push(event));
  return { events, ...result };
}

const summary = (events: LoopEvent[]) =>
  events.map((e) => (e.type === "tool_call" ? `${e.run} call ${e.id}` : e.type === "tool_result" ? `${e.run} result ${e.id}` : `${e.run} ${e.type}`));

const read = (id: string) => ({ id, name: "read", args: { path: "x" } });

describe("session transcripts", () => {
  it("names runs by bootstrap, else by a prompt error written after the calls, else <session>#<n>", async () => {
    const t = new TranscriptBuilder("s-9");
    t.bootstrap("stale"); // superseded: the last bootstrap before the user message names the run
    t.bootstrap("named");
    t.user("one");
    t.calls([read("a")]);
    t.result(read("a"), { kind: "result", text: "ok" });
    t.user("two");
    t.calls([read("b")]);
    t.result(read("b"), { kind: "result", text: "ok" });
    t.promptError("from-error");
    t.promptError("second-error"); // the run already has a name
    t.user("three");
    t.calls([read("c")]);
    const { events } = await eventsOf(writeSessionFile(t.text()));
    expect(summary(events)).toEqual(["named call a", "named result a", "from-error call b", "from-error result b", "s-9#3 call c"]);
  });

  it("tool activity before any user message is run #1 and the next runs count on from it", async () => {
    const t = new TranscriptBuilder("s-0");
    t.calls([read("a")]);
    t.user("one");
    t.calls([read("b")]);
    const { events } = await eventsOf(writeSessionFile(t.text()));
    expect(summary(events)).toEqual(["s-0#1 call a", "s-0#2 call b"]);
  });

  it("without a header the session id is the file name (archived names too), with a note", async () => {
    const lines = new TranscriptBuilder("ignored").text().split("\n");
    lines[0] = JSON.stringify({ type: "message", id: "1", parentId: null, message: { role: "assistant", content: [{ type: "toolCall", id: "a", name: "read", arguments: {} }] } });
    const path = writeSessionFile(lines.join("\n"), "abc-123.jsonl.deleted.2026-05-01T00-00-00.000Z", "ops");
    const { events, diagnostics } = await eventsOf(path);
    expect(events.map((e) => [e.session, e.agent, e.run])).toEqual([["abc-123", "ops", "abc-123#1"]]);
    expect(diagnostics.map((d) => [d.line, d.reason])).toEqual([[1, "no session header; the session id is taken from the file name"]]);
  });

  it("older forms: entries without ids or parentIds are one linear branch; toolUse/functionCall blocks, input/parameters", async () => {
    const lines = [
      { type: "session", version: 1, id: "old" },
      { type: "message", message: { role: "user", content: "go" } },
      { type: "message", message: { role: "assistant", content: [{ type: "toolUse", id: "a", name: "read", input: { path: "x" } }] } },
      { type: "message", message: { role: "toolResult", toolCallId: "a", toolName: "read", content: [{ type: "text", text: "boom" }], isError: true } },
      { type: "message", message: { role: "assistant", content: [{ type: "functionCall", id: "b", name: "exec", parameters: { command: "ls" } }] } },
    ];
    const { events } = await eventsOf(writeSessionFile(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"));
    expect(events.map((e) => [e.type, e.run, "args" in e ? e.args : "error" in e ? e.error : undefined])).toEqual([
      ["tool_call", "old#1", { path: "x" }],
      ["tool_result", "old#1", "boom"],
      ["tool_call", "old#1", { command: "ls" }],
    ]);
  });

  it("results: thrown errors (no or empty details) carry their text; errors with details stay results", async () => {
    const t = new TranscriptBuilder("s-r");
    t.user("go");
    const calls = ["a", "b", "c", "d"].map((id) => ({ id, name: "exec", args: { command: id } }));
    t.calls(calls);
    t.result(calls[0]!, { kind: "error", text: "spawn ENOENT" });
    t.entry("message", { message: { role: "toolResult", toolCallId: "b", toolName: "exec", content: [{ type: "text", text: "Error: boom" }, { type: "text", text: "at x" }], details: {}, isError: true } });
    t.result(calls[2]!, { kind: "result", text: "exit 1", details: { status: "failed", exitCode: 1 }, isError: true });
    t.result(calls[3]!, { kind: "veto" });
    const { events } = await eventsOf(writeSessionFile(t.text()));
    const outcomes = events.filter((e): e is Extract<LoopEvent, { type: "tool_result" }> => e.type === "tool_result").map((e) => ("error" in e ? { error: e.error } : { details: (e.result as { details: unknown }).details }));
    expect(outcomes).toEqual([
      { error: "spawn ENOENT" },
      { error: "Error: boom\nat x" },
      { details: { status: "failed", exitCode: 1 } },
      { details: { status: "blocked", deniedReason: "tool-loop" } },
    ]);
  });

  it("parallel calls: each call is followed by its own result whatever order the results were written in", async () => {
    const t = new TranscriptBuilder("s-p");
    t.user("go");
    const [a, b, c] = ["a", "b", "c"].map(read);
    t.calls([a!, b!, c!]);
    t.result(c!, { kind: "result", text: "3" });
    t.label(); // entries between results do not end the group
    t.result(a!, { kind: "result", text: "1" });
    t.calls([read("d")]); // b never got a result: the group is flushed before the next message
    t.result(b!, { kind: "result", text: "late" });
    const { events, diagnostics } = await eventsOf(writeSessionFile(t.text()));
    expect(summary(events)).toEqual([
      "s-p#1 call a",
      "s-p#1 result a",
      "s-p#1 call b",
      "s-p#1 call c",
      "s-p#1 result c",
      "s-p#1 call d",
      "s-p#1 result b", // a late result still finds its pending call
    ]);
    expect(diagnostics).toEqual([]);
  });
});
