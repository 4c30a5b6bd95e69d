/** Session transcript variants: run naming, identity, older forms, result shapes (in-process). */
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../../../src/core/events.js";
import { readEvents } from "../../../src/pipeline/analysis.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzePaths, writeSessionFile } from "../../helpers/inProcess.js";
import { TranscriptBuilder } from "../../helpers/openclawTranscript.js";

async function eventsOf(path: string | string[], activeBranch = false) {
  const events: LoopEvent[] = [];
  const result = await readEvents(typeof path === "string" ? [path] : path, await loadXxhashDigest(), { activeBranch }, (event) => events.push(event as LoopEvent));
  return { events, ...result };
}

/** The events but the model turns (what they carry is tested in openclaw.usage.test.ts). */
const summary = (events: LoopEvent[]) =>
  events.filter((e) => e.type !== "turn").map((e) => (e.type === "tool_call" ? `${e.run} call ${e.id}` : e.type === "tool_result" ? `${e.run} result ${e.id}` : `${e.run} ${e.type}`));

const read = (id: string) => ({ id, name: "read", args: { path: "x" } });

describe("session transcripts", () => {
  it("names runs by bootstrap written before the user message (older builds), else by a prompt error, else <session>#<n>", async () => {
    const t = new TranscriptBuilder("s-9");
    t.bootstrap("stale"); // superseded: the last one held before the user message names the run
    t.bootstrap("named");
    t.user("one");
    t.calls([read("a")]);
    t.result(read("a"), { kind: "result", text: "ok" });
    t.user("two");
    t.calls([read("b")]);
    t.result(read("b"), { kind: "result", text: "ok" });
    t.promptError("from-error"); // names the run in progress, which has no name yet
    t.promptError("from-error"); // its own name again: nothing to hold
    t.user("three");
    t.calls([read("c")]);
    const { events } = await eventsOf(writeSessionFile(t.text(), "s-9.jsonl"));
    expect(summary(events)).toEqual(["named call a", "named result a", "from-error call b", "from-error result b", "s-9#3 call c"]);
  });

  it("names runs by bootstrap written after the run's final reply (2026.4+ runtimes)", async () => {
    const t = new TranscriptBuilder("s-8");
    for (const run of ["req_1", "req_2", undefined, "req_4"]) {
      t.user("task");
      t.calls([read(`c-${run}`)]);
      t.result(read(`c-${run}`), { kind: "result", text: "ok" });
      t.assistantText("done");
      if (run !== undefined) t.bootstrap(run);
    }
    const { events } = await eventsOf(writeSessionFile(t.text(), "s-8.jsonl"));
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.run)).toEqual(["req_1", "req_2", "s-8#3", "req_4"]);
  });

  it("an entry after a named run is held for the next run, unless it names an earlier run already", async () => {
    const t = new TranscriptBuilder("s-7");
    t.user("one");
    t.calls([read("a")]);
    t.promptError("r1"); // names run 1
    t.bootstrap("r1"); // its own id again
    t.bootstrap("r2"); // run 1 is named: held for run 2
    t.user("two");
    t.calls([read("b")]);
    t.user("three");
    t.calls([read("c")]);
    t.bootstrap("r3");
    t.bootstrap("r1"); // held, but r1 names an earlier run: dropped
    t.user("four");
    t.calls([read("d")]);
    const { events } = await eventsOf(writeSessionFile(t.text(), "s-7.jsonl"));
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.run)).toEqual(["r1", "r2", "r3", "s-7#4"]);
  });

  it("two user messages named by the same run id are one run (a prompt retried on a fallback model)", async () => {
    const t = new TranscriptBuilder("s-6");
    t.user("task");
    t.calls([read("a")]);
    t.result(read("a"), { kind: "result", text: "ok" });
    t.promptError("req_9");
    t.user("task"); // the retry writes its user message again
    t.calls([read("b")]);
    t.result(read("b"), { kind: "result", text: "ok" });
    t.assistantText("done");
    t.bootstrap("req_9");
    const path = writeSessionFile(t.text(), "s-6.jsonl");
    const analysis = await analyzePaths([path]);
    expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual([["req_9", 2]]);
  });

  it("tool activity before any user message is run #1 and the next runs count on from it", async () => {
    const t = new TranscriptBuilder("s-0");
    t.calls([read("a")]);
    t.user("one");
    t.calls([read("b")]);
    const { events } = await eventsOf(writeSessionFile(t.text(), "s-0.jsonl"));
    expect(summary(events)).toEqual(["s-0#1 call a", "s-0#2 call b"]);
  });

  it("the session id is the file name's, as the runtime's own entries use it, even when the header says otherwise", async () => {
    const t = new TranscriptBuilder("header-id");
    t.user("one");
    t.calls([read("a")]);
    const { events, diagnostics } = await eventsOf(writeSessionFile(t.text(), "name-id.jsonl.reset.2026-04-16T02-47-32.555Z"));
    // The call, then the model turn that made it: both the run's.
    expect(events.map((e) => [e.session, e.run])).toEqual([
      ["name-id", "name-id#1"],
      ["name-id", "name-id#1"],
    ]);
    expect(diagnostics).toEqual([]);
  });

  it("runs without tool calls are runs, with or without a compaction", async () => {
    const t = new TranscriptBuilder("s-5");
    t.user("hello");
    t.assistantText("hi");
    t.user("compact");
    t.compaction();
    t.assistantText("ok");
    t.user("work");
    t.calls([read("a")]);
    const path = writeSessionFile(t.text(), "s-5.jsonl");
    const { events } = await eventsOf(path);
    expect(summary(events)).toEqual(["s-5#1 run_start", "s-5#2 compaction", "s-5#3 call a"]);
    const analysis = await analyzePaths([path]);
    expect(analysis.runs.map((r) => [r.run, r.calls, r.compactions])).toEqual([["s-5#1", 0, 0], ["s-5#2", 0, 1], ["s-5#3", 1, 0]]);
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
    const { events } = await eventsOf(writeSessionFile(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", "old.jsonl"));
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
    const { events, diagnostics } = await eventsOf(writeSessionFile(t.text(), "s-p.jsonl"));
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
