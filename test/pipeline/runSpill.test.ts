/**
 * Plain runs past a thread's budget go to a spill file (pipeline/runSpill.ts). The analysis must
 * not change: read back in order, the runs are the ones an analysis holding them all gives, also
 * when a unit is read again after a failed shortcut.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { generate } from "../../bench/generate.mjs";
import type { ReplayedRun } from "../../src/core/findings.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeFile, analyzeInputs, type Analysis, type AnalysisOptions } from "../../src/pipeline/analysis.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import type { ReportFilters } from "../../src/pipeline/filters.js";
import { configHeader, reportModel, shownRuns } from "../helpers/reportModel.js";
import { FINDINGS_IN_MEMORY, spilledRuns } from "../../src/pipeline/runSpill.js";
import { isPlainRun } from "../../src/pipeline/runRecords.js";
import { withSpillFolder } from "../../src/pipeline/spillFiles.js";
import { writeSessionFile } from "../helpers/inProcess.js";
import { repeat, textResult, toJsonl } from "../helpers/events.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-spill-"));
  generate({ dir: join(dir, "real"), seed: 21, files: 3, fileMb: 0.3, format: "real" });
  generate({ dir: join(dir, "cc"), seed: 22, files: 2, fileMb: 0.2, format: "claude-code" });
  cpSync("fixtures/agents", join(dir, "agents-fixtures"), { recursive: true });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a report shows of a run (every field but replay's working state). */
function shown(run: ReplayedRun) {
  const { run: id, agent, session, file, calls, compactions, findings, firstStop, guardWindows, recordedVetoes, recordedVetoCalls, startedAt, profile } = run;
  return { id, agent, session, file, calls, compactions, findings: [...findings], firstStop, guardWindows, recordedVetoes, recordedVetoCalls, startedAt, profile };
}

async function analyse(paths: string[], options: AnalysisOptions): Promise<Analysis> {
  const resolver = await createConfigResolver({});
  return analyzeInputs(paths, await loadXxhashDigest(), (agent, profile) => resolver.effectiveFor(agent, profile).config, options);
}

const everyRun = (analysis: Analysis) => [...(analysis.spilled ? analysis.spilled.inOrder(analysis.runs) : analysis.runs)].map(shown);

describe("spilled runs", () => {
  it.each([0, 1, 25])("read back in order, are the runs of an analysis that holds them all (budget %i)", async (budget) => {
    const paths = [join(dir, "real"), join(dir, "cc"), join(dir, "agents-fixtures")];
    const held = await analyse(paths, {});
    expect(held.spilled).toBeUndefined();
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyse(paths, { spill: { dir: spillDir!, plainRunsInMemory: budget, findingsInMemory: FINDINGS_IN_MEMORY } });
      // The first `budget` plain runs are kept; past them, a unit's later runs are written out, the
      // ones with findings too (the findings budget is not reached here).
      expect(spilling.runs.filter(isPlainRun).length).toBe(budget);
      expect(spilling.spilled!.runs + spilling.runs.length).toBe(held.runs.length);
      expect(spilling.spilled!.calls + spilling.runs.reduce((sum, run) => sum + run.calls, 0)).toBe(held.runs.reduce((sum, run) => sum + run.calls, 0));
      expect(everyRun(spilling)).toEqual(held.runs.map(shown));
      // Read twice, the same (a reporter may read the runs more than once).
      expect(everyRun(spilling)).toEqual(held.runs.map(shown));
    });
  });

  it.each([0, 3, 40])("past a budget of findings, spill runs with findings too, and read back the same (budget %i)", async (budget) => {
    const paths = [join(dir, "real"), join(dir, "cc"), join(dir, "agents-fixtures")];
    const held = await analyse(paths, {});
    const findings = held.runs.reduce((sum, run) => sum + run.findings.length, 0);
    expect(findings).toBeGreaterThan(40);
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyse(paths, { spill: { dir: spillDir!, plainRunsInMemory: 1_000_000, findingsInMemory: budget } });
      const kept = spilling.runs.filter((run) => !isPlainRun(run));
      // Kept: runs with findings up to the budget (a run with none but vetoes weighs one).
      expect(kept.reduce((sum, run) => sum + Math.max(1, run.findings.length), 0)).toBeLessThanOrEqual(budget);
      expect(spilling.spilled!.counts.findings.total + kept.reduce((sum, run) => sum + run.findings.length, 0)).toBe(findings);
      expect(everyRun(spilling)).toEqual(held.runs.map(shown));
      // The summary counts the written-out runs' findings without reading them back.
      expect(reportModel(spilling).summary).toEqual(reportModel(held).summary);
    });
  });

  it("write a run of many findings in several lines and read it back the same", async () => {
    // Stuck runs of 2,600 and 1,030 findings (written a block of 1,024 at a time) between short runs.
    const stuck = (run: string, calls: number) => [{ type: "run_start", run }, ...repeat(calls, run, "read", { path: "/same" }, textResult("same")), { type: "run_end", run }];
    const short = (run: string) => [{ type: "run_start", run }, ...repeat(2, run, "exec", { command: "ls" }, textResult("ok")), { type: "run_end", run }];
    const file = join(dir, "stuck.jsonl");
    writeFileSync(file, toJsonl([...short("a"), ...stuck("s1", 2610), ...short("b"), ...stuck("s2", 1040), ...short("c")]));
    const held = await analyse([file], {});
    expect(held.runs.map((run) => run.findings.length)).toEqual([0, 2600, 0, 1030, 0]);
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyse([file], { spill: { dir: spillDir!, plainRunsInMemory: 0, findingsInMemory: 0 } });
      expect(spilling.runs).toEqual([]);
      expect(everyRun(spilling)).toEqual(held.runs.map(shown));
      expect(everyRun(spilling)).toEqual(held.runs.map(shown));
    });
  });

  it("a unit read again (a shortcut's check failed) spills only its second reading", async () => {
    const header = '{"type":"session","version":3,"id":"s-9","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
    const lines = [header];
    let parent = "h";
    for (let run = 0; run < 40; run++) {
      lines.push(JSON.stringify({ type: "message", id: `u${run}`, parentId: parent, message: { role: "user", content: "go" } }));
      lines.push(JSON.stringify({ type: "message", id: `a${run}`, parentId: `u${run}`, message: { role: "assistant", content: [{ type: "toolCall", id: `k${run}`, name: "read", arguments: { path: `p${run}` } }] } }));
      lines.push(JSON.stringify({ type: "message", id: `r${run}`, parentId: `a${run}`, message: { role: "toolResult", toolCallId: `k${run}`, toolName: "read", content: [{ type: "text", text: "x" }], isError: false } }));
      parent = `r${run}`;
    }
    // A role given twice: the line's prefix says assistant, the parse says user (a new run), so the
    // file is read again the long way once the first pass has handed out its runs.
    lines.push(`{"type":"message","id":"z","parentId":"${parent}","message":{"role":"assistant","role":"user"}}`);
    const path = writeSessionFile(`${lines.join("\n")}\n`, "s-9.jsonl");
    const resolver = await createConfigResolver({});
    const digest = await loadXxhashDigest();
    const configFor = (agent: string | null) => resolver.effectiveFor(agent).config;
    const held = await analyzeFile(path, digest, configFor, {});
    expect(held.runs.length).toBe(41);
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyzeFile(path, digest, configFor, { spill: { dir: spillDir!, plainRunsInMemory: 0, findingsInMemory: FINDINGS_IN_MEMORY } });
      const segment = spilling.spilled!;
      expect(segment.runs).toBe(41);
      expect(segment.start).toBe(0);
      expect([...spilledRuns([segment])!.inOrder(spilling.runs)].map(shown)).toEqual(held.runs.map(shown));
    });
  });

  it("removes its folder when the work is done, and when it fails", async () => {
    let made = "";
    await withSpillFolder(async (spillDir) => {
      made = spillDir!;
      await analyse([join(dir, "real")], { spill: { dir: spillDir!, plainRunsInMemory: 0, findingsInMemory: FINDINGS_IN_MEMORY } });
      expect(readdirSync(spillDir!).length).toBe(2); // this thread's spill file, and its runs' notes (runNotes.ts)
    });
    expect(() => readdirSync(made)).toThrow();
    await expect(
      withSpillFolder(async (spillDir) => {
        made = spillDir!;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(() => readdirSync(made)).toThrow();
  });
});

describe("filters over spilled runs", () => {
  it("select what they select among runs held in memory, reading the spilled ones one at a time", async () => {
    const paths = [join(dir, "real"), join(dir, "cc"), join(dir, "agents-fixtures")];
    const held = await analyse(paths, {});
    const heldRuns = shownRuns(reportModel(held));
    const dated = heldRuns.map((run) => run.startedAt).filter((at): at is string => typeof at === "string").sort();
    expect(dated.length).toBeGreaterThan(4);
    const someRun = heldRuns[Math.floor(heldRuns.length / 2)]!.run;
    const filterSets: ReportFilters[] = [
      { since: "2099-01-01T00:00:00Z" },
      { since: dated[Math.floor(dated.length / 3)]!, until: dated[Math.floor((2 * dated.length) / 3)]! },
      { agent: "claude-code" },
      { agent: "nobody" },
      { run: [someRun] },
      { tool: ["exec"], top: 3 },
    ];
    await withSpillFolder(async (spillDir) => {
      const spilling = await analyse(paths, { spill: { dir: spillDir!, plainRunsInMemory: 1, findingsInMemory: FINDINGS_IN_MEMORY } });
      expect(spilling.spilled?.runs).toBeGreaterThan(0);
      const request = (filters: ReportFilters) => ({ config: configHeader(), filters, failOn: "warning" as const });
      for (const filters of filterSets) {
        const expected = reportModel(held, request(filters));
        const actual = reportModel(spilling, request(filters));
        const what = JSON.stringify(filters);
        expect(actual.summary, what).toEqual(expected.summary);
        expect(shownRuns(actual).map(shown), what).toEqual(shownRuns(expected).map(shown));
        // `--fail-on` judges every selected run, also those `--top` does not list.
        expect(actual.facts().gate, what).toEqual(expected.facts().gate);
      }
    });
  });
});
