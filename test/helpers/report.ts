/** `looplens analyze --format json --all` through the real CLI, reduced to what tests compare. */
import { expect } from "vitest";
import { runCli } from "./cli.js";

export type FindingRow = [run: string, call: number, line: number, tool: string, detector: string, level: string, count: number, afterStop: boolean];

export interface JsonReport {
  readonly runs: Array<{ run: string; agent: string | null; session: string | null; file: string; calls: number; compactions: number; recordedVetoes: number; findings: Array<Record<string, unknown>> }>;
  readonly summary: { lines: { read: number; used: number; ignored: number; skipped: number } } & Record<string, unknown>;
  readonly diagnostics: Array<{ file: string; line: number; reason: string }>;
}

export function jsonReport(args: readonly string[], options: { input?: string | Buffer; cwd?: string } = {}): { report: JsonReport; stderr: string } {
  const result = runCli(["analyze", ...args, "--format", "json", "--all"], options);
  expect(result.status, result.stderr).toBe(0);
  return { report: JSON.parse(result.stdout) as JsonReport, stderr: result.stderr };
}

/** Every finding of a report, in input order, as a comparable row. */
export function findingRows(report: JsonReport): FindingRow[] {
  return report.runs.flatMap((run) =>
    run.findings.map((f): FindingRow => [
      f.run as string,
      f.call as number,
      f.line as number,
      f.tool as string,
      f.detector as string,
      f.level as string,
      f.count as number,
      f.afterStop as boolean,
    ]),
  );
}

/** read = used + ignored + skipped, always. */
export function expectLinesAddUp(report: JsonReport): void {
  const { read, used, ignored, skipped } = report.summary.lines;
  expect(read).toBe(used + ignored + skipped);
}
