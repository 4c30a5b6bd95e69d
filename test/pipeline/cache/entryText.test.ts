/**
 * A unit's entry read back as text (analysisEntry.ts): the runs' bytes come in read chunks of 1 MiB
 * and are decoded as they come, so a character cut between two chunks must come out whole. Every
 * name here is of three-byte characters, so the chunk ends of its ~8 MB entry fall inside characters.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzeUnit } from "../../../src/pipeline/analysis.js";
import { analyzeAndKeep, cachedAnalysis } from "../../../src/pipeline/cache/analysisCache.js";
import { loadByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { cacheSetup } from "../../../src/pipeline/cache/cacheSetup.js";
import { UnitCache } from "../../../src/pipeline/cache/unitCache.js";
import { createConfigResolver } from "../../../src/pipeline/configResolution.js";
import { runRecords } from "../../../src/pipeline/runRecords.js";
import { tempDir } from "../../helpers/tempDir.js";

/** Runs named in three-byte characters, each one call. */
function wideRuns(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = { run: `${"測試".repeat(500)}-${i}`, session: `會話-${i}`, agent: "main" };
    lines.push(JSON.stringify({ type: "run_start", ...at }));
    lines.push(JSON.stringify({ type: "tool_call", ...at, id: `c${i}`, tool: "exec", args: { command: `編譯 ${i}` } }));
    lines.push(JSON.stringify({ type: "tool_result", ...at, id: `c${i}`, tool: "exec", result: { content: [{ type: "text", text: "好" }] } }));
  }
  return `${lines.join("\n")}\n`;
}

describe("an entry read back across read chunks", () => {
  it("gives the runs as analysed, characters cut between chunks whole", async () => {
    const dir = tempDir("looplens-entry-text-");
    const unit = [join(dir, "wide.jsonl")];
    writeFileSync(unit[0]!, wideRuns(2500));
    const digest = await loadXxhashDigest();
    const resolver = await createConfigResolver({});
    const configFor = (agent: string | null) => resolver.effectiveFor(agent).config;
    const cache = await UnitCache.open(cacheSetup({ LOOPLENS_CACHE_DIR: join(dir, "cache") }, "test", await loadByteHasher()));
    const analysed = await analyzeAndKeep(cache, unit, {}, configFor, (resume) => analyzeUnit(unit, digest, configFor, {}, undefined, resume));
    cache.finish("analyze");
    const again = await UnitCache.open(cacheSetup({ LOOPLENS_CACHE_DIR: join(dir, "cache") }, "test", await loadByteHasher()));
    const hit = cachedAnalysis(again, unit, {}, configFor);
    expect(hit).toBeDefined();
    expect(hit!.runs.length).toBe(2500);
    expect(hit!.runs.map((run) => run.run)).toEqual(analysed.runs.map((run) => run.run));
    // Every run as the entry writes it (a fresh run holds fields of the replay's own besides).
    expect(hit!.runs.findIndex((run, i) => [...runRecords(run)].join("\n") !== [...runRecords(analysed.runs[i]!)].join("\n"))).toBe(-1);
  }, 120_000);
});
