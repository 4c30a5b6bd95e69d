/**
 * Shared plumbing of the hostile-input tests: inputs written to a temp dir and read by the real
 * pipeline (path expansion, sniffing, adapters, preparation, replay), every reporter, and the CLI's
 * `main` run in-process with captured output (spawning the binary costs ~0.5 s a run; see
 * helpers/cli.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { InputAdapter } from "../../src/adapters/adapter.js";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { analyzeInputs, type Analysis } from "../../src/pipeline/analysis.js";
import { DEFAULT_CONFIG, type ResolvedConfig } from "../../src/core/config.js";
import type { Digest } from "../../src/core/hashing.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { REPORTERS } from "../../src/reporters/index.js";
import type { ReportModel } from "../../src/reporters/model.js";
import { configHeader, renderFormat, reportModel } from "../helpers/reportModel.js";

export { ADAPTERS };
// `looplens ARGS` in-process with captured output (paths must be given: standard input is not wired).
export { runMain } from "../helpers/cli.js";
export type { InputAdapter };

/** The config looplens uses without --config: defaults with the rolling detectors on. */
export const LOOPLENS_DEFAULT: ResolvedConfig = { ...DEFAULT_CONFIG, enabled: true };

let digestPromise: Promise<Digest> | undefined;
export const digest = (): Promise<Digest> => (digestPromise ??= loadXxhashDigest());

/** A temp dir removed after the test file; `write` puts a file in it and returns its path. */
export function tempDir(prefix = "looplens-hostile-"): { dir: string; write(name: string, data: string | Uint8Array): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return {
    dir,
    write(name, data) {
      const path = join(dir, `${n++}-${name}`);
      writeFileSync(path, data);
      return path;
    },
  };
}

/** Lines as the splitter counts them: every `\n` ends one, and a non-empty tail is one more. */
export function lineCount(data: string | Uint8Array): number {
  const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data);
  let lines = 0;
  for (const byte of bytes) if (byte === 10) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

/** Reads one file through the whole pipeline, forced to `adapter`'s format (sniffed when undefined). */
export async function analyzeFile(path: string, adapter?: InputAdapter, config: ResolvedConfig = LOOPLENS_DEFAULT): Promise<Analysis> {
  return analyzeInputs([path], await digest(), () => config, adapter ? { inputFormat: adapter.format } : {});
}

/** The report model as `analyze` builds it (src/pipeline/report.ts). */
export function reportData(analysis: Analysis, config: ResolvedConfig = LOOPLENS_DEFAULT): ReportModel {
  return reportModel(analysis, { config: configHeader(config) });
}

/** Every reporter's output for an analysis (without colour), by format name. */
export function renderAll(analysis: Analysis, width = 80): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(REPORTERS.analyze)) {
    for (const verbose of [false, true]) out[verbose ? `${name} --verbose` : name] = renderFormat(name, analysis, { all: true, verbose }, { color: false, width });
  }
  return out;
}

/**
 * Characters a terminal may act on: C0 controls other than newline, DEL, C1 controls, and
 * bidirectional controls that reorder what is displayed.
 */
export const TERMINAL_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Findings reduced to what replay decides, with lines mapped through `lineMap` (for comparisons). */
export function findingKeys(analysis: Analysis, lineMap: (line: number) => number = (l) => l): string[] {
  return analysis.runs.flatMap((run) =>
    [...run.findings].map((f) => [f.run, lineMap(f.line), f.call, f.tool, f.detector, f.level, f.count, f.afterStop].join(" ")),
  );
}
