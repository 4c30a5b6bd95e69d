/**
 * The Gemini CLI fixtures (fixtures/agents/gemini/): committed as geminiFixtures.ts writes them, and
 * what each yields — calls, results linked to their call, runs, compactions, lines — stated here and
 * checked against an independent count of the records in the file.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvents } from "../../../src/pipeline/analysis.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzePaths } from "../../helpers/inProcess.js";
import { geminiFixtures } from "./geminiFixtures.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const fixture = (name: string) => join(ROOT, geminiFixtures().find((f) => f.path.includes(name))!.path);

interface Yield {
  calls: number;
  linked: number;
  runs: number;
  compactions: number;
  skipped: number;
  agents: string[];
  findings: string[];
}

async function yieldOf(path: string): Promise<Yield> {
  const events: LoopEvent[] = [];
  await readEvents([path], await loadXxhashDigest(), {}, (e) => events.push(e as LoopEvent));
  const analysis = await analyzePaths([path]);
  const { read, used, ignored, skipped } = analysis.lines;
  expect(read).toBe(used + ignored + skipped);
  expect(analysis.files.map((f) => f.format)).toEqual(["gemini-cli"]);
  return {
    calls: events.filter((e) => e.type === "tool_call").length,
    linked: events.filter((e) => e.type === "tool_result").length,
    runs: analysis.runs.length,
    compactions: analysis.runs.reduce((n, r) => n + r.compactions, 0),
    skipped,
    agents: [...new Set(analysis.runs.map((r) => r.agent ?? ""))],
    findings: [...new Set(analysis.runs.flatMap((r) => [...r.findings].map((f) => `${f.tool} ${f.detector} ${f.level}`)))],
  };
}

/** An independent count: the distinct tool-call ids and user messages the JSON records hold. */
function recordCounts(text: string): { calls: number; finished: number; users: number } {
  const messages = new Map<string, Record<string, unknown>>();
  const legacy = text.startsWith("{\n");
  const records = legacy ? (JSON.parse(text).messages as Record<string, unknown>[]) : text.split("\n").flatMap((l) => { try { const v = JSON.parse(l); return v && typeof v === "object" && !Array.isArray(v) ? [v] : []; } catch { return []; } });
  for (const r of records) if (typeof r.id === "string" && typeof r.type === "string") messages.set(r.id, r);
  const calls = [...messages.values()].flatMap((m) => (Array.isArray(m.toolCalls) ? (m.toolCalls as Array<{ status: string }>) : []));
  return { calls: calls.length, finished: calls.filter((c) => ["success", "error", "cancelled"].includes(c.status)).length, users: [...messages.values()].filter((m) => m.type === "user").length };
}

describe("fixtures/agents/gemini", () => {
  it("the committed fixtures are what geminiFixtures.ts writes (UPDATE_FIXTURES=1 rewrites them)", () => {
    for (const { path, text } of geminiFixtures()) {
      const target = join(ROOT, path);
      if (process.env.UPDATE_FIXTURES === "1") {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
      expect(readFileSync(target, "utf8"), path).toBe(text);
    }
  });

  it("each fixture yields what its records hold", async () => {
    for (const { path, text } of geminiFixtures()) {
      const counted = recordCounts(text);
      const got = await yieldOf(join(ROOT, path));
      expect([got.calls, got.linked, got.runs], path).toEqual([counted.calls, counted.finished, counted.users]);
    }
  });

  it("main session (JSONL v0.40 shape): 16 calls, all linked, 3 runs, a read loop", async () => {
    expect(await yieldOf(fixture("a1b2c3d4.jsonl"))).toEqual({ calls: 16, linked: 16, runs: 3, compactions: 0, skipped: 0, agents: ["gemini-cli"], findings: ["read_file generic_repeat warning"] });
  });

  it("troubled session: errors, the unknown tool blocked on its 11th attempt, no compaction guessed, a call left running", async () => {
    const got = await yieldOf(fixture("e5f6a7b8"));
    expect(got).toMatchObject({ calls: 23, linked: 22, runs: 3, compactions: 0, skipped: 0 });
    expect(got.findings).toContain("web_browse unknown_tool_repeat critical");
    expect(got.findings.some((f) => f.includes("compaction_loop_persisted"))).toBe(false);
  });

  it("sub-agent: its own session and agent, its ping-pong attributed to it", async () => {
    const got = await yieldOf(fixture("5e6f7a8b"));
    expect(got).toMatchObject({ calls: 14, linked: 14, runs: 1, agents: ["gemini-cli/5e6f7a8b-2c3d-4e5f-9a0b-1c2d3e4f5a6b"] });
    expect(got.findings.some((f) => f.includes("ping_pong"))).toBe(true);
  });

  it("legacy .json (REAL 2025-10 shape): 10 calls, all linked, 4 runs, nothing skipped", async () => {
    expect(await yieldOf(fixture("0b23371a"))).toEqual({ calls: 10, linked: 10, runs: 4, compactions: 0, skipped: 0, agents: ["gemini-cli"], findings: [] });
  });

  it("bad lines: four skipped, the two calls still read", async () => {
    expect(await yieldOf(fixture("badbad00"))).toMatchObject({ calls: 2, linked: 2, runs: 2, skipped: 4 });
  });
});
