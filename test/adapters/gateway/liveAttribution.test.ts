/** Run attribution and echo merging for Gateway logs, driven record by record. */
import { describe, expect, it } from "vitest";
import { classify } from "../../../src/adapters/gateway/messages.js";
import { LiveAttribution } from "../../../src/adapters/gateway/liveAttribution.js";
import type { LiveEvent, LiveFindingEvent } from "../../../src/core/liveEvents.js";

type Line = [subsystem: string, message: string];

const start = (run: string): Line => ["agent/embedded", `embedded run start: runId=${run}`];
const toolStart = (run: string, tool: string): Line => ["agent/embedded", `embedded run tool start: runId=${run} tool=${tool}`];
const done = (run: string): Line => ["agent/embedded", `embedded run done: runId=${run}`];
const genericWarning = (tool: string, n: number): Line => ["agents/loop-detection", `Loop warning: ${tool} called ${n} times with identical arguments`];
const genericHook = (tool: string, n: number): Line => [
  "agents/tools",
  `Loop warning for ${tool}: WARNING: You have called ${tool} ${n} times with identical arguments. If this is not making progress, stop retrying.`,
];
const genericBlock = (tool: string, n: number): Line => ["agents/loop-detection", `Critical generic loop detected: ${tool} repeated ${n} times`];
const diagnostic = (tool: string, level: string, detector: string, n: number): Line => [
  "diagnostic",
  `tool loop: sessionId=s tool=${tool} level=${level} action=warn detector=${detector} count=${n}`,
];
const compaction: Line = ["agent/embedded", "auto-compaction succeeded for anthropic/claude; retrying prompt"];

/** Feeds lines 1..n; returns the events and which lines were used. */
function attribute(lines: Line[]): { events: LiveEvent[]; unused: number[] } {
  const events: LiveEvent[] = [];
  const unused: number[] = [];
  const attribution = new LiveAttribution((event) => events.push(event));
  lines.forEach(([subsystem, message], index) => {
    const handled = attribution.handle(classify(subsystem, message), { file: "t.log", line: index + 1, ts: undefined, message });
    if (!handled.used) unused.push(index + 1);
  });
  attribution.finish();
  return { events, unused };
}

const findings = (events: LiveEvent[]) =>
  events
    .filter((e): e is LiveFindingEvent => e.type === "live_finding")
    .sort((a, b) => a.line - b.line)
    .map((f) => ({ line: f.line, run: f.run, call: f.call, tool: f.tool, count: f.count, echoLines: f.echoLines }));

describe("run attribution", () => {
  it("a finding for T goes to the open run that most recently started T, with that call's ordinal", () => {
    const { events } = attribute([start("A"), start("B"), toolStart("A", "exec"), toolStart("B", "read"), toolStart("A", "read"), toolStart("B", "exec"), genericWarning("read", 10), genericWarning("exec", 10)]);
    expect(findings(events)).toEqual([
      { line: 7, run: "A", call: 2, tool: "read", count: 10, echoLines: [] },
      { line: 8, run: "B", call: 2, tool: "exec", count: 10, echoLines: [] },
    ]);
  });

  it("no open run started T: the most recently active open run, without a call number; no run open: null", () => {
    const { events } = attribute([start("A"), start("B"), toolStart("B", "exec"), toolStart("A", "read"), genericWarning("web_fetch", 10), done("A"), done("B"), genericWarning("exec", 10)]);
    expect(findings(events)).toEqual([
      { line: 5, run: "A", call: null, tool: "web_fetch", count: 10, echoLines: [] },
      { line: 8, run: null, call: null, tool: "exec", count: 10, echoLines: [] },
    ]);
  });

  it("a closed run no longer takes findings, even for the tool it started last", () => {
    const { events } = attribute([start("A"), start("B"), toolStart("A", "exec"), toolStart("B", "read"), done("A"), genericWarning("exec", 10)]);
    expect(findings(events)).toEqual([{ line: 6, run: "B", call: null, tool: "exec", count: 10, echoLines: [] }]);
  });

  it("compactions and guard lines go to the most recently active open run", () => {
    const { events } = attribute([start("A"), start("B"), toolStart("A", "exec"), compaction, toolStart("B", "exec"), compaction]);
    const runs = events.filter((e) => e.type === "live_marker" && e.marker === "compaction").map((e) => e.run);
    expect(runs).toEqual(["A", "B"]);
  });

  it("a run whose start the log lacks is opened by its tool start, without call numbers; a closed one is not reopened", () => {
    const { events } = attribute([toolStart("early", "exec"), genericWarning("exec", 10), done("early"), toolStart("early", "exec"), genericWarning("exec", 11)]);
    expect(findings(events)).toEqual([
      { line: 2, run: "early", call: null, tool: "exec", count: 10, echoLines: [] },
      { line: 5, run: null, call: null, tool: "exec", count: 11, echoLines: [] },
    ]);
  });
});

describe("echo merging", () => {
  it("hook and diagnostic echoes merge into the detector's event, across another run's activity", () => {
    const { events, unused } = attribute([
      start("A"),
      start("B"),
      toolStart("A", "exec"),
      genericWarning("exec", 10),
      toolStart("B", "read"),
      genericHook("exec", 10),
      diagnostic("exec", "warning", "generic_repeat", 10),
    ]);
    expect(findings(events)).toEqual([{ line: 4, run: "A", call: 1, tool: "exec", count: 10, echoLines: [6, 7] }]);
    expect(unused).toEqual([]);
  });

  it("a tool start of the run between them makes the repeat a new event", () => {
    const { events, unused } = attribute([start("A"), toolStart("A", "exec"), genericWarning("exec", 10), toolStart("A", "exec"), diagnostic("exec", "warning", "generic_repeat", 10), genericHook("exec", 10)]);
    expect(findings(events)).toEqual([
      { line: 3, run: "A", call: 1, tool: "exec", count: 10, echoLines: [] },
      { line: 5, run: "A", call: 2, tool: "exec", count: 10, echoLines: [6] },
    ]);
    expect(unused).toEqual([]);
  });

  it("a different count, tool or detector is not an echo", () => {
    const { events, unused } = attribute([
      start("A"),
      toolStart("A", "exec"),
      genericWarning("exec", 10),
      diagnostic("exec", "warning", "generic_repeat", 11),
      diagnostic("read", "warning", "generic_repeat", 10),
      diagnostic("exec", "warning", "known_poll_no_progress", 10),
      genericHook("exec", 12),
    ]);
    expect(findings(events).map((f) => f.line)).toEqual([3, 4, 5, 6]);
    expect(unused).toEqual([7]); // a hook line with nothing to echo counts for nothing
  });

  it("the same origin twice is two events, even with nothing between them (a blocked call repeats its count)", () => {
    const { events } = attribute([start("A"), genericBlock("exec", 20), genericBlock("exec", 20), diagnostic("exec", "critical", "generic_repeat", 20)]);
    expect(findings(events)).toEqual([
      { line: 2, run: "A", call: null, tool: "exec", count: 20, echoLines: [] },
      { line: 3, run: "A", call: null, tool: "exec", count: 20, echoLines: [4] },
    ]);
  });

  it("the unknown-tool block counts without a detector line, and its diagnostic echo merges", () => {
    const { events } = attribute([
      start("A"),
      toolStart("A", "browser"),
      ["agents/tools", "Blocking browser due to critical loop: CRITICAL: attempted unavailable tool browser 10 times. Session execution blocked."],
      diagnostic("browser", "critical", "unknown_tool_repeat", 10),
    ]);
    expect(findings(events)).toEqual([{ line: 3, run: "A", call: 1, tool: "browser", count: 10, echoLines: [4] }]);
  });
});

describe("lines that make no event: tool failures and context overflows", () => {
  const failed = (tool: string, error = "Error: spawn ENOENT"): Line => ["tools", `${tool} failed: ${error}`];
  const overflow: Line = ["agent/embedded", "context overflow detected (attempt 1/3); attempting auto-compaction for anthropic/claude"];

  it("a failure is used, emits nothing, and does not part an event from its echoes", () => {
    const lines = [start("A"), toolStart("A", "exec"), genericBlock("exec", 20), failed("exec", "CRITICAL: Called exec with identical arguments"), diagnostic("exec", "critical", "generic_repeat", 20)];
    const { events, unused } = attribute(lines);
    expect(findings(events)).toEqual([{ line: 3, run: "A", call: 1, tool: "exec", count: 20, echoLines: [5] }]);
    expect(events.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(unused).toEqual([]);
  });

  it("a failure is no activity: it does not change which run is the most recently active", () => {
    const { events } = attribute([start("A"), start("B"), toolStart("A", "exec"), toolStart("B", "read"), failed("exec"), genericWarning("web_fetch", 10)]);
    expect(findings(events)).toEqual([{ line: 6, run: "B", call: null, tool: "web_fetch", count: 10, echoLines: [] }]);
  });

  it("an overflow and the compaction it leads to are one compaction; an overflow that never compacted is none", () => {
    const { events, unused } = attribute([start("A"), toolStart("A", "exec"), overflow, compaction, overflow]);
    expect(events.filter((e) => e.type === "live_marker" && e.marker === "compaction").map((e) => [e.line, e.run])).toEqual([[4, "A"]]);
    expect(unused).toEqual([]);
  });
});
