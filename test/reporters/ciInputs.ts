/**
 * What the CI formats' tests share: findings of the fixtures as ndjson gives them (the check on
 * what each format says), grouped as the table's rows, and hostile inputs in a temporary folder
 * whose name has spaces and non-ASCII letters.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_FIXTURES, ndjsonFindings, runCli } from "../helpers/cli.js";
import { call, result, textResult, toJsonl } from "../helpers/events.js";

/** The fixtures and a Gateway log: warnings, blocks, an abort, and live findings. */
export const CI_FIXTURES = [...BASE_FIXTURES, "fixtures/gateway/openclaw-2026-05-02.log"];

export interface NdjsonFinding {
  readonly run: string | null;
  readonly file: string;
  readonly line: number;
  readonly call: number | null;
  readonly tool: string;
  readonly detector: string;
  readonly level: "warning" | "critical" | "abort";
  readonly afterStop: boolean;
  readonly source?: string;
}

export function ndjsonOf(args: readonly string[], cwd?: string): NdjsonFinding[] {
  const out = runCli(["analyze", "-f", "ndjson", ...args], cwd === undefined ? {} : { cwd });
  return ndjsonFindings(out.stdout) as unknown as NdjsonFinding[];
}

/**
 * The rows the table would show, worked out from ndjson by the rule cli.md states (same run,
 * detector, level, tool, side of the first stop; ping-pong by detector alone), each as its first
 * finding and verdict count. The fixtures call each tool with one set of arguments, so the tool
 * stands for the pattern.
 */
export function expectedRows(findings: readonly NdjsonFinding[]): Array<{ first: NdjsonFinding; verdicts: number }> {
  const rows = new Map<string, { first: NdjsonFinding; verdicts: number }>();
  for (const f of findings) {
    const key = JSON.stringify([f.file, f.run, f.detector, f.level, f.detector === "ping_pong" ? "" : f.tool, f.afterStop, f.source ?? ""]);
    const row = rows.get(key);
    if (row) row.verdicts++;
    else rows.set(key, { first: f, verdicts: 1 });
  }
  return [...rows.values()];
}

/** Every character XML 1.0 cannot hold, and the escapes a terminal would act on. */
export const HOSTILE = `a&b <x y="1"> 'q' ]]> \u0000\u0001\u0007\u0008\u000b\u000c\u001b[31m\u001f\u007f\u0085\u009b\ufffe\uffff \ud800 \udc00 tail`;

export interface HostileInputs {
  readonly dir: string;
  /** Runs with hostile ids and tool names: a warning row (2 verdicts) and, with a huge tool name, warnings and a block. */
  readonly file: string;
  remove(): void;
}

/** A folder `looplens ci é 漢 …` holding `run one ☃ #1?.jsonl`: two runs of hostile text. */
export function hostileInputs(): HostileInputs {
  const dir = mkdtempSync(join(tmpdir(), "looplens ci é 漢 "));
  const file = join(dir, "run one ☃ #1?.jsonl");
  const huge = `huge${"x".repeat(300_000)}`;
  const lines = [
    ...Array.from({ length: 11 }, (_, i) => [call(`r1 ${HOSTILE}`, `c${i}`, `tool ${HOSTILE}`, { q: HOSTILE }), result(`r1 ${HOSTILE}`, `c${i}`, `tool ${HOSTILE}`, textResult(`out ${i}`))]).flat(),
    ...Array.from({ length: 21 }, (_, i) => [call("r2", `d${i}`, huge, { q: 1 }), result("r2", `d${i}`, huge, textResult(HOSTILE))]).flat(),
  ];
  writeFileSync(file, toJsonl(lines));
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
