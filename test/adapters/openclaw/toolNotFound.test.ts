/**
 * Results with no call whose text is the runtime's own `Tool <name> not found` for a name outside the
 * unknown-tool pattern (a real case: `google:search`, nine in a row, from a local model): attempted
 * calls (inputs.md §2), replayed as calls of their `toolName`. The generic detectors count them;
 * `unknown_tool_repeat` does not (detection.md's exact pattern), and the report says why.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toolNotFoundName, unrecognisedToolNotFound } from "../../../src/core/toolNotFound.js";
import { runCli } from "../../helpers/cli.js";
import { analyzePaths, verdicts, writeSessionFile } from "../../helpers/inProcess.js";
import { Conversation, TrajectoryBuilder, writeAttempt } from "../../helpers/openclawTrajectoryBuilder.js";
import { TranscriptBuilder } from "../../helpers/openclawTranscript.js";

const written: string[] = [];
afterAll(() => written.forEach((path) => rmSync(dirname(dirname(dirname(path))), { recursive: true, force: true })));

function file(text: string, name: string): string {
  const path = writeSessionFile(text, name);
  written.push(path);
  return path;
}

/** A local model's run: `count` results of `tool` refused by the runtime, persisted without any toolCall block. */
function refusedRun(tool: string, count: number): string {
  const t = new TranscriptBuilder("s-search");
  t.user("what is the weather in Lisbon?");
  for (let i = 1; i <= count; i++) t.result({ id: `call_${i}`, name: tool }, { kind: "error", text: `Tool ${tool} not found` });
  t.assistantText("I could not search.");
  return t.text();
}

describe("the runtime's `Tool <name> not found` for a name outside the unknown-tool pattern", () => {
  it("is told from other texts", () => {
    expect(toolNotFoundName("Tool google:search not found")).toBe("google:search");
    expect(toolNotFoundName("  Tool mcp/srv do not found\n")).toBe("mcp/srv do");
    for (const text of ["Tool  not found", "Tool x not found in registry", "tool x not found", "Command not found", "Tool x not found.\nTool y"]) {
      expect(toolNotFoundName(text), text).toBeUndefined();
    }
    expect(unrecognisedToolNotFound("Tool google:search not found")).toBe("google:search");
    expect(unrecognisedToolNotFound("Tool browser not found")).toBeUndefined(); // the pattern takes it: an unknown-tool streak
  });

  it("nine in a row (the real case): nine attempted calls replayed and counted as rebuilt, no diagnostic", async () => {
    const analysis = await analyzePaths([file(refusedRun("google:search", 9), "s-search.jsonl")]);
    expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual([["s-search#1", 9]]);
    expect(analysis.transcript.reconstructedCalls).toBe(9);
    expect(analysis.diagnostics).toEqual([]);
    expect(verdicts(analysis)).toEqual([]);
  });

  it("eleven: the generic detector warns at the 11th (ten before it), no unknown-tool streak (unlike a name the pattern takes)", async () => {
    const colon = await analyzePaths([file(refusedRun("google:search", 11), "s-search.jsonl")]);
    expect(verdicts(colon)).toEqual([["s-search#1", 11, "generic_repeat", "warning", 10]]);
    const plain = await analyzePaths([file(refusedRun("browser", 11), "s-search.jsonl")]);
    expect(verdicts(plain).map(([, call, detector, level]) => [call, detector, level])).toContainEqual([11, "unknown_tool_repeat", "critical"]);
  });

  it("the same from a runtime sidecar's snapshots", async () => {
    const t = new TrajectoryBuilder("s-search", "agent:main:main");
    writeAttempt(t, new Conversation(), "run-search", {
      prompt: "what is the weather in Lisbon?",
      version: "2026.5.2",
      agentId: "main",
      work: (c) => {
        for (let i = 1; i <= 11; i++) c.result({ id: `call_${i}`, name: "google:search" }, { kind: "error", text: "Tool google:search not found" });
      },
    });
    const analysis = await analyzePaths([file(t.text(), "s-search.trajectory.jsonl")]);
    expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual([["run-search", 11]]);
    expect(analysis.transcript.reconstructedCalls).toBe(11);
    expect(verdicts(analysis)).toEqual([["run-search", 11, "generic_repeat", "warning", 10]]);
  });

  it("a large last file read with its first pass finds them too (no second reading, same verdicts)", async () => {
    const path = file(refusedRun("google:search", 11), "s-search.jsonl");
    const withPass = await analyzePaths([path], { lastFilePassBytes: 1 });
    const without = await analyzePaths([path]);
    expect(verdicts(withPass)).toEqual(verdicts(without));
    expect(withPass.transcript.reconstructedCalls).toBe(11);
  });

  it("the table and markdown say the runtime's unknown-tool guard does not recognise the name", () => {
    const path = file(refusedRun("google:search", 11), "s-search.jsonl");
    const sentence = `OpenClaw's unknown-tool guard does not recognise the name "google:search", so these calls are no unknown-tool streak`;
    for (const format of ["table", "markdown"]) {
      const out = runCli(["analyze", "-f", format, path], { env: { COLUMNS: "400" } });
      expect(out.status).toBe(0);
      expect(out.stdout.replace(/\s+/g, " "), format).toContain(sentence);
    }
    const plain = runCli(["analyze", "-f", "markdown", file(refusedRun("browser", 11), "s-search.jsonl")]);
    expect(plain.stdout).not.toContain("does not recognise");
  });
});
