/**
 * Another agent's tools (agents.md rule 1 and 3): a call with `format` is hashed by the generic
 * rules whatever its name, is never a known poll, and an error the agent's adapter recognised as its
 * own "no such tool" message feeds the unknown-tool detector.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, verdicts } from "../helpers/inProcess.js";
import { tempDir } from "../helpers/tempDir.js";

function eventsFile(lines: object[]): string {
  const path = join(tempDir("looplens-foreign-"), "run.jsonl");
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}

function polls(n: number, format?: string): object[] {
  return Array.from({ length: n }, (_, i) => [
    { type: "tool_call", run: "r", id: `c${i}`, tool: "process", ...(format ? { format } : {}), args: { action: "poll", sessionId: "p" } },
    { type: "tool_result", run: "r", id: `c${i}`, result: { content: [{ type: "text", text: "running" }], details: { status: "running" } } },
  ]).flat();
}

describe("foreign tools", () => {
  it("an OpenClaw `process` poll is a known poll; the same call from another agent is a generic repeat", async () => {
    const openclaw = verdicts(await analyzePaths([eventsFile(polls(12))]));
    const foreign = verdicts(await analyzePaths([eventsFile(polls(12, "codex"))]));
    expect(new Set(openclaw.map(([, , detector]) => detector))).toEqual(new Set(["known_poll_no_progress"]));
    expect(new Set(foreign.map(([, , detector]) => detector))).toEqual(new Set(["generic_repeat"]));
  });

  it("OpenClaw's exec rule hashes `aggregated`, not the text; a foreign `exec` hashes {details, text}", async () => {
    // Same details, a different text each time: no progress for OpenClaw's exec, progress for a foreign one.
    const execs = (format?: string) =>
      Array.from({ length: 21 }, (_, i) => [
        { type: "tool_call", run: "r", id: `c${i}`, tool: "exec", ...(format ? { format } : {}), args: { command: "make" } },
        { type: "tool_result", run: "r", id: `c${i}`, result: { content: [{ type: "text", text: `took ${i} ms` }], details: { status: "failed", exitCode: 2, aggregated: "error" } } },
      ]).flat();
    const openclaw = verdicts(await analyzePaths([eventsFile(execs())]));
    const foreign = verdicts(await analyzePaths([eventsFile(execs("gemini-cli"))]));
    expect(openclaw.some(([, , detector, level]) => detector === "global_circuit_breaker" || level === "critical")).toBe(true);
    expect(foreign.every(([, , , level]) => level === "warning")).toBe(true);
  });

  it("an agent's own unknown-tool error, named by its adapter, counts toward unknown_tool_repeat", async () => {
    const attempts = Array.from({ length: 11 }, (_, i) => [
      { type: "tool_call", run: "r", id: `c${i}`, tool: "WebBrowse", format: "claude-code", args: {} },
      { type: "tool_result", run: "r", id: `c${i}`, error: "<tool_use_error>No such tool available: WebBrowse</tool_use_error>", unknownTool: "WebBrowse" },
    ]).flat();
    const found = verdicts(await analyzePaths([eventsFile(attempts)]));
    expect(found).toContainEqual(["r", 11, "unknown_tool_repeat", "critical", 10]);
    // Without the adapter's word for it, the text alone names no unknown tool to OpenClaw's patterns.
    const unnamed = attempts.map((event) => ("unknownTool" in event ? { ...event, unknownTool: undefined } : event));
    expect(verdicts(await analyzePaths([eventsFile(unnamed)])).some(([, , detector]) => detector === "unknown_tool_repeat")).toBe(false);
  });
});
