/**
 * Reading other agents' default locations (`--agent-home`) and their own file layouts in folder
 * scans: Claude Code projects, Codex sessions by date, Gemini CLI's legacy `chats/session-*.json`,
 * OpenHands' `events/<n>.json` folders (one conversation each).
 */
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

interface Report {
  runs: Array<{ run: string; agent: string | null; file: string; calls: number }>;
  summary: { files: number; filesNotRead: number; lines: { skipped: number } };
}

const json = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const result = runCli(["analyze", "--all", "-f", "json", ...args], { env });
  return { ...result, report: result.status === 2 && result.stdout === "" ? undefined : (JSON.parse(result.stdout) as Report) };
};

function fakeHome(): string {
  const home = tempDir("looplens-home-");
  cpSync("fixtures/agents/claude-code", join(home, ".claude", "projects", "-home-u-demo"), { recursive: true });
  mkdirSync(join(home, ".codex", "sessions", "2026", "05", "01"), { recursive: true });
  cpSync("fixtures/agents/codex", join(home, ".codex", "sessions", "2026", "05", "01"), { recursive: true });
  cpSync("fixtures/agents/gemini/tmp", join(home, ".gemini", "tmp"), { recursive: true });
  return home;
}

describe("--agent-home", () => {
  it("reads each named agent's default folder, as if it had been named", () => {
    const home = fakeHome();
    const byHome = json(["--agent-home", "claude-code", "--agent-home", "codex"], { HOME: home, CLAUDE_CONFIG_DIR: "", CODEX_HOME: "" });
    expect(byHome.status).toBe(0);
    const byPath = json([join(home, ".claude", "projects"), join(home, ".codex", "sessions")]);
    expect(byHome.report!.runs).toEqual(byPath.report!.runs);
    const agents = new Set(byHome.report!.runs.map((run) => run.agent?.split("/")[0]));
    expect(agents).toEqual(new Set(["claude-code", "codex"]));
  });

  it("reads Gemini CLI's ~/.gemini/tmp and OpenHands' ~/.openhands/sessions too", () => {
    const home = fakeHome();
    cpSync("fixtures/agents/openhands/sessions", join(home, ".openhands", "sessions"), { recursive: true });
    const result = json(["--agent-home", "gemini-cli", "--agent-home", "openhands"], { HOME: home, OPENHANDS_HOME: "" });
    expect(result.status).toBe(0);
    const agents = new Set(result.report!.runs.map((run) => run.agent?.split("/")[0]));
    expect(agents).toEqual(new Set(["gemini-cli", "openhands"]));
    // `all`: every agent whose folder exists (here also Claude Code and Codex), none missing is an error.
    const all = json(["--agent-home", "all"], { HOME: home, OPENHANDS_HOME: "", CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", OPENCLAW_STATE_DIR: join(home, "none") });
    expect(new Set(all.report!.runs.map((run) => run.agent?.split("/")[0]))).toEqual(new Set(["claude-code", "codex", "gemini-cli", "openhands"]));
  });

  it("honours the agents' own variables ($CLAUDE_CONFIG_DIR, $CODEX_HOME)", () => {
    const home = fakeHome();
    const env = { HOME: join(home, "elsewhere"), CLAUDE_CONFIG_DIR: join(home, ".claude"), CODEX_HOME: join(home, ".codex") };
    const result = json(["--agent-home", "claude-code", "--agent-home", "codex"], env);
    expect(result.status).toBe(0);
    expect(result.report!.runs.length).toBeGreaterThan(0);
  });

  it("is an error naming where it looked when an agent has no folder; an unknown name is a usage error", () => {
    const home = tempDir("looplens-empty-home-");
    const missing = runCli(["analyze", "--agent-home", "gemini-cli"], { env: { HOME: home } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`looked in ${join(home, ".gemini", "tmp")}`);
    const unknown = runCli(["analyze", "--agent-home", "cursor"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Allowed choices are openclaw, claude-code, codex, gemini-cli, openhands, all/);
  });
});

describe("folder scans of other agents' layouts", () => {
  it("find Gemini CLI's legacy chats/session-*.json beside its JSONL recordings", () => {
    const { report } = json(["fixtures/agents/gemini"]);
    const files = new Set(report!.runs.map((run) => run.file));
    expect([...files].some((file) => file.endsWith(".json"))).toBe(true);
    expect([...files].some((file) => file.endsWith(".jsonl"))).toBe(true);
    expect(report!.summary.filesNotRead).toBe(0);
  });

  it("read an OpenHands events/ folder as one conversation, with its delegate as a session of its own", () => {
    const { report } = json(["fixtures/agents/openhands/sessions"]);
    expect(report!.summary.files).toBe(28);
    expect(report!.runs.map((run) => [run.run, run.agent])).toEqual([
      ["d3l3gat3#1", "openhands"],
      ["d3l3gat3/delegate-3#1", "openhands/BrowsingAgent"],
    ]);
  });
});
