/**
 * The findings of long runs on disk (pipeline/shelvedFindings.ts): what runs put on the shelf, in
 * lines between other runs', is read back in order each time a run's list is walked; a run with such
 * a list is written to the run spill (its record names where its findings are), read back the same,
 * and makes its unit one the result cache does not keep. The analysis does not change: a stuck run
 * analysed with a spill folder reports what it does without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeFile, analyzeInputs, type Analysis, type AnalysisOptions } from "../../src/pipeline/analysis.js";
import { isCacheable } from "../../src/pipeline/cache/analysisEntry.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import type { NotedFindings } from "../../src/pipeline/runNotes.js";
import { runRecords, runsOf } from "../../src/pipeline/runRecords.js";
import { FindingShelfFile, isShelved, SHELF_BATCH } from "../../src/pipeline/shelvedFindings.js";
import { withSpillFolder } from "../../src/pipeline/spillFiles.js";
import { REPORTERS } from "../../src/reporters/index.js";
import { repeat, textResult, toJsonl } from "../helpers/events.js";
import { renderFormat } from "../helpers/reportModel.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-shelf-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A finding of run `run` at call `call` (enough of one for the shelf, which only writes and reads them). */
const finding = (run: string, call: number) =>
  ({ run, agent: null, session: "s", file: "f.jsonl", afterStop: false, line: call * 2, call, tool: "read", detector: "generic_repeat", level: "warning", count: call, threshold: { name: "warningThreshold", value: 10 }, message: `read ${call}`, argsHash: "h" }) as ReplayedFinding;
const findings = (run: string, from: number, n: number) => Array.from({ length: n }, (_, i) => finding(run, from + i));

async function analyse(paths: string[], options: AnalysisOptions): Promise<Analysis> {
  const resolver = await createConfigResolver({});
  return analyzeInputs(paths, await loadXxhashDigest(), (agent, profile) => resolver.effectiveFor(agent, profile).config, options);
}

describe("shelved findings", () => {
  it("are read back in order, each time a list is walked, though two runs put theirs in turn", async () => {
    await withSpillFolder(async (spillDir) => {
      const shelf = new FindingShelfFile(spillDir!);
      const [a, b] = [shelf.open(), shelf.open()];
      a.put(findings("a", 1, 3));
      b.put(findings("b", 1, 2));
      a.put(findings("a", 4, 2));
      a.put(findings("a", 6, 1));
      const list = a.list(findings("a", 7, 1));
      expect(list.length).toBe(7);
      expect([...list]).toEqual(findings("a", 1, 7));
      expect([...list]).toEqual(findings("a", 1, 7));
      expect([...b.list([])]).toEqual(findings("b", 1, 2));
    });
  });

  it("of a run written to the run spill are named by its record and read back the same", async () => {
    await withSpillFolder(async (spillDir) => {
      const place = new FindingShelfFile(spillDir!).open();
      place.put(findings("r", 1, 4));
      const run = { run: "r", agent: null, session: "s", file: "f.jsonl", calls: 5, compactions: 0, firstStop: null, guardWindows: [], recordedVetoes: 0, recordedVetoCalls: [], startedAt: null, findings: place.list(findings("r", 5, 1)) } as ReplayedRun;
      const records = [...runRecords(run)];
      expect(records).toHaveLength(1);
      // The record names the findings on the shelf; it does not hold them.
      expect(records[0]!.length).toBeLessThan(JSON.stringify(findings("r", 1, 4)).length);
      const [back] = [...runsOf(records[Symbol.iterator]())];
      expect(isShelved(back!.findings)).toBe(true);
      expect({ ...back, findings: [...back!.findings] }).toEqual({ ...run, findings: findings("r", 1, 5) });
    });
  });

  it("leave the analysis of a stuck run as it is without a spill folder, and keep its unit out of the cache", async () => {
    const calls = SHELF_BATCH * 2 + 50;
    const file = join(dir, "stuck.jsonl");
    writeFileSync(file, toJsonl([{ type: "run_start", run: "short" }, ...repeat(3, "short", "exec", { command: "ls" }, textResult("ok"), "s"), { type: "run_start", run: "stuck" }, ...repeat(calls, "stuck", "read", { path: "/same" }, textResult("same"))]));
    const held = await analyse([file], {});
    expect(held.runs[1]!.findings.length).toBeGreaterThan(SHELF_BATCH * 2);
    const resolver = await createConfigResolver({});
    const digest = await loadXxhashDigest();
    await withSpillFolder(async (spillDir) => {
      const spill = { dir: spillDir!, plainRunsInMemory: 1_000, findingsInMemory: 1_000_000 };
      const spilling = await analyse([file], { spill });
      // Within both budgets, the stuck run is still written out, and the runs after it.
      expect(spilling.runs.map((run) => run.run)).toEqual(["short"]);
      const every = [...spilling.spilled!.inOrder(spilling.runs)];
      expect(every.map((run) => ({ ...run, findings: [...run.findings] }))).toEqual(held.runs.map((run) => ({ ...run, findings: [...run.findings] })));
      expect(spilling.spilled!.counts).toEqual({ runsWith: { warning: 1, critical: 1, abort: 0 }, findings: { warning: 10, critical: held.runs[1]!.findings.length - 10, abort: 0, total: held.runs[1]!.findings.length } });
      const unit = await analyzeFile(file, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, { spill });
      expect(isCacheable(unit)).toBe(false);
    });
  });

  it("are what every format writes of a stuck run, as of one that held its findings", async () => {
    const file = join(dir, "stuck-formats.jsonl");
    writeFileSync(file, toJsonl([{ type: "run_start", run: "stuck" }, ...repeat(SHELF_BATCH + 100, "stuck", "read", { path: "/same" }, textResult("same"))]));
    const held = await analyse([file], { timelines: true });
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyse([file], { timelines: true, spill: { dir: spillDir!, plainRunsInMemory: 1_000, findingsInMemory: 1_000_000 } });
      expect(isShelved([...spilling.spilled!.inOrder(spilling.runs)][0]!.findings)).toBe(true);
      for (const format of Object.keys(REPORTERS.analyze)) {
        for (const verbose of [false, true]) expect(renderFormat(format, spilling, { verbose, failOn: "warning" }), format).toBe(renderFormat(format, held, { verbose, failOn: "warning" }));
        // Filtered, the selection counts from the run's note (runNotes.ts): its findings stay on the shelf.
        for (const filters of [{ tool: ["read"] }, { tool: ["exec"] }, { run: ["stuck"], detector: ["generic_repeat" as const] }]) {
          expect(renderFormat(format, spilling, { filters, failOn: "warning" }), format).toBe(renderFormat(format, held, { filters, failOn: "warning" }));
        }
      }
      // The note holds the stuck run's findings as a few blocks of alike ones, not one by one.
      const [note] = [...spilling.spilled!.notes!(spilling.runs)];
      const alike = (f: Pick<ReplayedFinding, "tool" | "detector" | "level">) => `${f.tool} ${f.detector} ${f.level}`;
      expect([...note!.findings].map(alike)).toEqual([...held.runs[0]!.findings].map(alike));
      expect((note!.findings as NotedFindings).blocks.length).toBeLessThanOrEqual(4);
    });
  });
});
