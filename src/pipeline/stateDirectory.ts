/**
 * The OpenClaw state directory (inputs.md §2): `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. With no
 * path, looplens reads it — its `agents/` folder, which holds each agent's `sessions/` (transcripts,
 * archives, cold archives, sidecars) and `agent/openclaw-agent.sqlite` store — and says which
 * directory it read. Its `openclaw.json` is never applied silently: the header names it and
 * suggests `--config auto`.
 *
 * Decision: with no path, standard input is read instead only when it is a pipe or a regular file
 * (commands/common.ts `inputPaths`), whether or not `$OPENCLAW_STATE_DIR` is set: the stream a user
 * pipes in is the input they mean, and cron's or CI's stdin (/dev/null, closed, a socket) is none.
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.OPENCLAW_STATE_DIR?.trim();
  const home = env.HOME || homedir();
  if (fromEnv) return fromEnv === "~" || fromEnv.startsWith("~/") ? join(home, fromEnv.slice(1)) : fromEnv;
  return join(home, ".openclaw");
}

/** The state directory's `openclaw.json`, if there is one. */
export function stateConfigFile(env: NodeJS.ProcessEnv): string | undefined {
  const path = join(stateDirectory(env), "openclaw.json");
  return existsSync(path) ? path : undefined;
}

/** What reading the state directory means: its `agents/` folder, if it exists. */
export function stateInputs(env: NodeJS.ProcessEnv): { readonly dir: string; readonly paths: string[] } {
  const dir = stateDirectory(env);
  const agents = join(dir, "agents");
  let isDir = false;
  try {
    isDir = statSync(agents).isDirectory();
  } catch {
    // no agents folder: said by the caller
  }
  return { dir, paths: isDir ? [agents] : [] };
}
