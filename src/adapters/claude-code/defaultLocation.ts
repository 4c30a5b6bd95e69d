/**
 * Where Claude Code keeps its transcripts (agents.md rule 8), for `--agent-home claude-code` (to be
 * wired by the CLI): `$CLAUDE_CONFIG_DIR/projects` (a comma-separated list of config folders is
 * accepted, as ccusage does), else `~/.config/claude/projects` and `~/.claude/projects`. Under each,
 * `<slug>/<sessionId>.jsonl` is a session and `<slug>/<sessionId>/subagents/agent-<id>.jsonl` its
 * sub-agents: a folder scan of `*.jsonl` already finds both (the sub-agents' `.meta.json` and
 * `tool-results/*.txt` are not transcripts and are rightly passed over).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The project folders that may hold transcripts, most specific first (not checked for existence). */
export function claudeCodeProjectDirs(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string[] {
  const configured = (env.CLAUDE_CONFIG_DIR ?? "")
    .split(",")
    .map((dir) => dir.trim())
    .filter((dir) => dir !== "");
  if (configured.length > 0) return configured.map((dir) => join(dir, "projects"));
  return [join(home, ".config", "claude", "projects"), join(home, ".claude", "projects")];
}

/** Those of them that exist: what `--agent-home claude-code` reads (empty: say where it looked). */
export function existingClaudeCodeProjectDirs(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string[] {
  return claudeCodeProjectDirs(env, home).filter((dir) => existsSync(dir));
}
