/**
 * The sample OpenClaw transcript (test/data/openclaw-sample, copied from the project's samples): what
 * `looplens events` prints must be exactly the canonical events of the same session, and every
 * finding must name the transcript line of its call or result. Also: compressed, archived, piped.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { expectLinesAddUp, findingRows, jsonReport, type FindingRow } from "../../helpers/report.js";
import { tempDir } from "../../helpers/tempDir.js";

const DIR = "test/data/openclaw-sample";
const SESSION_ID = "5b0c7e1a-2f4d-4c1e-9a77-0d3b6c2e8f10";
const TRANSCRIPT = `${DIR}/agents/main/sessions/${SESSION_ID}.jsonl`;
const ZST = `${DIR}/${SESSION_ID}.jsonl.zst`;

const parseLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** An event without where it came from: file, line, and the time the transcript dates its run by (`ts`, which the hand-written events file has not). */
function withoutOrigin(event: Record<string, unknown>): Record<string, unknown> {
  const { file: _file, line: _line, ts: _ts, ...rest } = event;
  return rest;
}

function events(args: readonly string[], input?: Buffer): Array<Record<string, unknown>> {
  const result = runCli(["events", ...args], input ? { input } : {});
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return parseLines(result.stdout);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The README's findings for the sample: run-poll warns at 11–20 and blocks at 21–24; run-compact aborts at 7. */
function expectSampleFindings(rows: FindingRow[]): void {
  expect(rows.map(([run, call, , tool, detector, level]) => [run, call, tool, detector, level])).toEqual([
    ...range(11, 20).map((call) => ["run-poll", call, "process", "known_poll_no_progress", "warning"]),
    ...range(21, 24).map((call) => ["run-poll", call, "process", "known_poll_no_progress", "critical"]),
    ["run-compact", 7, "read", "compaction_loop_persisted", "abort"],
  ]);
}

describe("the sample session transcript", () => {
  const expected = parseLines(readFileSync(`${DIR}/session.events.jsonl`, "utf8"));
  const transcript = parseLines(readFileSync(TRANSCRIPT, "utf8"));
  let printedOnce: Array<Record<string, unknown>> | undefined;
  const printed = () => (printedOnce ??= events([TRANSCRIPT, "--active-branch"]));

  it("`looplens events --active-branch` prints exactly the canonical events of the session (modulo file, line and time)", () => {
    expect(printed().map(withoutOrigin)).toEqual(expected);
    // Same key order too: the printed line is the canonical one.
    expect(printed().map((e) => JSON.stringify(withoutOrigin(e)))).toEqual(expected.map((e) => JSON.stringify(e)));
  });

  it("by default, every executed call once in file order: the abandoned branch's call too", () => {
    const all = events([TRANSCRIPT]).map(withoutOrigin);
    const extra = all.filter((event) => !expected.some((e) => JSON.stringify(e) === JSON.stringify(event)));
    expect(extra.map((e) => [e.type, e.run, e.id])).toEqual([
      ["tool_call", "run-ok", "side65"],
      ["tool_result", "run-ok", "side65"],
    ]);
    expect(all.filter((e) => !extra.includes(e))).toEqual(expected);
  });

  it("every event points at its own entry: calls at the assistant message, results at the toolResult", () => {
    for (const event of printed()) {
      expect(event.file).toBe(TRANSCRIPT);
      const entry = transcript[(event.line as number) - 1]!;
      const message = entry.message as Record<string, unknown>;
      if (event.type === "tool_call") {
        expect(message.role).toBe("assistant");
        expect((message.content as Array<Record<string, unknown>>).some((block) => block.id === event.id)).toBe(true);
      } else if (event.type === "tool_result") {
        expect([message.role, message.toolCallId]).toEqual(["toolResult", event.id]);
      } else {
        expect(entry.type).toBe("compaction");
      }
    }
  });

  it("analyses to the documented findings, each naming the transcript line of its call (or result)", () => {
    const { report, stderr } = jsonReport([TRANSCRIPT]);
    expect(stderr).toBe("");
    expectLinesAddUp(report);
    const rows = findingRows(report);
    expectSampleFindings(rows);
    const lineOfBlock = (id: string) => transcript.findIndex((e) => JSON.stringify(e.message ?? {}).includes(`"id":"${id}"`)) + 1;
    const lineOfResult = (id: string) => transcript.findIndex((e) => (e.message as Record<string, unknown> | undefined)?.toolCallId === id) + 1;
    for (const [run, call, line, , , level] of rows) {
      const id = `call_${run}_${call - 1}`;
      expect(line).toBe(level === "abort" ? lineOfResult(id) : lineOfBlock(id));
    }
    expect(report.runs.map((r) => [r.run, r.agent, r.session, r.calls, r.compactions])).toEqual([
      ["run-poll", "main", SESSION_ID, 24, 0],
      ["run-compact", "main", SESSION_ID, 8, 1],
      ["run-ok", "main", SESSION_ID, 3, 0], // with the abandoned branch's call
    ]);
  });

  it("the abandoned branch comes in file order, before the retried turn", () => {
    const calls = events([TRANSCRIPT]).filter((e) => e.type === "tool_call" && e.run === "run-ok").map((e) => e.id);
    expect(calls).toEqual(["side65", "call_run-ok_0", "call_run-ok_1"]);
  });

  it("reads zstd and gzip transcripts, archived names given explicitly, and standard input", () => {
    const dir = join(tempDir("looplens-sample-"), "agents", "main", "sessions");
    mkdirSync(dir, { recursive: true });
    const zst = join(dir, `${SESSION_ID}.jsonl.zst`);
    copyFileSync(ZST, zst);
    const gz = join(dir, `${SESSION_ID}.jsonl.gz`);
    writeFileSync(gz, gzipSync(readFileSync(TRANSCRIPT)));
    const archived = join(dir, `${SESSION_ID}.jsonl.reset.2026-05-01T10-00-00.000Z`);
    copyFileSync(ZST, archived); // a compressed archive: recognised by its magic bytes
    for (const input of [zst, gz, archived]) expect(events([input, "--active-branch"]).map(withoutOrigin)).toEqual(expected);

    const piped = events(["-", "--active-branch"], readFileSync(ZST)).map(withoutOrigin);
    // Standard input has no path, so no agent id; the session id still comes from the header.
    expect(piped).toEqual(expected.map(({ agent: _agent, ...rest }) => rest));
  });

  it("folders pick up .jsonl/.gz/.zst transcripts and the archives of a state directory", () => {
    const dir = tempDir("looplens-folder-");
    const sessions = join(dir, "agents", "main", "sessions");
    mkdirSync(sessions, { recursive: true });
    const files = ["a.jsonl.zst", "b.jsonl.deleted.2026-05-01T10-00-00.000Z", "c.jsonl.reset.2026-05-01T10-00-00.000Z"].map((name) => join(sessions, name));
    copyFileSync(ZST, files[0]!);
    copyFileSync(TRANSCRIPT, files[1]!);
    copyFileSync(TRANSCRIPT, files[2]!);
    const { report } = jsonReport([dir]);
    // Three sessions (named by their files), three runs each.
    expect(report.runs.map((r) => [r.file, r.session])).toEqual(files.flatMap((file, i) => Array(3).fill([file, "abc"[i]])));
    for (const session of ["a", "b", "c"]) expectSampleFindings(findingRows({ ...report, runs: report.runs.filter((r) => r.session === session) }));
  });

  it("a zstd transcript cut mid-stream says where it ends; one that decodes to nothing is a file not read", () => {
    const dir = tempDir("looplens-cut-");
    const cut = join(dir, "cut.jsonl.zst");
    const bytes = readFileSync(ZST);
    // The sample is one zstd block: cut in it, nothing decodes.
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const alone = runCli(["analyze", cut, "--format", "json"]);
    expect(alone.status).toBe(2);
    expect(alone.stdout).toBe("");
    expect(alone.stderr).toMatch(/cut\.jsonl\.zst:\d+: zstd data ends early or is corrupt/);
    expect(alone.stderr).toMatch(/nothing in the input could be used: 1 file\(s\) not read \(zstd data ends early or is corrupt/);
    // Beside a whole transcript it is counted as a file not read, and the rest is reported.
    const whole = join(dir, "whole.jsonl.zst");
    copyFileSync(ZST, whole);
    const { report, stderr } = jsonReport([whole, cut]);
    expectLinesAddUp(report);
    expect(stderr).toMatch(/cut\.jsonl\.zst:\d+: zstd data ends early or is corrupt/);
    expect(report.diagnostics.some((d) => /zstd data ends early/.test(d.reason))).toBe(true);
    expect((report.summary as { filesNotRead?: number }).filesNotRead).toBe(1);
    expect(report.runs.length).toBeGreaterThan(0);
  });
});
