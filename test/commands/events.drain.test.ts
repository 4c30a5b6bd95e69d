/**
 * `looplens events` prints as it reads; between chunks of input it waits for what it printed to go
 * out, so that a slow pipe does not make the whole output wait in memory.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { drainTracingIo } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

describe("looplens events writes as the output takes it", () => {
  it("waits for the output to drain between chunks of a large input", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 12000; i++) {
      lines.push(JSON.stringify({ type: "tool_call", run: `run-${i % 50}`, id: `c${i}`, tool: "read", args: { path: `f${i}`, pad: "x".repeat(150) } }));
    }
    const path = join(tempDir("looplens-events-drain-"), "events.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n`); // ~2.4 MB: read in several chunks
    const steps: string[] = [];
    const { io, output } = drainTracingIo(steps);
    const status = await main(["node", "looplens", ...["events", path]], io);
    const out = output();
    expect(status).toBe(0);
    expect(out.split("\n").filter((line) => line !== "")).toHaveLength(12000);
    const trace = steps.join("");
    // Printed in several writes, and the reading waited for them to drain after each chunk: between
    // two drains, only what one chunk's lines gave (a write every 1024 events, and one at its end).
    expect(trace.match(/d/g)!.length).toBeGreaterThan(3);
    for (const between of trace.split("d")) expect(between.length, trace).toBeLessThanOrEqual(2);
  });
});
