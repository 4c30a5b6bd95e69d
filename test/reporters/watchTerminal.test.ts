/** `looplens watch`'s outputs: blocks collapsed per pattern, the status line, ndjson lines, the summary. */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding } from "../../src/core/findings.js";
import { noLevels, type WatchStats } from "../../src/pipeline/watch/watchEvents.js";
import { watchNdjsonLine } from "../../src/reporters/watchNdjson.js";
import { watchSummaryText } from "../../src/reporters/watchSummary.js";
import { WatchTerminal } from "../../src/reporters/watchTerminal.js";

const at = new Date(2026, 4, 1, 12, 3, 4);

const finding = (call: number, over: Partial<ReplayedFinding> = {}): ReplayedFinding => ({
  run: "s1#2",
  agent: "main",
  session: "s1",
  file: "agents/main/sessions/s1.jsonl",
  line: 10 + call,
  call,
  tool: "exec",
  detector: "generic_repeat",
  level: "warning",
  count: call - 1,
  threshold: { name: "warningThreshold", value: 10 },
  afterStop: false,
  message: "m",
  argsHash: "h1",
  preview: { args: "command=ls", result: "ok", error: false },
  ...over,
});

const terminal = (tty: boolean, width = 200) => new WatchTerminal({ color: false, tty, width, explain: true });

describe("watch on a terminal", () => {
  it("one block per new pattern, with time, level, detector, run, agent, call, tool, count, threshold and the explanation", () => {
    const text = terminal(false).event({ type: "finding", finding: finding(11), format: "openclaw-session" }, at);
    expect(text).toBe(
      [
        "12:03:04  WARNING generic_repeat · run s1#2 (main) · call 11 · exec",
        "          count 10, warningThreshold=10 · agents/main/sessions/s1.jsonl:21",
        '          exec(command=ls) was called 10 times with the same arguments, last returning "ok"; warns at 10',
        "",
      ].join("\n"),
    );
  });

  it("a pattern's next verdicts update one again-line in place on a terminal, not a screenful", () => {
    const out = terminal(true);
    let text = out.event({ type: "finding", finding: finding(11), format: undefined }, at);
    for (let call = 12; call <= 14; call++) {
      text += out.event({ type: "finding", finding: finding(call), format: undefined }, at);
      text += out.flush(at);
    }
    const lines = text.split("\n");
    expect(lines.filter((line) => line.includes("again"))).toHaveLength(3);
    // The second and third again-lines rewrite the one before (cursor up one line, erase it).
    expect(text.split("\u001b[1A\r\u001b[2K")).toHaveLength(3);
    expect(lines.at(-2)).toBe("\u001b[1A\r\u001b[2K          again ×4 · calls 11–14 · counts 10–13 · last 12:03:04");
  });

  it("on a pipe, again-lines are not rewritten, and one analysis's verdicts of a pattern are one line", () => {
    const out = terminal(false);
    let text = out.event({ type: "finding", finding: finding(11), format: undefined }, at);
    for (let call = 12; call <= 30; call++) text += out.event({ type: "finding", finding: finding(call), format: undefined }, at);
    text += out.flush(at);
    expect(text).not.toContain("\u001b");
    expect(text.trimEnd().split("\n")).toHaveLength(4);
  });

  it("another pattern in between: the again-line names its run and detector", () => {
    const out = terminal(true);
    let text = out.event({ type: "finding", finding: finding(11), format: undefined }, at);
    text += out.event({ type: "finding", finding: finding(12, { argsHash: "h2", tool: "read" }), format: undefined }, at);
    text += out.event({ type: "finding", finding: finding(13), format: undefined }, at) + out.flush(at);
    expect(text.trimEnd().split("\n").at(-1)).toBe("12:03:04  warning again · generic_repeat · run s1#2 · exec · ×2 · calls 11–13 · counts 10–12 · last 12:03:04");
  });

  it("on a terminal, lines are cut to its width (rewriting in place moves up exactly one line)", () => {
    const text = terminal(true, 40).event({ type: "finding", finding: finding(11), format: undefined }, at);
    expect(text.split("\n").every((line) => [...line].length <= 39)).toBe(true);
    expect(text).toContain("…");
  });

  it("input text is sanitized: escape sequences in a tool name or run never reach the terminal", () => {
    const hostile = finding(11, { tool: "exec\u001b]52;c;cHduZWQ=\u0007\u001b[2J", run: "r\u001b[31mred", file: "a\u001b[1A.jsonl" });
    const text = terminal(true).event({ type: "finding", finding: hostile, format: undefined }, at);
    expect(text).not.toMatch(/\u001b|\u0007/);
    expect(text).toContain("run rred");
  });

  it("the status line is drawn on a terminal only, and cleared before other output", () => {
    const stats: WatchStats = {
      startedAt: at.getTime(),
      files: 3412,
      units: 3000,
      runs: 41,
      activeRuns: 2,
      lastEvent: { file: "agents/main/sessions/s1.jsonl", at: at.getTime() },
      seen: noLevels(),
      printed: { warning: 4, critical: 1, abort: 0 },
      diagnostics: 0,
      runsWithFindings: [],
      mode: "inotify",
    };
    expect(terminal(false).status(stats, at)).toBe("");
    const out = terminal(true);
    expect(out.status(stats, at)).toBe("watching 3412 files · 2 active runs · last event 12:03:04 s1.jsonl · 5 new findings · 12:03:04");
    expect(out.clearStatus()).toBe("\r\u001b[2K");
    expect(out.clearStatus()).toBe("");
  });
});

describe("watch --format ndjson", () => {
  it("a finding is analyze's ndjson line with observedAt last; other lines have a type", () => {
    const line = JSON.parse(watchNdjsonLine({ type: "finding", finding: finding(11), format: undefined }, at)!);
    expect(Object.keys(line)).toEqual(["run", "agent", "session", "file", "line", "call", "tool", "detector", "level", "count", "threshold", "afterStop", "message", "observedAt"]);
    expect(line.observedAt).toBe(at.toISOString());
    const named = JSON.parse(watchNdjsonLine({ type: "run_named", from: "s1#2", to: "run-8f", agent: "main", session: "s1", file: "s1.jsonl" }, at)!);
    expect(named).toEqual({ type: "run_named", run: "s1#2", name: "run-8f", agent: "main", session: "s1", file: "s1.jsonl", observedAt: at.toISOString() });
    expect(watchNdjsonLine({ type: "notice", text: "x" }, at)).toBeUndefined();
  });
});

describe("watch summary", () => {
  it("files, runs, findings by level, the worst runs first", () => {
    const stats: WatchStats = {
      startedAt: at.getTime() - 725_000,
      files: 3,
      units: 3,
      runs: 5,
      activeRuns: 1,
      lastEvent: undefined,
      seen: { warning: 12, critical: 2, abort: 1 },
      printed: { warning: 2, critical: 0, abort: 1 },
      diagnostics: 4,
      runsWithFindings: [
        { run: "warned", agent: "main", session: "s", file: "f", calls: 12, findings: [{ level: "warning", call: 11 }] },
        { run: "aborted", agent: null, session: "s", file: "f", calls: 40, findings: [{ level: "warning", call: 30 }, { level: "abort", call: 38 }] },
      ],
      mode: "inotify",
    };
    expect(watchSummaryText(stats, at, false)).toBe(
      [
        "looplens watch: 12m 05s, 3 files, 5 runs (1 active in the last 10 min)",
        "findings: 15 (12 warnings, 2 blocks, 1 abort); printed while watching: 3 (2 warnings, 1 abort)",
        "diagnostics: 4 (on stderr as they came)",
        "worst runs (2 of 2 with findings):",
        "  aborted: abort at call 38, 2 findings, 40 calls",
        "  warned (main): warning, 1 finding, 12 calls",
        "",
      ].join("\n"),
    );
  });
});
