/** Runs the analysis pipeline in-process (no spawn): for the many small input-handling cases. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeInputs, type Analysis, type InputOptions } from "../../src/pipeline/analysis.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import { tempDir } from "./tempDir.js";

export async function analyzePaths(paths: readonly string[], options: InputOptions = {}): Promise<Analysis> {
  const resolver = await createConfigResolver({});
  return analyzeInputs(paths, await loadXxhashDigest(), (agent) => resolver.effectiveFor(agent).config, options);
}

/** Writes `content` as `<tmp>/agents/<agent>/sessions/<name>` and returns its path. */
export function writeSessionFile(content: string | Buffer, name = "s-1.jsonl", agent = "main"): string {
  const dir = join(tempDir("looplens-"), "agents", agent, "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The tool calls of every run of an analysis. */
export function totalCalls(analysis: Analysis): number {
  return analysis.runs.reduce((sum, run) => sum + run.calls, 0);
}

/** An analysis of replayed runs only, read from one events file (`lines`: all used), as reporter tests build it. */
export function analysisOfRuns(runs: ReplayedRun[], file: string, lines: number): Analysis {
  return {
    files: [{ file, format: "events" }],
    unusable: [],
    runs,
    liveRuns: [],
    liveFindings: [],
    lines: { read: lines, used: lines, ignored: 0, skipped: 0 },
    transcript: { copies: 0, duplicates: 0, reconstructedCalls: 0 },
    diagnostics: [],
    diagnosticsTotal: 0,
  };
}

/** Findings reduced to what replay decides: [run, call, detector, level, count]. */
export function verdicts(analysis: Analysis): Array<[string, number, string, string, number]> {
  return analysis.runs.flatMap((run) => [...run.findings].map((f): [string, number, string, string, number] => [f.run ?? "", f.call ?? 0, f.detector, f.level, f.count]));
}

/**
 * What replay decided, in a form two analyses of the same sessions written in two formats can be
 * compared by: every finding and every run (identity, calls, compactions, recorded vetoes), sorted.
 */
export function comparable(analysis: Analysis) {
  const findings = analysis.runs
    .flatMap((run) => [...run.findings])
    .map((f) => [f.session, f.run, f.agent, f.call, f.tool, f.detector, f.level, f.count, f.afterStop].join(" "));
  const runs = analysis.runs.map((r) => [r.session, r.run, r.agent, r.calls, r.compactions, r.recordedVetoes].join(" "));
  return { findings: findings.sort(), runs: runs.sort() };
}

/**
 * The files analysed from their bytes (the replay path) and as text: asserts that both give the same
 * findings and runs, and returns the byte path's analysis and its detectors.
 */
export async function sameFromBytesAndText(paths: readonly string[]): Promise<{ fromBytes: Analysis; fromText: Analysis; detectors: Set<string> }> {
  const { expect } = await import("vitest");
  const fromBytes = await analyzePaths(paths);
  const fromText = await analyzePaths(paths, { bytePayloads: false });
  expect(comparable(fromBytes)).toEqual(comparable(fromText));
  expect(verdicts(fromBytes)).toEqual(verdicts(fromText));
  return { fromBytes, fromText, detectors: new Set(verdicts(fromBytes).map(([, , detector]) => detector)) };
}
