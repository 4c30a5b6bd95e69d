/**
 * A long report is written piece by piece, each piece once the one before has gone out: into a pipe,
 * writes are asynchronous, and a report written in one go waited in memory whole.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { drainTracingIo } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

function manyRuns(runs: number): string {
  const lines: string[] = [];
  for (let r = 0; r < runs; r++) {
    lines.push(JSON.stringify({ type: "tool_call", run: `run-${r}`, id: `c${r}`, tool: "read", args: { path: `f${r}` } }));
    lines.push(JSON.stringify({ type: "tool_result", run: `run-${r}`, id: `c${r}`, tool: "read", result: { content: [{ type: "text", text: "ok" }] } }));
  }
  return `${lines.join("\n")}\n`;
}

describe("analyze writes a long report as the output takes it", () => {
  it("waits for the output to drain between pieces", async () => {
    const path = join(tempDir("looplens-drain-"), "runs.jsonl");
    writeFileSync(path, manyRuns(3000));
    const steps: string[] = [];
    const { io, output } = drainTracingIo(steps);
    const status = await main(["node", "looplens", ...[path, "-f", "json"]], io);
    const out = output();
    expect(status).toBe(0);
    expect(JSON.parse(out).runs).toHaveLength(3000);
    // Several pieces, and never a piece before the one before it drained.
    expect(steps.filter((s) => s === "w").length).toBeGreaterThan(2);
    expect(steps.join("")).toMatch(/^(wd)+w?$/);
  });
});
