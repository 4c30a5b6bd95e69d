/** Live events in the canonical format: printed by `looplens events`, validated when read back. */
import { describe, expect, it } from "vitest";
import { toLiveEvent } from "../../../src/adapters/events/liveEventsJson.js";
import { liveEventJson } from "../../../src/commands/events.js";

const read = (value: Record<string, unknown>) => toLiveEvent(value, value.type as "live_marker" | "live_finding", "e.jsonl", 7);

describe("live events in the canonical format", () => {
  it("a printed finding reads back as the same event (file and line are the reading file's)", () => {
    const finding = {
      type: "live_finding" as const,
      run: "r1",
      session: "s1",
      call: 11,
      tool: "exec",
      detector: "generic_repeat" as const,
      level: "warning" as const,
      count: 10,
      message: "Loop warning: exec called 10 times with identical arguments",
      echoLines: [12, 13],
      file: "day.log",
      line: 11,
    };
    const parsed = read(JSON.parse(liveEventJson(finding)) as Record<string, unknown>);
    expect(parsed).toEqual({ ok: true, event: { ...finding, file: "e.jsonl", line: 7 } });
  });

  it("run is required and may be null; markers keep their payload", () => {
    expect(read({ type: "live_marker", marker: "compaction", run: null, cause: "timeout" })).toMatchObject({ ok: true, event: { run: null, cause: "timeout" } });
    expect(read({ type: "live_marker", marker: "run_start" })).toEqual({ ok: false, reason: 'live_marker without "run" (null for none)' });
    expect(read({ type: "live_marker", marker: "guard_closed", run: "r", toolCalls: 3, preCompactionRepeats: 0, tools: ["exec", 5] })).toMatchObject({
      ok: true,
      event: { tools: ["exec"] },
    });
  });

  it.each([
    [{ type: "live_marker", marker: "nap", run: "r" }, 'unknown live marker "nap"'],
    [{ type: "live_marker", marker: "tool_start", run: "r" }, 'tool_start marker without a "tool" name'],
    [{ type: "live_marker", marker: "guard_armed", run: "r", attempts: 0 }, 'guard_armed marker without positive "attempts"'],
    [{ type: "live_finding", run: "r", tool: "exec", detector: "loop", level: "warning", count: 1 }, 'live_finding with unknown detector "loop"'],
    [{ type: "live_finding", run: "r", tool: "exec", detector: "ping_pong", level: "block", count: 1 }, 'live_finding with unknown level "block"'],
    [{ type: "live_finding", run: "r", tool: "exec", detector: "ping_pong", level: "warning", count: 0 }, 'live_finding without a positive "count"'],
    [{ type: "live_finding", run: "r", tool: "exec", detector: "ping_pong", level: "warning", count: 3, call: "7" }, '"call" is neither null nor a positive integer'],
    [{ type: "live_finding", run: " ", tool: "exec", detector: "ping_pong", level: "warning", count: 3 }, '"run" is neither null nor a non-blank string'],
  ])("rejects %j", (value, reason) => {
    expect(read(value)).toEqual({ ok: false, reason });
  });
});
