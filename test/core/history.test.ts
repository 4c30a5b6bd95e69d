/** SessionHistory (detection.md "History"): run scoping, trimming, and attaching outcomes to records. */
import { describe, expect, it } from "vitest";
import { SessionHistory, type CallRecord } from "../../src/core/history.js";

const call = (run: string, tool: string, argsHash: string, callId?: string): CallRecord => ({
  run,
  tool,
  argsHash,
  ...(callId !== undefined ? { callId } : {}),
});
const outcome = (run: string, tool: string, argsHash: string, resultHash: string, callId?: string, unknownTool?: string) => ({
  ...call(run, tool, argsHash, callId),
  resultHash,
  ...(unknownTool !== undefined ? { unknownTool } : {}),
});

describe("run scoping and trimming", () => {
  it("shows a run only its own records, oldest first", () => {
    const history = new SessionHistory();
    history.append(call("a", "read", "read:1"), 30);
    history.append(call("b", "read", "read:2"), 30);
    history.append(call("a", "read", "read:3"), 30);
    expect(history.forRun("a").map((r) => r.argsHash)).toEqual(["read:1", "read:3"]);
    expect(history.forRun("b").map((r) => r.argsHash)).toEqual(["read:2"]);
    expect(history.forRun("c")).toEqual([]);
  });

  it("keeps the newest historySize records of the session; other runs' records take slots", () => {
    const history = new SessionHistory();
    for (let i = 1; i <= 4; i++) history.append(call("a", "read", `read:${i}`), 5);
    for (let i = 1; i <= 3; i++) history.append(call("b", "read", `read:b${i}`), 5);
    expect(history.size).toBe(5);
    expect(history.forRun("a").map((r) => r.argsHash)).toEqual(["read:3", "read:4"]);
    expect(history.forRun("b")).toHaveLength(3);
  });

  it("trims when an outcome is appended as a new record", () => {
    const history = new SessionHistory();
    for (let i = 1; i <= 3; i++) history.append(call("a", "read", `read:${i}`), 3);
    history.attachOutcome(outcome("a", "exec", "exec:x", "h"), 3);
    expect(history.forRun("a").map((r) => r.argsHash)).toEqual(["read:2", "read:3", "exec:x"]);
  });
});

describe("attaching an outcome", () => {
  it("goes to the record with the same call id, even when a newer identical call is unanswered", () => {
    const history = new SessionHistory();
    history.append(call("a", "read", "read:x", "c1"), 30);
    history.append(call("a", "read", "read:x", "c2"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h1", "c1"), 30);
    expect(history.forRun("a").map((r) => [r.callId, r.resultHash])).toEqual([
      ["c1", "h1"],
      ["c2", undefined],
    ]);
  });

  it("without a call id, goes to the newest unanswered record of the same tool and args", () => {
    const history = new SessionHistory();
    history.append(call("a", "read", "read:x"), 30);
    history.append(call("a", "read", "read:x"), 30);
    history.append(call("a", "read", "read:y"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h1"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h2"), 30);
    expect(history.forRun("a").map((r) => r.resultHash)).toEqual(["h2", "h1", undefined]);
  });

  it("never to an answered record, another run's record, or one with other args", () => {
    const history = new SessionHistory();
    history.append(call("a", "read", "read:x", "c1"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h1", "c1"), 30);
    history.append(call("b", "read", "read:x", "c2"), 30);
    history.append(call("a", "read", "read:y", "c2"), 30);
    // Same id as an answered record, and as records of another run or with other args: appended.
    history.attachOutcome(outcome("a", "read", "read:x", "h2", "c1"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h3", "c2"), 30);
    expect(history.forRun("a").map((r) => [r.argsHash, r.callId, r.resultHash])).toEqual([
      ["read:x", "c1", "h1"],
      ["read:y", "c2", undefined],
      ["read:x", "c1", "h2"],
      ["read:x", "c2", "h3"],
    ]);
    expect(history.forRun("b").map((r) => r.resultHash)).toEqual([undefined]);
  });

  it("with a call id, never to a record with another id", () => {
    const history = new SessionHistory();
    history.append(call("a", "read", "read:x", "c1"), 30);
    history.attachOutcome(outcome("a", "read", "read:x", "h", "c9"), 30);
    expect(history.forRun("a").map((r) => [r.callId, r.resultHash])).toEqual([
      ["c1", undefined],
      ["c9", "h"],
    ]);
  });

  it("carries the unknown-tool name onto the record", () => {
    const history = new SessionHistory();
    history.append(call("a", "browser", "browser:x", "c1"), 30);
    history.attachOutcome(outcome("a", "browser", "browser:x", "error:h", "c1", "browser"), 30);
    expect(history.forRun("a")[0]).toMatchObject({ resultHash: "error:h", unknownTool: "browser" });
  });
});
