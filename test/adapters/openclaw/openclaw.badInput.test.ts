/**
 * Bad input in OpenClaw transcripts and trajectories (inputs.md "Bad input"): each case is handled
 * without crashing, every line is accounted for (read = used + ignored + skipped), bad lines are
 * reported as `file:line: reason`, and the rest replays as if the damage were not there.
 */
import { describe, expect, it } from "vitest";
import type { Analysis, InputOptions } from "../../../src/pipeline/analysis.js";
import { runCli } from "../../helpers/cli.js";
import { analyzePaths, verdicts, writeSessionFile } from "../../helpers/inProcess.js";
import { TranscriptBuilder } from "../../helpers/openclawTranscript.js";
import { TrajectoryBuilder } from "../../helpers/openclawTrajectoryBuilder.js";

const READ = { name: "read", args: { path: "notes.md" } };

/**
 * Header, bootstrap, user, 11 identical reads (call + result lines), a closing text: 26 lines, 25
 * used; call 11 is the 10th repeat of the same read, a generic_repeat warning. `middle` runs after
 * the fifth read, to put damage on the active branch.
 */
function transcript(middle?: (t: TranscriptBuilder) => void): TranscriptBuilder {
  const t = new TranscriptBuilder("s-1");
  t.bootstrap("r1");
  t.user("Summarise my notes.");
  for (let i = 1; i <= 11; i++) {
    const call = { id: `c${i}`, ...READ };
    t.calls([call]);
    t.result(call, { kind: "result", text: "nothing new" });
    if (i === 5) middle?.(t);
  }
  t.assistantText("Your notes say nothing new.");
  return t;
}

const BASE_FINDINGS = [["r1", 11, "generic_repeat", "warning", 10]];

async function analyze(content: string | Buffer, options: InputOptions = {}): Promise<{ analysis: Analysis; path: string }> {
  const path = writeSessionFile(content);
  const analysis = await analyzePaths([path], options);
  const { read, used, ignored, skipped } = analysis.lines;
  expect(read).toBe(used + ignored + skipped);
  return { analysis, path };
}

const reasons = (analysis: Analysis) => analysis.diagnostics.map((d) => [d.line, d.reason]);

describe("bad input in session transcripts", () => {
  it("the undamaged transcript: 26 lines, 25 used, one warning", async () => {
    const { analysis } = await analyze(transcript().text());
    expect(analysis.lines).toEqual({ read: 26, used: 25, ignored: 1, skipped: 0 });
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
    expect(analysis.diagnostics).toEqual([]);
  });

  it("a truncated last line (crash mid-write) is skipped; the active branch ends at the entry before it", async () => {
    const t = transcript();
    const { analysis, path } = await analyze(t.text(t.nextLineSample()));
    expect(analysis.lines).toEqual({ read: 27, used: 25, ignored: 1, skipped: 1 });
    expect(analysis.diagnostics).toEqual([{ file: path, line: 27, reason: "truncated last line (not valid JSON)" }]);
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("blank lines are ignored", async () => {
    const lines = transcript().text().split("\n");
    lines.splice(10, 0, "", "   \t");
    const { analysis } = await analyze(lines.join("\n"));
    expect(analysis.lines).toEqual({ read: 28, used: 25, ignored: 3, skipped: 0 });
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
    expect(analysis.diagnostics).toEqual([]);
  });

  it("a BOM and CRLF line ends change nothing", async () => {
    const { analysis } = await analyze("\uFEFF" + transcript().text().replace(/\n/g, "\r\n"));
    expect(analysis.lines).toEqual({ read: 26, used: 25, ignored: 1, skipped: 0 });
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
    expect(analysis.diagnostics).toEqual([]);
    expect(analysis.runs.map((r) => r.session)).toEqual(["s-1"]);
  });

  it("invalid UTF-8 inside a line is decoded as U+FFFD and the line is used", async () => {
    const text = transcript().text().replace("Summarise my notes.", "Summarise \u0001BAD\u0001 notes.");
    const bytes = Buffer.from(text);
    const at = bytes.indexOf("\u0001BAD\u0001");
    bytes[at] = 0xff;
    bytes[at + 4] = 0xc3; // a lone lead byte
    const { analysis } = await analyze(bytes);
    expect(analysis.lines).toEqual({ read: 26, used: 25, ignored: 1, skipped: 0 });
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("lines that are not objects are skipped with a reason", async () => {
    const lines = transcript().text().split("\n");
    lines.splice(10, 0, "[1,2]", "42", '"text"', "null", "{not json");
    const { analysis } = await analyze(lines.join("\n"));
    expect(analysis.lines).toEqual({ read: 31, used: 25, ignored: 1, skipped: 5 });
    expect(reasons(analysis)).toEqual([
      [11, "not a JSON object"],
      [12, "not a JSON object"],
      [13, "not a JSON object"],
      [14, "not a JSON object"],
      [15, "not valid JSON"],
    ]);
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("entries missing what replay needs are skipped; unusable toolCall blocks are noted", async () => {
    const t = transcript((t) => {
      t.entry("message", {}); // line 14: no message
      t.entry("message", { message: { role: "toolResult", content: [{ type: "text", text: "orphan" }], isError: false } }); // 15
      t.entry("message", { message: { role: "assistant", content: [{ type: "toolCall", id: "x", arguments: {} }] } }); // 16
      t.entry("message", { message: { role: "assistant", content: [{ type: "toolCall", id: "y", arguments: {} }, { type: "toolCall", id: "z", name: "ls", arguments: {} }] } }); // 17
      t.result({ id: "z", name: "ls" }, { kind: "result", text: "a b" }); // 18
    });
    const lines = t.text().split("\n");
    lines.splice(3, 0, '{"id":"0000ffff","parentId":null}'); // line 4: no type
    const { analysis } = await analyze(lines.join("\n"));
    expect(analysis.lines).toEqual({ read: 32, used: 27, ignored: 1, skipped: 4 });
    expect(reasons(analysis)).toEqual([
      [4, 'entry without "type"'],
      [15, 'message entry without a "message" object with a "role"'],
      [16, "toolResult without toolCallId or toolName"],
      [17, '1 toolCall block without a "name"; not replayed'],
      [18, '1 toolCall block without a "name"; not replayed'],
    ]);
    // The ls call in the middle is call 6; the reads after it are calls 7–12.
    expect(verdicts(analysis)).toEqual([["r1", 12, "generic_repeat", "warning", 10]]);
  });

  it("unknown entry types and message roles are ignored and counted with a diagnostic", async () => {
    const t = transcript((t) => {
      t.entry("holographic_snapshot", { data: 1 });
      t.entry("message", { message: { role: "narrator", content: [] } });
      t.label();
    });
    const { analysis } = await analyze(t.text());
    expect(analysis.lines).toEqual({ read: 29, used: 25, ignored: 4, skipped: 0 });
    expect(reasons(analysis)).toEqual([
      [14, 'unknown entry type "holographic_snapshot"'],
      [15, 'unknown message role "narrator"'],
    ]);
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("a dangling parentId is reported and the active branch continues at the entry before it", async () => {
    const lines = transcript().text().split("\n");
    const entry = JSON.parse(lines[13]!) as Record<string, unknown>;
    lines[13] = JSON.stringify({ ...entry, parentId: "deadbeef" });
    const { analysis } = await analyze(lines.join("\n"), { activeBranch: true });
    expect(analysis.lines).toEqual({ read: 26, used: 25, ignored: 1, skipped: 0 });
    expect(reasons(analysis)).toEqual([[14, 'parentId "deadbeef" matches no earlier entry; the branch continues at the entry before it']]);
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("a toolResult without its call is not replayed, with a diagnostic", async () => {
    const t = transcript((t) => void t.result({ id: "ghost", name: "read" }, { kind: "result", text: "boo" }));
    const { analysis } = await analyze(t.text());
    expect(analysis.lines).toEqual({ read: 27, used: 25, ignored: 2, skipped: 0 });
    expect(reasons(analysis)).toEqual([[14, 'result (id "ghost") matches no call of run "r1"; not replayed']]);
    expect(verdicts(analysis)).toEqual(BASE_FINDINGS);
  });

  it("through the CLI: diagnostics on stderr as file:line: reason, exit 0 (2 with --strict)", () => {
    const t = transcript();
    const lines = t.text().split("\n");
    lines.splice(10, 0, "[]");
    const path = writeSessionFile(lines.join("\n") + t.nextLineSample().slice(0, 20));
    const result = runCli(["analyze", path, "-f", "ndjson"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(`${path}:11: not a JSON object\n${path}:28: truncated last line (not valid JSON)\n`);
    expect(runCli(["analyze", path, "--strict", "-q"]).status).toBe(2);
  });
});

describe("bad input in trajectory files", () => {
  it("skips what it cannot map, with reasons, and replays the rest", async () => {
    const t = new TrajectoryBuilder("t-1", "agent:main:main");
    t.runtime("r1", "session.started");
    for (let i = 1; i <= 11; i++) {
      t.runtime("r1", "tool.call", { toolCallId: `c${i}`, name: "read", args: { path: "notes.md" } });
      t.runtime("r1", "tool.result", { toolCallId: `c${i}`, name: "read", success: true, result: { content: [{ type: "text", text: "same" }] } });
    }
    t.runtime("r1", "model.completed", { compactionCount: 2 }); // no compaction event says when
    const good = t.text().split("\n").filter(Boolean);
    const event = (fields: Record<string, unknown>) => JSON.stringify({ traceSchema: "openclaw-trajectory", schemaVersion: 1, sessionId: "t-1", ...fields });
    const bad = [
      event({ schemaVersion: 2, type: "tool.call" }),
      event({ type: "tool.call", data: { toolCallId: "x", name: "read", args: {} } }), // no runId, but r1 started: used
      event({ type: "tool.call", runId: "r1", data: { toolCallId: "y", args: {} } }),
      event({ type: "tool.result", runId: "r1", data: { toolCallId: "y", name: "read", success: true } }),
      event({ type: "tool.call", runId: "r1", data: { truncated: true, reason: "trajectory-event-size-limit", originalBytes: 400000 } }),
      event({ type: "model.thoughts", runId: "r1", data: {} }),
      event({ type: "tool.call", runId: "r1", data: "nope" }),
      JSON.stringify({ type: "tool_call", run: "r1", tool: "read" }),
    ];
    const path = writeSessionFile([...good.slice(0, 3), ...bad, ...good.slice(3)].join("\n") + "\n", "t-1.trajectory.jsonl");
    const analysis = await analyzePaths([path]);
    const { read, used, ignored, skipped } = analysis.lines;
    expect(read).toBe(used + ignored + skipped);
    expect(analysis.lines).toEqual({ read: 32, used: 24, ignored: 2, skipped: 6 });
    expect(reasons(analysis)).toEqual([
      [4, "unsupported trajectory schemaVersion 2"],
      [6, 'tool.call without a tool "name"'],
      [7, "tool.result without a result or error"],
      [8, "tool.call cut by the trajectory recorder (event over its size limit); its payload is lost"],
      [9, 'unknown trajectory event type "model.thoughts"'],
      [10, '"data" is not an object'],
      [11, "not an openclaw-trajectory event (traceSchema)"],
      [32, "model.completed reports 2 compaction(s) but the trajectory does not say when; the post-compaction guard is not armed"],
    ]);
    // The run-less call (line 5, other args) belongs to r1 as call 2, so the 11th read is call 12.
    expect(verdicts(analysis)).toEqual([["r1", 12, "generic_repeat", "warning", 10]]);
    expect(analysis.runs.map((r) => [r.agent, r.session])).toEqual([["main", "t-1"]]);
  });
});
