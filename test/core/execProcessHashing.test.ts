/** Result hashing of `exec` (by status) and of `process` poll/log, and which calls are known polls. */
import { describe, expect, it } from "vitest";
import { isKnownPoll } from "../../src/core/hashing.js";
import { hashing } from "../helpers/replay.js";

const resultHash = (tool: string, args: unknown, details: unknown, text = "") =>
  hashing.outcomeHash(tool, args, { kind: "result", value: { content: [{ type: "text", text }], details } }, "text").resultHash;
const exec = (details: Record<string, unknown>, text = "") => resultHash("exec", { command: "make" }, details, text);

describe("exec", () => {
  it("running: only status and tail count (duration, pid, session id, cwd and text never do)", () => {
    const base = exec({ status: "running", tail: "compiling 3/9", pid: 1, durationMs: 10, sessionId: "s1", cwd: "/a" }, "one");
    expect(exec({ status: "running", tail: "compiling 3/9", pid: 2, durationMs: 99, sessionId: "s2", cwd: "/b" }, "two")).toBe(base);
    expect(exec({ status: "running", tail: "compiling 4/9", pid: 1 })).not.toBe(base);
  });

  it("completed/failed: status, exitCode, timedOut and output", () => {
    const base = exec({ status: "completed", exitCode: 0, aggregated: "ok", durationMs: 5, pid: 7, cwd: "/w", sessionId: "x" });
    expect(exec({ status: "completed", exitCode: 0, aggregated: "ok", durationMs: 6000, pid: 8, cwd: "/v", sessionId: "y" })).toBe(base);
    expect(exec({ status: "failed", exitCode: 0, aggregated: "ok" })).not.toBe(base);
    expect(exec({ status: "completed", exitCode: 1, aggregated: "ok" })).not.toBe(base);
    expect(exec({ status: "completed", exitCode: 0, aggregated: "ok", timedOut: true })).not.toBe(base);
    expect(exec({ status: "completed", exitCode: 0, aggregated: "ko" })).not.toBe(base);
  });

  it("exitCode is a number or null; timedOut is true or false", () => {
    const base = exec({ status: "failed", aggregated: "x" });
    expect(exec({ status: "failed", aggregated: "x", exitCode: null })).toBe(base);
    expect(exec({ status: "failed", aggregated: "x", exitCode: "1" })).toBe(base);
    expect(exec({ status: "failed", aggregated: "x", timedOut: false })).toBe(base);
    expect(exec({ status: "failed", aggregated: "x", timedOut: "yes" })).toBe(base);
    expect(exec({ status: "failed", aggregated: "x", exitCode: 0 })).not.toBe(base);
  });

  it("output is the trimmed aggregated string when non-blank, else the content text", () => {
    const fromText = exec({ status: "completed", exitCode: 0 }, "42 passed");
    expect(exec({ status: "completed", exitCode: 0, aggregated: "\n42 passed  " }, "ignored")).toBe(fromText);
    expect(exec({ status: "completed", exitCode: 0, aggregated: " \t\n" }, "42 passed")).toBe(fromText);
    expect(exec({ status: "completed", exitCode: 0, aggregated: 42 }, "42 passed")).toBe(fromText);
    expect(exec({ status: "completed", exitCode: 0, aggregated: "" }, "42 passed")).toBe(fromText);
    expect(exec({ status: "completed", exitCode: 0, aggregated: "41 passed" }, "42 passed")).not.toBe(fromText);
  });

  it("approval-pending/-unavailable: status, reason, host, command, warningText", () => {
    const approval = { status: "approval-pending", reason: "r", host: "h", command: "rm -rf x", warningText: "w" };
    const base = exec({ ...approval, approvalId: "a1", expiresAtMs: 1 }, "text 1");
    expect(exec({ ...approval, approvalId: "a2", expiresAtMs: 2 }, "text 2")).toBe(base);
    expect(exec({ ...approval, status: "approval-unavailable" })).not.toBe(base);
    for (const key of ["reason", "host", "command", "warningText"]) {
      expect(exec({ ...approval, [key]: "changed" })).not.toBe(base);
    }
  });

  it("other statuses and no status fall through to {details, text}", () => {
    expect(exec({ status: "error", note: "a" })).not.toBe(exec({ status: "error", note: "b" }));
    expect(exec({ status: "error" }, "a")).not.toBe(exec({ status: "error" }, "b"));
    expect(exec({ tail: "x", pid: 1 })).not.toBe(exec({ tail: "x", pid: 2 }));
  });

  it("the exec rules apply to the exec tool only", () => {
    const details = (pid: number) => ({ status: "running", tail: "x", pid });
    expect(resultHash("bash", {}, details(1))).not.toBe(resultHash("bash", {}, details(2)));
  });
});

describe("process poll and log", () => {
  const poll = (details: Record<string, unknown>, text = "") => resultHash("process", { action: "poll", sessionId: "p" }, details, text);
  const log = (details: Record<string, unknown>, text = "") => resultHash("process", { action: "log", sessionId: "p" }, details, text);

  it("poll: action, status, exitCode, exitSignal, aggregated and text", () => {
    const base = poll({ status: "running", aggregated: "1/9", pid: 1, durationMs: 3, sessionId: "p", cwd: "/" }, "running");
    expect(poll({ status: "running", aggregated: "1/9", pid: 2, durationMs: 4, sessionId: "q", cwd: "/x" }, "running")).toBe(base);
    expect(poll({ status: "running", aggregated: "2/9" }, "running")).not.toBe(base);
    expect(poll({ status: "running", aggregated: "1/9" }, "still running")).not.toBe(base);
    expect(poll({ status: "exited", aggregated: "1/9" }, "running")).not.toBe(base);
    expect(poll({ status: "running", aggregated: "1/9", exitCode: 0 }, "running")).not.toBe(base);
    expect(poll({ status: "running", aggregated: "1/9", exitSignal: "SIGTERM" }, "running")).not.toBe(base);
  });

  it("log: action, status, totalLines, totalChars, truncated, exitCode, exitSignal and text", () => {
    const details = { status: "running", totalLines: 10, totalChars: 300, truncated: false, exitCode: null, exitSignal: null };
    const base = log({ ...details, offset: 0, limit: 50, durationMs: 1 }, "tail");
    expect(log({ ...details, offset: 10, limit: 20, durationMs: 2 }, "tail")).toBe(base);
    for (const [key, value] of Object.entries({ status: "exited", totalLines: 11, totalChars: 301, truncated: true, exitCode: 1, exitSignal: "SIGKILL" })) {
      expect(log({ ...details, [key]: value }, "tail")).not.toBe(base);
    }
    expect(log(details, "other tail")).not.toBe(base);
  });

  it("poll and log with the same details differ (the action is hashed)", () => {
    expect(poll({ status: "running" })).not.toBe(log({ status: "running" }));
  });

  it("a missing status differs from status null; every other missing field counts as null", () => {
    expect(poll({})).not.toBe(poll({ status: null }));
    expect(log({})).not.toBe(log({ status: null }));
    expect(poll({ status: "running" })).toBe(poll({ status: "running", exitCode: null, exitSignal: null, aggregated: null }));
    expect(log({ status: "running" })).toBe(
      log({ status: "running", totalLines: null, totalChars: null, truncated: null, exitCode: null, exitSignal: null }),
    );
  });

  it("other actions, and a non-string action, fall through to {details, text}", () => {
    for (const action of ["kill", ["poll"], { poll: true }, 1]) {
      const hash = (pid: number) => resultHash("process", { action, sessionId: "p" }, { status: "running", pid });
      expect(hash(1)).not.toBe(hash(2));
    }
  });
});

describe("known polls", () => {
  it("are command_status (any arguments) and process with action poll or log", () => {
    expect(isKnownPoll("command_status", undefined)).toBe(true);
    expect(isKnownPoll("command_status", { commandId: "x" })).toBe(true);
    expect(isKnownPoll("process", { action: "poll" })).toBe(true);
    expect(isKnownPoll("process", { action: "log" })).toBe(true);
  });

  it("are not other process actions, a non-string action, or other tools", () => {
    expect(isKnownPoll("process", { action: "kill" })).toBe(false);
    expect(isKnownPoll("process", {})).toBe(false);
    expect(isKnownPoll("process", { action: ["poll"] })).toBe(false);
    expect(isKnownPoll("process", "poll")).toBe(false);
    expect(isKnownPoll("exec", { action: "poll" })).toBe(false);
    expect(isKnownPoll("message", { action: "poll" })).toBe(false);
  });
});
