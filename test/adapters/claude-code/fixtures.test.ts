/**
 * What each Claude Code fixture (written in the shapes of the real samples) yields — calls, results
 * linked to their call, runs, compactions, lines — and the per-feature behaviour behind it.
 */
import { describe, expect, it } from "vitest";
import { readEvents } from "../../../src/pipeline/analysis.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzePaths } from "../../helpers/inProcess.js";

const DIR = "fixtures/agents/claude-code";
const SUB = `${DIR}/subagent-v2.1/6f708192-0000-4000-8000-00000000ff07`;

async function eventsOf(path: string) {
  const events: LoopEvent[] = [];
  await readEvents([path], await loadXxhashDigest(), {}, (event) => events.push(event as LoopEvent));
  return events;
}

/** Results whose id a call of the same run carried before them. */
function linked(events: readonly LoopEvent[]): number {
  const open = new Set<string>();
  let count = 0;
  for (const e of events) {
    if (e.type === "tool_call" && e.id !== undefined) open.add(`${e.run}\u0000${e.id}`);
    if (e.type === "tool_result" && e.id !== undefined && open.delete(`${e.run}\u0000${e.id}`)) count++;
  }
  return count;
}

async function yields(path: string) {
  const events = await eventsOf(path);
  const analysis = await analyzePaths([path]);
  return {
    calls: events.filter((e) => e.type === "tool_call").length,
    linked: linked(events),
    runs: analysis.runs.length,
    compactions: events.filter((e) => e.type === "compaction").length,
    skipped: analysis.lines.skipped,
    detectors: [...new Set(analysis.runs.flatMap((r) => [...r.findings].map((f) => f.detector)))].sort(),
  };
}

describe("Claude Code fixtures", () => {
  const table: Array<[string, ReturnType<typeof yields> extends Promise<infer T> ? T : never]> = [
    ["loop-v2.0.jsonl", { calls: 22, linked: 22, runs: 2, compactions: 0, skipped: 0, detectors: ["generic_repeat"] }],
    ["ping-pong-v2.0.jsonl", { calls: 24, linked: 24, runs: 1, compactions: 0, skipped: 0, detectors: ["ping_pong"] }],
    ["errors-unknown-tool-v1.0.jsonl", { calls: 14, linked: 14, runs: 1, compactions: 0, skipped: 0, detectors: ["unknown_tool_repeat"] }],
    ["compaction-loop-v2.1.jsonl", { calls: 8, linked: 8, runs: 2, compactions: 1, skipped: 0, detectors: ["compaction_loop_persisted"] }],
    ["parallel-v2.0.jsonl", { calls: 18, linked: 18, runs: 1, compactions: 0, skipped: 0, detectors: [] }],
    ["sidechain-inline-v1.0.jsonl", { calls: 16, linked: 16, runs: 2, compactions: 0, skipped: 0, detectors: ["generic_repeat"] }],
    ["rewind-copies-v2.0.jsonl", { calls: 7, linked: 7, runs: 2, compactions: 0, skipped: 0, detectors: [] }],
    ["bad-lines-v2.0.jsonl", { calls: 2, linked: 1, runs: 1, compactions: 0, skipped: 4, detectors: [] }],
  ];
  for (const [file, expected] of table) {
    it(`${file} yields ${expected.calls} calls, ${expected.linked} linked results, ${expected.runs} runs, ${expected.compactions} compactions`, async () => {
      expect(await yields(`${DIR}/${file}`)).toEqual(expected);
    });
  }

  it("the calls carry format claude-code and results the generic {content, details} without volatile fields", async () => {
    const events = await eventsOf(`${DIR}/ping-pong-v2.0.jsonl`);
    const call = events.find((e) => e.type === "tool_call")!;
    expect(call).toMatchObject({ format: "claude-code", tool: "Read", agent: "claude-code" });
    const grep = events.filter((e) => e.type === "tool_result" && e.tool === "Grep");
    expect(grep[0]).toMatchObject({ result: { content: [{ type: "text", text: "Found 1 file\nsrc/a.ts" }], details: { numFiles: 1 } } });
    // durationMs differs on every Grep result: dropped, so their hashes agree
    expect(grep.every((e) => e.type === "tool_result" && !("durationMs" in ((e.result as { details: object }).details)))).toBe(true);
  });

  it("errors are error outcomes, and Claude Code's 'No such tool available' names the tool", async () => {
    const results = (await eventsOf(`${DIR}/errors-unknown-tool-v1.0.jsonl`)).filter((e) => e.type === "tool_result");
    expect(results.every((e) => e.type === "tool_result" && typeof e.error === "string")).toBe(true);
    const unknown = results.filter((e) => e.type === "tool_result" && e.unknownTool !== undefined);
    expect(unknown.map((e) => e.type === "tool_result" && e.unknownTool)).toEqual(Array(11).fill("Deploy"));
  });

  it("parallel calls of one response are replayed one by one, each followed by its own result", async () => {
    const events = (await eventsOf(`${DIR}/parallel-v2.0.jsonl`)).filter((e) => e.type === "tool_call" || e.type === "tool_result");
    for (let i = 0; i < events.length; i += 2) {
      expect(events[i]!.type).toBe("tool_call");
      expect(events[i + 1]).toMatchObject({ type: "tool_result", id: events[i]!.type === "tool_call" ? (events[i] as { id: string }).id : "" });
    }
  });

  it("a sub-agent file and an inline sidechain are sessions of their own, with the sub-agent's loop attributed to it", async () => {
    const folder = await analyzePaths([`${DIR}/subagent-v2.1`]);
    const sub = folder.runs.find((r) => r.agent !== "claude-code")!;
    expect(sub).toMatchObject({ agent: "claude-code/a1b2c3d4e5f607182", session: "6f708192-0000-4000-8000-00000000ff07/agent-a1b2c3d4e5f607182", calls: 11 });
    expect([...sub.findings].map((f) => f.detector)).toContain("generic_repeat");
    expect(folder.runs.find((r) => r.agent === "claude-code")!.findings).toEqual([]);
    const inline = await analyzePaths([`${DIR}/sidechain-inline-v1.0.jsonl`]);
    const side = inline.runs.find((r) => r.agent === "claude-code/sidechain")!;
    expect(side.calls).toBe(12);
    expect(inline.runs.find((r) => r.agent === "claude-code")!).toMatchObject({ calls: 4, findings: [] });
    expect((await yields(`${SUB}/subagents/agent-a1b2c3d4e5f607182.jsonl`)).calls).toBe(11);
  });

  it("a rewound branch is still replayed, and copied entries are not replayed again", async () => {
    const analysis = await analyzePaths([`${DIR}/rewind-copies-v2.0.jsonl`]);
    expect(analysis.transcript.copies).toBe(2);
    const ids = (await eventsOf(`${DIR}/rewind-copies-v2.0.jsonl`)).filter((e) => e.type === "tool_call").map((e) => (e as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("bad lines are skipped with a reason and the rest is read", async () => {
    const analysis = await analyzePaths([`${DIR}/bad-lines-v2.0.jsonl`]);
    const reasons = analysis.diagnostics.map((d) => d.reason);
    expect(reasons).toEqual(expect.arrayContaining(["not valid JSON", "not a JSON object", 'assistant entry without a "message" object', "truncated last line (not valid JSON)", 'unknown entry type "brand-new-entry"']));
    const { read, used, ignored, skipped } = analysis.lines;
    expect(read).toBe(used + ignored + skipped);
  });
});
