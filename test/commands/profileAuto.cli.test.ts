/**
 * `--profile auto` end to end: the OpenClaw build a trajectory records (`trace.metadata`) picks the
 * generation each run is replayed under, for the trajectory alone and for a transcript read with it.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const SIDECAR = "fixtures/openclaw/agents/main/sessions/c5d6e7f8-a9b0-4c1d-8e2f-3a4b5c6d7e8f.trajectory.jsonl";
const VERSION = /"version":"2026\.5\.2"/g;

function sessionsDir(): string {
  const dir = join(tempDir("looplens-auto-"), "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  return dir;
}

function profilesOf(args: string[]): string[] {
  const result = runCli(["analyze", "--all", ...args]);
  expect(result.status).toBe(0);
  return result.stdout.split("\n").filter((line) => line.includes("replayed under profile")).map((line) => line.trim());
}

describe("--profile auto", () => {
  it("replays a trajectory recorded by a build before the boundary under configurable, and says why", () => {
    expect(readFileSync(SIDECAR, "utf8")).toMatch(VERSION);
    const lines = profilesOf(["--profile", "auto", SIDECAR]);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toBe("replayed under profile configurable (auto: recorded by OpenClaw 2026.5.2 (< 2026.6.0))");
  });

  it("replays one recorded by a newer build under newest", () => {
    const dir = sessionsDir();
    const file = join(dir, "c5d6e7f8.trajectory.jsonl");
    writeFileSync(file, readFileSync(SIDECAR, "utf8").replace(VERSION, '"version":"2026.8.3"'));
    for (const line of profilesOf(["--profile", "auto", file])) expect(line).toMatch(/profile newest \(auto: recorded by OpenClaw 2026\.8\.3/);
  });

  it("a transcript read with its sidecar takes the sidecar's build", () => {
    const dir = sessionsDir();
    writeFileSync(join(dir, "c5d6e7f8.trajectory.jsonl"), readFileSync(SIDECAR, "utf8").replace(VERSION, '"version":"2026.8.3"'));
    copyFileSync("fixtures/openclaw/agents/main/sessions/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl", join(dir, "c5d6e7f8.jsonl"));
    const lines = profilesOf(["--profile", "auto", dir]);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/profile newest \(auto: recorded by OpenClaw 2026\.8\.3/);
    // Without a recorded build: configurable, with the reason.
    const alone = profilesOf(["--profile", "auto", join(dir, "c5d6e7f8.jsonl")]);
    for (const line of alone) expect(line).toBe("replayed under profile configurable (auto: the input records no OpenClaw version)");
  });

  it("sweep replays each run under the generation its build picks, as analyze does", () => {
    // Two loops of 14 identical calls: r1 recorded by a build of the newest generation (its thresholds
    // are fixed: criticalThreshold 5 does not apply to it), r2 by none (configurable).
    const lines: object[] = [];
    for (const [run, version] of [["r1", "2026.8.3"], ["r2", undefined]] as const) {
      lines.push({ type: "run_start", run, ...(version && { harnessVersion: version }) });
      for (let i = 0; i < 14; i++) {
        lines.push({ type: "tool_call", run, id: `${run}-${i}`, tool: "exec", args: { command: "make" } });
        lines.push({ type: "tool_result", run, id: `${run}-${i}`, tool: "exec", result: { content: [{ type: "text", text: "same" }] } });
      }
    }
    const file = join(tempDir("looplens-auto-"), "loops.jsonl");
    writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const settings = ["--profile", "auto", "--set", "warningThreshold=3"];
    const analyzed = runCli(["analyze", ...settings, "--set", "criticalThreshold=5", "--format", "json", file]);
    expect(analyzed.status).toBe(0);
    const stopped = (JSON.parse(analyzed.stdout) as { runs: Array<{ run: string; firstStop: unknown }> }).runs.filter((run) => run.firstStop !== null).map((run) => run.run);
    expect(stopped).toEqual(["r2"]);
    const swept = runCli(["sweep", ...settings, "--vary", "criticalThreshold=5", "--format", "ndjson", file]);
    expect(swept.status).toBe(0);
    expect(JSON.parse(swept.stdout)).toMatchObject({ runs: 2, blocked: 1, aborted: 0 });
  });
});
