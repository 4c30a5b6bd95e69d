/**
 * A canonical events file's run ends are marked final when the file can be read again, so that
 * replay hands each run out as it ends (canonicalEvents.ts, `RunEnds`). A run that goes on after its
 * run_end, or a live event after a marked end, has the file read again without the marks: the
 * analysis is always the one that holds every run to the end of the file (`closeRuns: false`).
 */
import { describe, expect, it } from "vitest";
import { LineTally, ReadAgain, UnitHistory } from "../../../src/adapters/adapter.js";
import { canonicalEventsAdapter } from "../../../src/adapters/events/canonicalEvents.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { resolveConfig } from "../../../src/core/config.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzeFile } from "../../../src/pipeline/analysis.js";
import { tempDir } from "../../hostile/harness.js";

const tmp = tempDir();

const line = (event: Record<string, unknown>) => JSON.stringify(event);
/** A run of `calls` identical reads, with its run_start and run_end. */
function run(id: string, calls: number): string[] {
  const lines = [line({ type: "run_start", run: id, session: "s" })];
  for (let i = 0; i < calls; i++) {
    lines.push(line({ type: "tool_call", run: id, id: `${id}-${i}`, tool: "read", args: { path: "same" } }));
    lines.push(line({ type: "tool_result", run: id, id: `${id}-${i}`, tool: "read", result: { content: [{ type: "text", text: "same" }] } }));
  }
  lines.push(line({ type: "run_end", run: id }));
  return lines;
}

/** What the adapter emits (run ends included) and whether it asked to be read again. */
async function emitted(text: string): Promise<{ finals: string[]; readAgain: boolean }> {
  const path = tmp.write(`events-${Math.random().toString(36).slice(2)}.jsonl`, text);
  const finals: string[] = [];
  const context = {
    tally: new LineTally(),
    unit: new UnitHistory([path], false),
    options: { canReadAgain: true, closeRuns: true, bytePayloads: true },
    emit: (event: LoopEvent) => {
      if (event.type === "run_end" && event.final === true) finals.push(event.run);
      return { used: true } as const;
    },
  };
  try {
    await canonicalEventsAdapter.read(await fileSource(path), context as never);
    return { finals, readAgain: false };
  } catch (error) {
    if (!(error instanceof ReadAgain)) throw error;
    return { finals, readAgain: true };
  }
}

async function bothWays(text: string) {
  const path = tmp.write(`both-${Math.random().toString(36).slice(2)}.jsonl`, text);
  const config = resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true } }]).config;
  const digest = await loadXxhashDigest();
  const marked = await analyzeFile(path, digest, () => config, {});
  const held = await analyzeFile(path, digest, () => config, { closeRuns: false });
  return { marked, held };
}

describe("run ends of canonical events", () => {
  it("are marked final, and the analysis is the one that holds every run", async () => {
    const text = `${[...run("a", 12), ...run("b", 3), ...run("c", 11)].join("\n")}\n`;
    expect(await emitted(text)).toEqual({ finals: ["a", "b", "c"], readAgain: false });
    const { marked, held } = await bothWays(text);
    expect(marked).toEqual(held);
    expect(marked.runs.map((r) => [r.run, r.calls, r.findings.length])).toEqual([
      ["a", 12, 2],
      ["b", 3, 0],
      ["c", 11, 1],
    ]);
  });

  it("have the file read again when a run goes on after its run_end", async () => {
    // Run a ends, b runs, then a's calls go on: a is one run of 12 calls.
    const a = run("a", 12);
    const text = `${[...a.slice(0, 13), a.at(-1)!, ...run("b", 2), ...a.slice(13, -1)].join("\n")}\n`;
    expect((await emitted(text)).readAgain).toBe(true);
    const { marked, held } = await bothWays(text);
    expect(marked).toEqual(held);
    expect(marked.runs.map((r) => [r.run, r.calls])).toEqual([
      ["a", 12],
      ["b", 2],
    ]);
  });

  it("are not marked after a live event, and a live event after a marked end has the file read again", async () => {
    const live = line({ type: "live_marker", marker: "tool_start", run: "a", tool: "read", id: "t1" });
    const before = `${[live, ...run("a", 2), ...run("b", 2)].join("\n")}\n`;
    expect(await emitted(before)).toEqual({ finals: [], readAgain: false });
    const after = `${[...run("a", 2), live, ...run("b", 2)].join("\n")}\n`;
    expect(await emitted(after)).toEqual({ finals: ["a"], readAgain: true });
    for (const text of [before, after]) {
      const { marked, held } = await bothWays(text);
      expect(marked).toEqual(held);
    }
  });
});
