/**
 * Real OpenClaw state directories (inputs.md §2): rewritten copies, results without a call, the
 * files of one session read as one history (archives, checkpoints, backups), files that are not
 * transcripts, and reading the state directory when no path is given.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { analyzePaths, verdicts, writeSessionFile } from "../../helpers/inProcess.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { TranscriptBuilder } from "../../helpers/openclawTranscript.js";
import { writePairedSession } from "../../helpers/pairedSession.js";
import { expectLinesAddUp, jsonReport } from "../../helpers/report.js";
import { tempDir } from "../../helpers/tempDir.js";

const read = (id: string, path = "x") => ({ id, name: "read", args: { path } });

/** A session of `runs` runs, each with `calls` identical reads that return the same text. */
function loopingSession(id: string, runs: number, calls: number): TranscriptBuilder {
  const t = new TranscriptBuilder(id);
  for (let r = 1; r <= runs; r++) {
    t.user(`task ${r}`);
    for (let c = 1; c <= calls; c++) {
      t.calls([read(`r${r}c${c}`)]);
      t.result(read(`r${r}c${c}`), { kind: "result", text: "same" });
    }
    t.assistantText("done");
    t.bootstrap(`req_${r}`);
  }
  return t;
}

function stateDir(): string {
  return tempDir("looplens-state-");
}

describe("rewritten copies", () => {
  it("a block of entries re-written later under an old parent is not replayed again, and is counted", async () => {
    const t = loopingSession("s-copy", 1, 12);
    // The rewrite: the same messages (role, timestamp, call ids) under new entry ids, results truncated.
    const ids = t
      .text()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; id?: string; message?: { role?: string } })
      .filter((entry) => entry.type === "message")
      .map((entry) => entry.id!);
    t.branchFrom(null); // a new root: the copies are a branch of their own
    for (const id of ids) t.copy(id, true);
    const original = await analyzePaths([writeSessionFile(loopingSession("s-copy", 1, 12).text(), "s-copy.jsonl")]);
    const rewritten = await analyzePaths([writeSessionFile(t.text(), "s-copy.jsonl")]);
    expect(rewritten.runs.map((r) => [r.run, r.calls])).toEqual([["req_1", 12]]);
    expect(verdicts(rewritten)).toEqual(verdicts(original));
    // Every copied message but the final text reply (which has no call and is ignored anyway).
    expect(rewritten.transcript.copies).toBe(ids.length - 1);
    expect(rewritten.lines.ignored - original.lines.ignored).toBe(ids.length);
    // The copies are a branch of their own: the active branch is the rewritten one, replayed as it is.
    const active = await analyzePaths([writeSessionFile(t.text(), "s-copy.jsonl")], { activeBranch: true });
    expect(active.transcript.copies).toBe(0);
    expect(active.runs.map((r) => r.calls)).toEqual([12]);
  });

  it("the summary says how many copies were skipped", () => {
    const t = loopingSession("s-sum", 1, 3);
    t.copy("00000003");
    const path = writeSessionFile(t.text(), "s-sum.jsonl");
    const { report } = jsonReport([path]);
    expect((report.summary as unknown as { transcripts: unknown }).transcripts).toEqual({ copiesSkipped: 1, duplicatesSkipped: 0, reconstructedCalls: 0 });
    expect(runCli(["analyze", path]).stdout).toMatch(/transcripts: 1 repeated entry counted once \(--verbose says more\)/);
    expect(runCli(["analyze", "--verbose", path]).stdout).toMatch(/1 rewritten copy of earlier entries skipped/);
  });
});

describe("results without a call", () => {
  /** A local model's run: results of an unavailable tool persisted without any toolCall block. */
  function orphanRun(count: number, text = (i: number) => `Tool browser not found (attempt ${i})`) {
    const t = new TranscriptBuilder("s-orphan");
    t.user("open the page");
    for (let i = 1; i <= count; i++) t.result({ id: `call_${i}`, name: "browser" }, { kind: "error", text: text(i).replace(/ \(attempt \d+\)/, "") });
    return t;
  }

  it("an unknown-tool error whose call no entry carries is replayed as a call, so ten of them are blocked like ten calls", async () => {
    const path = writeSessionFile(orphanRun(11).text(), "s-orphan.jsonl");
    const analysis = await analyzePaths([path]);
    expect(analysis.transcript.reconstructedCalls).toBe(11);
    expect(analysis.runs.map((r) => r.calls)).toEqual([11]);
    // The same attempts as canonical events: the same verdicts.
    const dir = stateDir();
    const events = join(dir, "orphans.jsonl");
    const lines = Array.from({ length: 11 }, (_, k) => [
      { type: "tool_call", run: "s-orphan#1", id: `call_${k + 1}`, tool: "browser" },
      { type: "tool_result", run: "s-orphan#1", id: `call_${k + 1}`, tool: "browser", error: "Tool browser not found" },
    ]).flat();
    writeFileSync(events, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const canonical = await analyzePaths([events]);
    expect(verdicts(analysis)).toEqual(verdicts(canonical));
    expect(verdicts(analysis).map(([, call, detector, level]) => [call, detector, level])).toContainEqual([11, "unknown_tool_repeat", "critical"]);
    expectLinesAddUp({ summary: { lines: analysis.lines } } as never);
  });

  it("other results without a call are not replayed (a diagnostic each), nor counted as rebuilt", async () => {
    const path = writeSessionFile(orphanRun(3, () => "ENOENT: no such file").text(), "s-orphan.jsonl");
    const analysis = await analyzePaths([path]);
    expect(analysis.transcript.reconstructedCalls).toBe(0);
    expect(analysis.runs.map((r) => r.calls)).toEqual([0]);
    expect(analysis.diagnostics.filter((d) => /matches no call/.test(d.reason))).toHaveLength(3);
  });
});

describe("the files of one session are one history", () => {
  it("earlier lives, the live transcript, a checkpoint and a backup: each entry once, default run names go on", () => {
    const sessions = join(stateDir(), "agents", "main", "sessions");
    mkdirSync(sessions, { recursive: true });
    const sid = "0b5e1f7a-live";
    // An earlier life (archived at reset) with two unnamed runs, then the live transcript.
    const life = new TranscriptBuilder(sid, Date.parse("2026-04-01T00:00:00Z"));
    for (const r of [1, 2]) {
      life.user(`old ${r}`);
      life.calls([read(`old${r}`)]);
      life.result(read(`old${r}`), { kind: "result", text: "ok" });
    }
    writeFileSync(join(sessions, `${sid}.jsonl.reset.2026-04-02T00-00-00.000Z`), life.text());
    const live = loopingSession(sid, 2, 11);
    const liveText = live.text();
    writeFileSync(join(sessions, `${sid}.jsonl`), liveText);
    // A checkpoint copies a prefix of the live transcript; a backup holds it all plus one entry more.
    const lines = liveText.split("\n").filter(Boolean);
    writeFileSync(join(sessions, `${sid}.checkpoint.7c1d2e3f.jsonl`), lines.slice(0, 12).join("\n") + "\n");
    live.user("lost turn");
    live.calls([read("lost")]);
    writeFileSync(join(sessions, `${sid}.jsonl.bak-1-1777000000000`), live.text());

    const { report, stderr } = jsonReport([sessions]);
    expectLinesAddUp(report);
    const runs = report.runs.map((r) => [r.run, r.calls]);
    expect(runs).toEqual([
      [`${sid}#1`, 1],
      [`${sid}#2`, 1],
      ["req_1", 11],
      ["req_2", 11],
      [`${sid}#5`, 1], // the backup's own entry: a run of its own, numbered on
    ]);
    expect(report.summary.files).toBe(4);
    const transcripts = (report.summary as unknown as { transcripts: { duplicatesSkipped: number } }).transcripts;
    expect(transcripts.duplicatesSkipped).toBe(11 + lines.length - 1); // the checkpoint's entries, the backup's but one
    // Said once for the session, not per line.
    expect(stderr.match(/held by more than one of its files/g)).toHaveLength(1);
  });

  it("a transcript and its trajectory sidecar are one set of runs, never reported twice", () => {
    const dir = join(stateDir(), "agents", "main", "sessions");
    mkdirSync(dir, { recursive: true });
    const story = nightlyBuildStory();
    const written = writePairedSession(story);
    writeFileSync(join(dir, "c5d6e7f8.trajectory.jsonl"), written.sidecar);
    const alone = jsonReport([join(dir, "c5d6e7f8.trajectory.jsonl")]).report;
    // The same session's transcript beside it, with other run ids in its bootstrap entries.
    const renamed = story.runs.reduce((text, run, i) => text.replaceAll(`"runId":"${run.runId}"`, `"runId":"transcript-name-${i + 1}"`), written.transcripts[0]!);
    writeFileSync(join(dir, "c5d6e7f8.jsonl"), renamed);
    const both = jsonReport([dir]).report;
    expectLinesAddUp(both);
    // The sidecar's run ids name the transcript's runs; the calls are the transcript's, once.
    expect(both.runs.map((r) => [r.run, r.calls])).toEqual(alone.runs.map((r) => [r.run, r.calls]));
    expect(both.runs.every((r) => r.file === join(dir, "c5d6e7f8.jsonl"))).toBe(true);
  });
});

describe("a state directory as the runtime leaves it", () => {
  function realisticState(): string {
    const dir = stateDir();
    const sessions = join(dir, "agents", "main", "sessions");
    mkdirSync(join(sessions, "cold"), { recursive: true });
    writeFileSync(join(sessions, "a1.jsonl"), loopingSession("a1", 1, 12).text());
    writeFileSync(join(sessions, "sessions.json"), "{}");
    writeFileSync(join(sessions, "a1.jsonl.lock"), "");
    mkdirSync(join(dir, "cron", "runs"), { recursive: true });
    writeFileSync(join(dir, "cron", "runs", "nightly.jsonl"), '{"ts":1777000000000,"jobId":"nightly","action":"finished","status":"ok"}\n');
    mkdirSync(join(dir, "logs"), { recursive: true });
    writeFileSync(join(dir, "logs", "config-audit.jsonl"), '{"ts":"2026-05-01T00:00:00Z","path":"tools.loopDetection","op":"set"}\n');
    writeFileSync(join(dir, "openclaw.json"), '{ tools: { loopDetection: { enabled: true, warningThreshold: 5 } } }');
    return dir;
  }

  it("JSON-lines files that are not transcripts are reported as such, one line per file, never as bad lines", () => {
    const dir = realisticState();
    const { report, stderr } = jsonReport([dir]);
    expectLinesAddUp(report);
    expect(report.summary.lines.skipped).toBe(0);
    const notTranscripts = report.diagnostics.filter((d) => /not a transcript/.test(d.reason)).map((d) => d.file);
    expect(notTranscripts).toEqual([join(dir, "cron", "runs", "nightly.jsonl"), join(dir, "logs", "config-audit.jsonl")]);
    expect(stderr.split("\n").filter((line) => /not a transcript/.test(line))).toHaveLength(2);
    expect(report.runs.map((r) => r.run)).toEqual(["req_1"]);
  });

  it("with no path, the state directory is read ($OPENCLAW_STATE_DIR) and named; its openclaw.json is named, not applied", () => {
    const dir = realisticState();
    const result = runCli(["analyze", "--format", "json"], { stdin: "null", env: { OPENCLAW_STATE_DIR: dir } });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`reading the OpenClaw state directory ${dir}`);
    const report = JSON.parse(result.stdout) as { runs: Array<{ run: string }>; config: { warningThreshold: number; unappliedConfig?: string } };
    expect(report.runs.map((r) => r.run)).toEqual(["req_1"]);
    expect(report.config.warningThreshold).toBe(10);
    expect(report.config.unappliedConfig).toBe(join(dir, "openclaw.json"));
    expect(runCli(["analyze"], { stdin: "null", env: { OPENCLAW_STATE_DIR: dir } }).stdout).toContain("exists but is not applied (--config auto reads it)");
    // --config auto reads it from the state directory.
    const auto = JSON.parse(runCli(["analyze", "--format", "json", "--config", "auto"], { stdin: "null", env: { OPENCLAW_STATE_DIR: dir, OPENCLAW_CONFIG_PATH: "" } }).stdout) as typeof report;
    expect(auto.config.warningThreshold).toBe(5);
    expect(auto.config.unappliedConfig).toBeUndefined();
  });

  it("with no path and no state directory, a clear error (exit 2)", () => {
    const result = runCli(["analyze"], { stdin: "null", env: { OPENCLAW_STATE_DIR: join(stateDir(), "missing") } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/holds no agents\/ folder/);
  });
});

describe("input that cannot be used", () => {
  it("a binary file, an xz file and a text file are reported with their reason; alone they are exit 2", () => {
    const dir = stateDir();
    const files = {
      binary: join(dir, "core.jsonl"),
      xz: join(dir, "old.jsonl.xz"),
      text: join(dir, "notes.log"),
    };
    writeFileSync(files.binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3, 0x0a, 0, 0]));
    writeFileSync(files.xz, Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04]));
    writeFileSync(files.text, "just some notes\nabout nothing\n");
    const result = runCli(["analyze", files.binary, files.xz, files.text, "--format", "json"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/nothing in the input could be used: 3 file\(s\) not read/);
    // An input that ends in exit 2 prints no report: the reasons are the diagnostics on stderr.
    expect(result.stdout).toBe("");
    const reasons = Object.fromEntries(result.stderr.split("\n").map((line) => /^(.*?):\d+: (.*)$/.exec(line)).filter((m) => m !== null).map((m) => [m[1], m[2]]));
    expect(reasons[files.binary]).toMatch(/binary file/);
    expect(reasons[files.xz]).toMatch(/compressed with xz/);
    expect(reasons[files.text]).toMatch(/not a transcript: text/);
    // Beside a usable file: reported, and the exit status is that of the usable input.
    const mixed = runCli(["analyze", files.xz, "fixtures/healthy.jsonl"]);
    expect(mixed.status).toBe(0);
    expect(mixed.stdout).toMatch(/1 file not read/);
  });

  it("a file whose every line is bad is exit 2 too", () => {
    const path = join(stateDir(), "broken.jsonl");
    writeFileSync(path, '{"type":"tool_call","run":"r"\n{"type":"tool_result",\n');
    expect(runCli(["analyze", path]).status).toBe(2);
  });
});
