/**
 * Sweep's replay under several configs at once gives, config by config, the runs an analysis under
 * that config gives (same runs, order, verdicts and findings), and a unit read again after a failed
 * shortcut hands its runs out once.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig, type ResolvedConfig } from "../../src/core/config.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeAll } from "../../src/pipeline/parallel.js";
import { replayGrid } from "../../src/pipeline/sweepReplay.js";
import { repeat, textResult, toJsonl } from "../helpers/events.js";
import { randomSessions, transcriptText } from "../helpers/randomSessions.js";

const configOf = (values: Record<string, number>): ResolvedConfig => resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true, ...values } }]).config;
const CONFIGS = [configOf({ warningThreshold: 2, criticalThreshold: 4 }), configOf({ warningThreshold: 3, criticalThreshold: 6 }), configOf({})];

/** What a run's verdict and findings are made of (previews, which only analyze keeps, left out). */
function essence(run: ReplayedRun) {
  return {
    run: run.run,
    file: run.file,
    calls: run.calls,
    compactions: run.compactions,
    firstStop: run.firstStop,
    findings: run.findings.map((f) => [f.detector, f.level, f.call, f.afterStop]),
  };
}

function inputFolder(): string[] {
  const root = mkdtempSync(join(tmpdir(), "looplens-sweep-"));
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

describe("replayGrid", () => {
  it("hands out, under each config, the runs an analysis under that config makes", async () => {
    const paths = inputFolder();
    const digest = await loadXxhashDigest();
    const swept: ReplayedRun[][] = CONFIGS.map(() => []);
    const unit: ReplayedRun[][] = CONFIGS.map(() => []);
    let voided = 0;
    await replayGrid(
      paths,
      digest,
      {},
      CONFIGS.map((config) => ({ configFor: () => config })),
      {
        run: (reports) => reports.forEach((report, i) => unit[i]!.push(report)),
        unitEnd: (kept) => {
          if (kept) unit.forEach((runs, i) => swept[i]!.push(...runs));
          else voided++;
          unit.forEach((runs) => (runs.length = 0));
        },
      },
    );
    expect(voided).toBeGreaterThan(0);
    for (const [i, config] of CONFIGS.entries()) {
      const analysis = await analyzeAll(paths, digest, () => config, { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" });
      expect(swept[i]!.map(essence)).toEqual(analysis.runs.map(essence));
    }
    // The configs differ where it matters: the loops stop earlier under lower thresholds.
    const stops = swept.map((runs) => runs.filter((run) => run.firstStop !== null).length);
    expect(stops[0]).toBeGreaterThan(stops[2]!);
  });
});
