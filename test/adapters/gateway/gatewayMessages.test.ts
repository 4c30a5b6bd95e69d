/** The Gateway-log message templates: every row of the spec's table, and what must not match. */
import { describe, expect, it } from "vitest";
import { classify } from "../../../src/adapters/gateway/messages.js";

const DETECTION = "agents/loop-detection";
const TOOLS = "agents/tools";

describe("live finding templates (spec inputs.md §4 table)", () => {
  it.each([
    [DETECTION, "Loop warning: exec called 10 times with identical arguments", "exec", "generic_repeat", "warning", 10],
    [DETECTION, "Critical generic loop detected: exec repeated 20 times", "exec", "generic_repeat", "critical", 20],
    [DETECTION, "Polling loop warning: command_status repeated 10 times", "command_status", "known_poll_no_progress", "warning", 10],
    [DETECTION, "Critical polling loop detected: process repeated 20 times", "process", "known_poll_no_progress", "critical", 20],
    [DETECTION, "Ping-pong loop warning: alternating calls count=12 currentTool=read", "read", "ping_pong", "warning", 12],
    [DETECTION, "Critical ping-pong loop detected: alternating calls count=20 currentTool=exec", "exec", "ping_pong", "critical", 20],
    [DETECTION, "Global circuit breaker triggered: web_fetch repeated 30 times with no progress", "web_fetch", "global_circuit_breaker", "critical", 30],
    [
      TOOLS,
      "Blocking browser due to critical loop: CRITICAL: attempted unavailable tool browser 10 times. Session execution blocked; stop calling it.",
      "browser",
      "unknown_tool_repeat",
      "critical",
      10,
    ],
    [
      "agents/post-compaction-guard",
      "post-compaction loop persisted: tool=exec repeated 3 times with identical args+result post-compaction",
      "exec",
      "compaction_loop_persisted",
      "abort",
      3,
    ],
    ["diagnostic", "tool loop: sessionId=s1 sessionKey=agent:ops:cli:main tool=exec level=critical action=block detector=global_circuit_breaker count=30", "exec", "global_circuit_breaker", "critical", 30],
    ["diagnostic", "tool loop: sessionId=s1 tool=read level=warning action=warn detector=ping_pong count=11 extra=1", "read", "ping_pong", "warning", 11],
  ])("%s: %s", (subsystem, message, tool, detector, level, count) => {
    expect(classify(subsystem, message)).toMatchObject({ kind: "loop", counts: true, tool, detector, level, count });
  });

  it("a diagnostic line carries the session and, from an agent:<id>: session key, the agent", () => {
    expect(classify("diagnostic", "tool loop: sessionId=s9 sessionKey=agent:research:cli:main tool=x level=warning action=warn detector=generic_repeat count=10")).toMatchObject({
      session: "s9",
      agent: "research",
    });
  });

  it("hook lines other than the unknown-tool block only echo: they never count on their own", () => {
    const warning = classify(
      TOOLS,
      "Loop warning for process: WARNING: You have called process 10 times with identical arguments and no progress. Stop polling and either (1) increase wait time between checks, or (2) report the task as failed if the process is stuck.",
    );
    expect(warning).toMatchObject({ kind: "loop", origin: "hook", counts: false, detector: "known_poll_no_progress", level: "warning", count: 10 });
    const generic = classify(TOOLS, "Loop warning for exec: WARNING: You have called exec 9 times with identical arguments. If this is not making progress, stop retrying.");
    expect(generic).toMatchObject({ counts: false, detector: "generic_repeat", count: 9 });
    const block = classify(TOOLS, "Blocking exec due to critical loop: CRITICAL: Called exec with identical arguments and no progress 20 times. This appears to be a stuck tool loop. Session execution blocked.");
    expect(block).toMatchObject({ counts: false, detector: "generic_repeat", level: "critical", count: 20 });
    expect(classify(TOOLS, "Blocking exec due to critical loop: policy forbids exec here")).toEqual({ kind: "unrecognised_hook" });
  });

  it("run boundaries, tool starts, compactions and guard lines", () => {
    expect(classify("agent/embedded", "embedded run start: runId=r1 sessionId=s1 provider=anthropic")).toEqual({ kind: "run_start", run: "r1", session: "s1" });
    expect(classify("agent/embedded", "embedded run tool start: runId=r1 tool=exec toolCallId=t1")).toEqual({ kind: "tool_start", run: "r1", tool: "exec", id: "t1" });
    expect(classify("agent/embedded", "embedded run done: runId=r1 durationMs=5 aborted=false")).toEqual({ kind: "run_done", run: "r1" });
    expect(classify("agent/embedded", "context overflow detected (attempt 1/3); attempting auto-compaction")).toEqual({ kind: "overflow" });
    expect(classify("agent/embedded", "auto-compaction succeeded for anthropic/claude-sonnet; retrying prompt")).toEqual({ kind: "compaction", cause: "overflow" });
    expect(classify("agent/embedded", "[timeout-compaction] compaction succeeded after timeout; retrying prompt")).toEqual({ kind: "compaction", cause: "timeout" });
    expect(classify("agents/post-compaction-guard", "post-compaction guard armed for 3 attempts")).toEqual({ kind: "guard_armed", attempts: 3 });
    expect(classify("agents/post-compaction-guard", "post-compaction window closed: toolCalls=3 preCompactionRepeats=1 tools=read,exec")).toEqual({
      kind: "guard_closed",
      toolCalls: 3,
      preCompactionRepeats: 1,
      tools: ["read", "exec"],
    });
  });

  it.each([
    [DETECTION, "Loop warning: exec called many times with identical arguments"],
    [DETECTION, "Loop warning: exec called 10 times with identical arguments and no progress"],
    [DETECTION, "Loop Warning: exec called 10 times with identical arguments."],
    [DETECTION, "Polling loop warning: process repeated 0 times"],
    [DETECTION, "Critical ping-pong loop detected: alternating calls count=20"],
    ["gateway", "Critical polling loop detected: process repeated 20 times"],
    [null, "Loop warning: exec called 10 times with identical arguments"],
    [TOOLS, "Blocking browser due to critical loop: CRITICAL: attempted unavailable tool browser several times"],
    ["diagnostic", "tool loop: tool=exec level=severe action=warn detector=generic_repeat count=10"],
    ["diagnostic", "tool loop: tool=exec level=warning action=warn detector=generic_loop count=10"],
    ["diagnostic", "tool loop: tool=exec level=warning action=warn detector=generic_repeat"],
    ["agents/post-compaction-guard", "post-compaction loop persisted: tool=exec repeated 3 times"],
    ["agent/embedded", "embedded run start: run=r1"],
    ["agent/embedded", "embedded run tool start: runId=r1 toolCallId=t1"],
  ])("near miss, never a finding: %s %s", (subsystem, message) => {
    expect(classify(subsystem, message).kind).toBe("near_miss");
  });

  it("other messages are irrelevant, whatever their subsystem", () => {
    expect(classify("agent/embedded", "embedded run tool end: runId=r1 tool=exec toolCallId=t1").kind).toBe("irrelevant");
    expect(classify(null, "[tools] exec failed: Error: spawn ENOENT").kind).toBe("irrelevant");
    expect(classify("gateway", "gateway ready on ws://127.0.0.1:18789").kind).toBe("irrelevant");
  });

  it("bounded work on huge messages", () => {
    const huge = `Blocking exec due to critical loop: ${"x ".repeat(2_000_000)}`;
    const started = performance.now();
    expect(classify(TOOLS, huge)).toEqual({ kind: "unrecognised_hook" });
    expect(classify("gateway", `${"noise ".repeat(1_000_000)}`).kind).toBe("irrelevant");
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
