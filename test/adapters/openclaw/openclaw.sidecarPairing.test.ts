/**
 * A session's transcript files and its trajectory sidecar are one set of runs (inputs.md §2, §3),
 * whatever mix of files the session has: each run once, named by the sidecar's run id, its calls at
 * the transcript's file:line; a run only the sidecar holds is replayed from it; a sidecar alone
 * replays from its snapshots. Sessions written as a 2026.5 install writes them (pairedSession.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ndjsonFindings, runMain } from "../../helpers/cli.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { writePairedSession, type PairedSession, type PairedSessionOptions } from "../../helpers/pairedSession.js";
import { expectLinesAddUp, jsonReport, type JsonReport } from "../../helpers/report.js";
import type { Story } from "../../helpers/runtimeSidecar.js";

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function sessionsDir(agent = "main"): string {
  const root = mkdtempSync(join(tmpdir(), "looplens-paired-"));
  roots.push(root);
  const dir = join(root, "agents", agent, "sessions");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Three runs: a poll loop (warnings from the 11th poll), a short follow-up, a test run repeated 11 times. */
function story(): Story {
  const nightly = nightlyBuildStory();
  const test = { name: "exec", args: { command: "npm test" } };
  const failing = { kind: "result", text: "1 failed", details: { status: "failed", exitCode: 1, aggregated: "1 failed" }, isError: true } as const;
  const tests = {
    runId: "run-fix-tests",
    prompt: "The tests fail. Fix them.",
    work: (c: Parameters<Story["runs"][number]["work"]>[0]) => {
      for (let i = 1; i <= 11; i++) {
        const call = { id: `call_test_${i}`, ...test };
        c.calls([call]);
        c.result(call, failing);
      }
      c.assistantText("Still failing.");
    },
  };
  return { ...nightly, runs: [...nightly.runs, tests] };
}

const STORY = story();
const SID = STORY.sessionId;
const RUN_IDS = STORY.runs.map((run) => run.runId);
const life = (day: number) => `${SID}.jsonl.reset.2026-05-0${day}T00-00-00.000Z`;
const LIVE = `${SID}.jsonl`;
const SIDECAR = `${SID}.trajectory.jsonl`;

function callsOf(written: PairedSession, run: number): number {
  return written.runs[run]!.messages.flatMap((m) => (m.role === "assistant" ? (m.content as Array<{ type: string }>).filter((b) => b.type === "toolCall") : [])).length;
}

function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** Runs as [run, calls, file name], findings as [run, line, file name], and the report. */
function analyzed(paths: string[]) {
  const { report, stderr } = jsonReport(paths);
  expectLinesAddUp(report);
  return {
    report,
    stderr,
    runs: report.runs.map((r) => [r.run, r.calls, basename(r.file)]),
    findings: report.runs.flatMap((r) => r.findings.map((f) => [f.run, f.line, basename(f.file as string)])),
  };
}

const sidecarDiagnostics = (report: JsonReport) => report.diagnostics.filter((d) => basename(d.file) === SIDECAR).map((d) => d.reason);

describe("a session's transcripts and its sidecar are one set of runs", () => {
  const unnamed: PairedSessionOptions = { bootstrap: false };

  it("live transcript only: the transcript's own names (none: <sid>#n), its lines", () => {
    const written = writePairedSession(STORY, unnamed);
    const dir = sessionsDir();
    write(dir, { [LIVE]: written.transcripts[0]! });
    const { runs, findings } = analyzed([dir]);
    expect(runs).toEqual(RUN_IDS.map((_, i) => [`${SID}#${i + 1}`, callsOf(written, i), LIVE]));
    expect(findings.length).toBeGreaterThan(0);
  });

  it("usage: a transcript read with its sidecar counts each model turn once, as the transcript alone does", () => {
    const written = writePairedSession(STORY, unnamed);
    const alone = sessionsDir();
    write(alone, { [LIVE]: written.transcripts[0]! });
    const dir = sessionsDir();
    write(dir, { [LIVE]: written.transcripts[0]!, [SIDECAR]: written.sidecar });
    const summary = (paths: string[]) => analyzed(paths).report.summary as unknown as Record<string, { turns: number; total?: number }>;
    const transcript = summary([alone]);
    expect(transcript.usage?.turns).toBeGreaterThan(0);
    expect(summary([dir]).usage).toEqual(transcript.usage);
    // The sidecar alone records the same turns (its snapshots' messages, each once).
    expect(summary([join(dir, SIDECAR)]).usage?.total).toBe(transcript.usage!.total);
  });

  it("an archive only, beside its sidecar: each run once, named by the sidecar, its calls at the archive's lines", () => {
    const written = writePairedSession(STORY, unnamed);
    const alone = sessionsDir();
    write(alone, { [life(3)]: written.transcripts[0]! });
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: written.sidecar });
    const archive = analyzed([alone]);
    const both = analyzed([dir]);
    expect(both.runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), life(3)]));
    // The same findings at the same lines as the archive read alone, under the sidecar's names.
    const rename = (run: unknown) => RUN_IDS[Number(String(run).split("#")[1]) - 1];
    expect(both.findings).toEqual(archive.findings.map(([run, line, file]) => [rename(run), line, file]));
    expect(both.findings.length).toBeGreaterThan(2);
    expect(sidecarDiagnostics(both.report)).toEqual(["trajectory sidecar read with its transcript: the transcript's calls are replayed, this file names their runs"]);
    // Every sidecar line is accounted for, as ignored.
    expect(both.report.summary.lines.read - archive.report.summary.lines.read).toBe(7 * RUN_IDS.length);
    expect(both.report.summary.lines.used).toBe(archive.report.summary.lines.used);
  });

  it("archives of earlier lives, the live transcript and the sidecar: each run in its own file, once", () => {
    const written = writePairedSession(STORY, { ...unnamed, lives: [[0], [1], [2]] });
    const dir = sessionsDir();
    write(dir, { [life(4)]: written.transcripts[1]!, [life(3)]: written.transcripts[0]!, [LIVE]: written.transcripts[2]!, [SIDECAR]: written.sidecar });
    const { runs, findings } = analyzed([dir]);
    expect(runs).toEqual([
      [RUN_IDS[0], callsOf(written, 0), life(3)],
      [RUN_IDS[1], callsOf(written, 1), life(4)],
      [RUN_IDS[2], callsOf(written, 2), LIVE],
    ]);
    expect(findings.every(([, , file]) => file !== SIDECAR)).toBe(true);
    expect(new Set(findings.map(([run]) => run))).toEqual(new Set([RUN_IDS[0], RUN_IDS[2]]));
  });

  it("with the transcript's own bootstrap names too, nothing changes: one name per run", () => {
    const written = writePairedSession(STORY, { lives: [[0, 1], [2]] });
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [LIVE]: written.transcripts[1]!, [SIDECAR]: written.sidecar });
    expect(analyzed([dir]).runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), i < 2 ? life(3) : LIVE]));
  });

  it("a sidecar alone still replays from its snapshots, at its own lines", () => {
    const written = writePairedSession(STORY);
    const dir = sessionsDir();
    write(dir, { [SIDECAR]: written.sidecar });
    const { runs, findings, report } = analyzed([dir]);
    expect(runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), SIDECAR]));
    expect(findings.length).toBeGreaterThan(2);
    expect(report.diagnostics).toEqual([]);
  });

  it("a sidecar that recorded fewer runs (recording began later): the earlier run keeps the transcript's name", () => {
    const written = writePairedSession(STORY, { ...unnamed, sidecarRuns: [1, 2] });
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: written.sidecar });
    const { runs, report } = analyzed([dir]);
    // The sidecar's first snapshot holds run 1's messages too: they are the transcript's, not replayed again.
    expect(runs).toEqual([
      [`${SID}#1`, callsOf(written, 0), life(3)],
      [RUN_IDS[1], callsOf(written, 1), life(3)],
      [RUN_IDS[2], callsOf(written, 2), life(3)],
    ]);
    expect(sidecarDiagnostics(report)).toHaveLength(1);
  });

  it("a sidecar that holds a run no transcript holds (its archive is gone): that run is replayed from the sidecar", () => {
    const written = writePairedSession(STORY, { ...unnamed, lives: [[0], [2]] });
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [LIVE]: written.transcripts[1]!, [SIDECAR]: written.sidecar });
    const { runs, findings, report } = analyzed([dir]);
    expect(runs).toEqual([
      [RUN_IDS[0], callsOf(written, 0), life(3)],
      [RUN_IDS[2], callsOf(written, 2), LIVE],
      [RUN_IDS[1], callsOf(written, 1), SIDECAR],
    ]);
    expect(findings.filter(([, , file]) => file === SIDECAR)).toEqual([]);
    expect(sidecarDiagnostics(report)).toEqual([
      `trajectory sidecar read with its transcript: the transcript's calls are replayed, this file names their runs; 1 run no transcript of the session holds ("${RUN_IDS[1]}") replayed from this file`,
    ]);
  });

  it("a run only the sidecar holds, whose snapshot also holds an earlier run's messages: only its own calls are replayed", () => {
    const written = writePairedSession(STORY, { ...unnamed, lives: [[0]] });
    // The first run's attempt wrote no completion: the next snapshot is the first to hold its messages.
    const cut = written.sidecar.replace(new RegExp(`^.*"type":"model\\.completed".*"runId":"${RUN_IDS[0]}".*\n`, "m"), "");
    expect(cut.length).toBeLessThan(written.sidecar.length);
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: cut });
    expect(analyzed([dir]).runs).toEqual([
      [RUN_IDS[0], callsOf(written, 0), life(3)],
      [RUN_IDS[1], callsOf(written, 1), SIDECAR],
      [RUN_IDS[2], callsOf(written, 2), SIDECAR],
    ]);
  });

  it("with snapshots, runs are named by their user messages even when the prompts have no time", () => {
    const written = writePairedSession(STORY, unnamed);
    const untimed = written.sidecar.replace(/^(.*"type":"prompt\.submitted",)"ts":"[^"]+",/gm, "$1");
    expect(untimed).not.toEqual(written.sidecar);
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: untimed });
    expect(analyzed([dir]).runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), life(3)]));
  });

  it("a sidecar kept in another folder, given by path, pairs with its session's transcripts", () => {
    const written = writePairedSession(STORY, unnamed);
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]! });
    const elsewhere = mkdtempSync(join(tmpdir(), "looplens-paired-trajectories-"));
    roots.push(elsewhere);
    write(elsewhere, { [SIDECAR]: written.sidecar });
    const expected = RUN_IDS.map((run, i) => [run, callsOf(written, i), life(3)]);
    expect(analyzed([join(dir, life(3)), join(elsewhere, SIDECAR)]).runs).toEqual(expected);
    expect(analyzed([join(elsewhere, SIDECAR), dir]).runs).toEqual(expected);
    // Two folders holding the session's transcripts: which one the sidecar belongs to is not guessed.
    const other = sessionsDir("ops");
    write(other, { [life(3)]: written.transcripts[0]! });
    expect(analyzed([dir, other, elsewhere]).runs.filter(([, , file]) => file === SIDECAR)).toHaveLength(RUN_IDS.length);
  });

  it("gzip forms pair the same way", () => {
    const written = writePairedSession(STORY, { ...unnamed, lives: [[0, 1], [2]] });
    const dir = sessionsDir();
    write(dir, { [`${life(3)}.gz`]: gzipSync(written.transcripts[0]!), [LIVE]: written.transcripts[1]!, [`${SIDECAR}.gz`]: gzipSync(written.sidecar) });
    expect(analyzed([dir]).runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), i < 2 ? `${life(3)}.gz` : LIVE]));
  });

  it("without snapshots (attempts cut before their completion), prompts are matched by their time", () => {
    const written = writePairedSession(STORY, unnamed);
    const noSnapshots = written.sidecar.replace(/^.*"type":"model\.completed".*\n/gm, "");
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: noSnapshots });
    expect(analyzed([dir]).runs).toEqual(RUN_IDS.map((run, i) => [run, callsOf(written, i), life(3)]));
    // A prompt a minute away from every user message names none of them; the runs it recorded have
    // nothing to replay (their calls were in the snapshots), so each transcript run is still there once.
    const late = noSnapshots.replace(/"ts":"([^"]+)"/g, (_, ts: string) => `"ts":"${new Date(Date.parse(ts) + 60_000).toISOString()}"`);
    write(dir, { [SIDECAR]: late });
    const { runs } = analyzed([dir]);
    expect(runs.filter(([, , file]) => file === life(3))).toEqual(RUN_IDS.map((_, i) => [`${SID}#${i + 1}`, callsOf(written, i), life(3)]));
    expect(runs.filter(([, , file]) => file === SIDECAR).every(([, calls]) => calls === 0)).toBe(true);
  });

  it("a transcript whose clock disagrees with its sidecar's: its runs are not replayed twice (their calls are the sidecar's)", () => {
    const written = writePairedSession(STORY, unnamed);
    const shifted = written.transcripts[0]!.replace(/"timestamp":(\d{13})/g, (_, ms: string) => `"timestamp":${Number(ms) + 86_400_000}`);
    const dir = sessionsDir();
    write(dir, { [life(3)]: shifted, [SIDECAR]: written.sidecar });
    const { runs } = analyzed([dir]);
    expect(runs).toEqual(RUN_IDS.map((_, i) => [`${SID}#${i + 1}`, callsOf(written, i), life(3)]));
  });

  it("--profile auto takes the build the sidecar records for the archive's runs", () => {
    const written = writePairedSession(STORY, unnamed);
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: written.sidecar.replaceAll('"version":"2026.5.2"', '"version":"2026.8.3"') });
    const { report } = jsonReport(["--profile", "auto", dir]);
    const profiles = report.runs.map((r) => [r.run, (r as unknown as { profile?: { name: string } }).profile?.name]);
    expect(profiles).toEqual(RUN_IDS.map((run) => [run, "newest"]));
  });

  it("looplens events: the transcript's events, named by the sidecar", async () => {
    const written = writePairedSession(STORY, unnamed);
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [SIDECAR]: written.sidecar });
    const out = await runMain(["events", dir]);
    const events = out.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; run: string; file: string });
    const calls = events.filter((e) => e.type === "tool_call");
    expect(calls.map((e) => e.run)).toEqual(RUN_IDS.flatMap((run, i) => Array.from({ length: callsOf(written, i) }, () => run)));
    expect(new Set(events.map((e) => basename(e.file)))).toEqual(new Set([life(3)]));
  });

  it("looplens explain FILE:LINE on one file of the session: the transcript's line, under the run name analyze shows", async () => {
    const written = writePairedSession(STORY, { ...unnamed, lives: [[0], [1, 2]] });
    const dir = sessionsDir();
    write(dir, { [life(3)]: written.transcripts[0]!, [LIVE]: written.transcripts[1]!, [SIDECAR]: written.sidecar });
    const analyzed = ndjsonFindings((await runMain(["analyze", "-f", "ndjson", dir])).stdout) as Array<{ run: string; file: string; line: number; call: number }>;
    const inLive = analyzed.find((f) => basename(f.file) === LIVE)!;
    expect(inLive.run).toBe(RUN_IDS[2]);
    for (const args of [[`${join(dir, LIVE)}:${inLive.line}`], ["--run", inLive.run, "--call", String(inLive.call), join(dir, LIVE)]]) {
      const out = await runMain(["explain", "-f", "json", ...args]);
      expect(out.status, out.stderr).toBe(0);
      const explained = (JSON.parse(out.stdout) as { findings: Array<{ run: string; file: string; line: number }> }).findings;
      expect(explained.map((e) => [e.run, basename(e.file), e.line])).toEqual([[inLive.run, LIVE, inLive.line]]);
    }
    // A line of the live file that holds no finding names the nearest of that file only, not the archive's.
    const missed = await runMain(["explain", `${join(dir, LIVE)}:1`]);
    expect(missed.status).toBe(2);
    expect(missed.stdout + missed.stderr).not.toContain(life(3));
  });
});
