/**
 * A sweep (each unit replayed under several configs at once, its runs folded into tallies) gives,
 * config by config, the figures of the runs an analysis under that config gives: counts, median of
 * the first blocks, verdict changes from the config before, label scores. A unit read again after a
 * failed shortcut counts its runs once.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig, type RawBlock } from "../../src/core/config.js";
import { ConfigTally, runVerdict, verdictChange, type Labels, type RunVerdict } from "../../src/core/sweepStats.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeAll, sweepAll } from "../../src/pipeline/parallel.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import { pointResolvers, sweepUnit, type SweepGrid } from "../../src/pipeline/sweepUnits.js";
import { repeat, textResult, toJsonl } from "../helpers/events.js";
import { randomSessions, transcriptText } from "../helpers/randomSessions.js";
import { tempDir } from "../helpers/tempDir.js";

const POINTS: RawBlock[] = [{ warningThreshold: 2, criticalThreshold: 4 }, { warningThreshold: 3, criticalThreshold: 6 }, {}].map((values) => ({ origin: "--vary", source: "--set", values }));
const configOf = (point: RawBlock) => resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true } }, point]).config;

function inputFolder(): string[] {
  const root = tempDir("looplens-sweep-");
  const sessions = join(root, "agents", "main", "sessions");
  mkdirSync(sessions, { recursive: true });
  const paths = randomSessions(7, 6).map((session) => {
    const path = join(sessions, `${session.id}.jsonl`);
    writeFileSync(path, transcriptText(session));
    return path;
  });
  // A role given twice: the byte scan of the first pass reads an assistant message, the parse a user
  // one, so the unit is read again the long way. (The bootstrap entry names a run: the first pass is needed.)
  const entry = (fields: Record<string, unknown>) => JSON.stringify({ type: "message", ...fields });
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "lying", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
    JSON.stringify({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { runId: "run-named" }, id: "b", parentId: null }),
    entry({ id: "u", parentId: "b", message: { role: "user", content: [{ type: "text", text: "go" }] } }),
  ];
  for (let i = 0; i < 9; i++) {
    lines.push(entry({ id: `c${i}`, parentId: i === 0 ? "u" : `r${i - 1}`, message: { role: "assistant", content: [{ type: "toolCall", id: `k${i}`, name: "read", arguments: { path: "same" } }] } }));
    lines.push(entry({ id: `r${i}`, parentId: `c${i}`, message: { role: "toolResult", toolCallId: `k${i}`, toolName: "read", content: [{ type: "text", text: "same" }], isError: false } }));
  }
  lines.push('{"type":"message","id":"z","parentId":"r8","message":{"role":"assistant","role":"user"}}');
  const lyingPath = join(sessions, "lying.jsonl");
  writeFileSync(lyingPath, `${lines.join("\n")}\n`);
  paths.push(lyingPath);
  const events = join(root, "loops.jsonl");
  writeFileSync(events, toJsonl([...repeat(12, "r1", "exec", { command: "make" }, textResult("same")), ...repeat(7, "r2", "read", { path: "a" }, textResult("x"))]));
  return [...paths, events];
}

describe("sweepAll (serial)", () => {
  it("gives, under each config, the figures of the runs an analysis under that config makes", async () => {
    const paths = inputFolder();
    const digest = await loadXxhashDigest();
    // The first run of each file is labelled stuck (scores are compared too).
    const first = (await analyzeAll(paths, digest, () => configOf(POINTS[2]!), { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" })).runs;
    const stuck = [...new Set(first.map((run) => run.file))].map((file) => first.find((run) => run.file === file)!.run);
    const labels: Labels = { stuck: new Set(stuck), healthy: undefined };
    const grid: SweepGrid = { passes: [{ points: POINTS }], filters: {}, labels: { stuck, healthy: null } };
    const swept = await sweepAll(paths, digest, { set: ["enabled=true"] }, grid, {}, { LOOPLENS_WORKERS: "0" });
    const figures = swept.totals.figures(true);

    let before: RunVerdict[] | undefined;
    for (const [i, point] of POINTS.entries()) {
      const analysis = await analyzeAll(paths, digest, () => configOf(point), { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" });
      const verdicts = analysis.runs.map(runVerdict);
      const tally = new ConfigTally();
      for (const v of verdicts) tally.add(v, labels);
      const changed = before ? verdicts.flatMap((now, k) => verdictChange(before![k]!.kind, now) ?? []) : [];
      expect(figures.rows[i]).toEqual({ stats: tally.stats(), changed, score: tally.score() });
      expect(figures.runs).toBe(analysis.runs.length);
      before = verdicts;
    }
    // The configs differ where it matters: the loops stop earlier under lower thresholds.
    expect(figures.rows[0]!.stats.blocked + figures.rows[0]!.stats.aborted).toBeGreaterThan(figures.rows[2]!.stats.blocked + figures.rows[2]!.stats.aborted);
    expect(figures.rows[1]!.changed.length).toBeGreaterThan(0);
    // The lying transcript was read again, and its lines are counted once.
    const analysis = await analyzeAll(paths, digest, () => configOf(POINTS[0]!), { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" });
    expect(swept.lines).toEqual(analysis.lines);
    expect(swept.files).toEqual(analysis.files);
  });

  it("a unit read again after a failed shortcut still tells which agents its configs were asked for", async () => {
    const paths = inputFolder();
    const lying = paths.find((path) => path.endsWith("lying.jsonl"))!;
    const grid: SweepGrid = { passes: [{ points: POINTS }], filters: {} };
    const base = await createConfigResolver({});
    const swept = await sweepUnit([lying], await loadXxhashDigest(), grid, pointResolvers(grid, base), {});
    // The transcript's runs belong to agent "main" (its folder): asked once, after the second read too.
    expect(swept.agentsResolved).toEqual([[{ agent: "main", profile: "configurable" }]]);
    expect(swept.parts[0]!.runs).toBeGreaterThan(0);
  });
});
