/**
 * EventPreparer: call numbering per run, results linked to the call they answer (by id, else the
 * newest unanswered call of that tool in the run) and hashed with that call's arguments.
 */
import { describe, expect, it } from "vitest";
import type { PreparedEvent } from "../../src/core/prepare.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { call, failure, result, type EventLine } from "../helpers/events.js";
import { hashing, toLoopEvents } from "../helpers/replay.js";

type Outcome = Extract<PreparedEvent, { type: "outcome" }>;

function prepare(lines: EventLine[]) {
  const preparer = new EventPreparer(hashing);
  return toLoopEvents(lines).map((event) => preparer.prepare(event));
}
const outcomes = (lines: EventLine[]) =>
  prepare(lines).flatMap((d) => (d.used && d.prepared.type === "outcome" ? [d.prepared as Outcome] : []));
const noId = (line: EventLine) => {
  const { id: _id, ...rest } = line;
  return rest;
};

describe("calls", () => {
  it("are numbered from 1 in each run, and carry the args hash and known-poll flag", () => {
    const prepared = prepare([
      call("r1", "c1", "read", { path: "a" }),
      call("r2", "c1", "process", { action: "poll" }),
      call("r1", "c2", "command_status", {}),
    ]).map((d) => (d.used ? d.prepared : undefined));
    expect(prepared).toEqual([
      expect.objectContaining({ type: "call", run: "r1", call: 1, tool: "read", argsHash: hashing.argsHash("read", { path: "a" }, "text"), knownPoll: false, callId: "c1" }),
      expect.objectContaining({ type: "call", run: "r2", call: 1, knownPoll: true }),
      expect.objectContaining({ type: "call", run: "r1", call: 2, knownPoll: true }),
    ]);
  });
});

describe("linking results to calls", () => {
  it("by id, whatever the order results arrive in", () => {
    const linked = outcomes([
      call("r", "c1", "read", { path: "a" }),
      call("r", "c2", "read", { path: "b" }),
      result("r", "c1", "read", "A"),
      result("r", "c2", "read", "B"),
    ]);
    expect(linked.map((o) => [o.call, o.callId, o.argsHash])).toEqual([
      [1, "c1", hashing.argsHash("read", { path: "a" }, "text")],
      [2, "c2", hashing.argsHash("read", { path: "b" }, "text")],
    ]);
  });

  it("without an id, to the newest unanswered call of the same tool in the run", () => {
    const linked = outcomes([
      noId(call("r", "", "read", { path: "a" })),
      noId(call("r", "", "read", { path: "b" })),
      noId(call("r", "", "write", { path: "c" })),
      noId(result("r", "", "read", "first")),
      noId(result("r", "", "read", "second")),
    ]);
    expect(linked.map((o) => [o.call, o.tool, o.argsHash])).toEqual([
      [2, "read", hashing.argsHash("read", { path: "b" }, "text")],
      [1, "read", hashing.argsHash("read", { path: "a" }, "text")],
    ]);
  });

  it("an outcome carries the id of the call it answers, not the result's", () => {
    const [byTool] = outcomes([call("r", "c1", "read", {}), noId(result("r", "", "read", "x"))]);
    expect([byTool!.call, byTool!.callId]).toEqual([1, "c1"]);
    // "`id` links a result to its call": a result id that no call had answers nothing, not even
    // an id-less call of its tool.
    expect(outcomes([noId(call("r", "", "read", {})), result("r", "res-1", "read", "x")])).toEqual([]);
  });

  it("hashes the result with the arguments of the call it answers", () => {
    const details = (pid: number) => ({ content: [{ type: "text", text: "running" }], details: { status: "running", pid } });
    const [poll1, poll2] = outcomes([
      call("r", "p1", "process", { action: "poll", sessionId: "s" }),
      result("r", "p1", "process", details(1)),
      call("r", "p2", "process", { action: "poll", sessionId: "s" }),
      // The result line names no tool: the call's tool and args decide the rule (poll ignores pid).
      { type: "tool_result", run: "r", id: "p2", result: details(2) },
    ]);
    expect(poll1!.resultHash).toBe(poll2!.resultHash);
    expect(poll1!.resultHash).toBe(hashing.outcomeHash("process", { action: "poll" }, { kind: "result", value: details(1) }, "text").resultHash);
  });

  it("matches only calls of the same run, each at most once", () => {
    const dispositions = prepare([
      call("r1", "c1", "read", {}),
      result("r2", "c1", "read", "x"),
      result("r1", "c1", "read", "x"),
      result("r1", "c1", "read", "again"),
      noId(result("r1", "", "write", "x")),
    ]);
    expect(dispositions.map((d) => d.used)).toEqual([true, false, true, false, false]);
    expect(dispositions[1]).toEqual({ used: false, reason: expect.stringContaining("matches no call") });
  });

  it("forgets a run's unanswered calls at run_end", () => {
    const dispositions = prepare([call("r", "c1", "read", {}), { type: "run_end", run: "r" }, result("r", "c1", "read", "x")]);
    expect(dispositions.map((d) => d.used)).toEqual([true, true, false]);
  });
});

describe("outcomes", () => {
  it("an error (even null) is an error outcome; an absent result has no hash; a veto is flagged", () => {
    const linked = outcomes([
      call("r", "c1", "read", {}),
      failure("r", "c1", "read", null),
      call("r", "c2", "browser", {}),
      failure("r", "c2", "browser", "Unknown tool: browser"),
      call("r", "c3", "read", {}),
      { type: "tool_result", run: "r", id: "c3", tool: "read" },
      call("r", "c4", "read", {}),
      result("r", "c4", "read", { details: { status: "blocked", deniedReason: "tool-loop" } }),
    ]);
    expect(linked.map((o) => [o.resultHash?.slice(0, 6), o.unknownTool, o.veto])).toEqual([
      ["error:", undefined, false],
      ["error:", "browser", false],
      [undefined, undefined, false],
      [undefined, undefined, true],
    ]);
  });
});
