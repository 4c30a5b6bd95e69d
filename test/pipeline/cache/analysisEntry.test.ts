/**
 * Analysis entries (analysisEntry.ts) of units whose runs spilled: their runs are copied into the
 * entry as the spill file holds them, their totals come from the spilled segment, and a warm run
 * reads them back into the spill file; every format prints what looplens prints without the cache,
 * with and without a window (such a unit keeps no start times: it is read whole).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readUsage } from "../../../src/pipeline/cache/cacheUsage.js";
import { tempDir } from "../../helpers/tempDir.js";
import { expectSameEveryFormat, makeInputs } from "./cacheBench.js";
import { storedEntries } from "./storedEntries.js";

/** A budget of runs in memory so small that every unit with more than one run spills. */
const TINY_BUDGET = { LOOPLENS_PLAIN_RUNS_IN_MEMORY: "1", LOOPLENS_FINDINGS_IN_MEMORY: "1" };

describe("the entries of units whose runs spilled", () => {
  it("print what looplens prints without the cache, cold and warm, with and without a window", async () => {
    const root = tempDir("looplens-cache-spilled-");
    const inputs = makeInputs(root);
    const cacheDir = join(root, "cache");
    await expectSameEveryFormat([inputs], cacheDir, "cold, runs spilled", TINY_BUDGET);
    // A unit that spilled keeps no start times: its summary has none.
    const summaries = storedEntries(cacheDir).map((entry) => entry.bytes().toString("utf8").split("\n")[1]!).filter((line) => line.startsWith("S"));
    expect(summaries.some((line) => !line.includes('"times"'))).toBe(true);
    await expectSameEveryFormat([inputs], cacheDir, "warm, runs spilled", TINY_BUDGET);
    expect(readUsage(cacheDir)?.last?.misses).toBe(0);
    await expectSameEveryFormat([inputs], cacheDir, "warm, read back into memory", {});
    await expectSameEveryFormat(["--since", "2026-05-02", inputs], cacheDir, "warm, a window", TINY_BUDGET);
  }, 600_000);
});
