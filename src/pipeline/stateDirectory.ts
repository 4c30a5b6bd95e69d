/**
 * The OpenClaw state directory (inputs.md §2): `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. With no
 * path, looplens reads it — its `agents/` folder, which holds each agent's `sessions/` (transcripts,
 * archives, cold archives, sidecars) and `agent/openclaw-agent.sqlite` store — and says which
 * directory it read. Its `openclaw.json` is never applied silently: the header names it and
 * suggests `--config auto`.
 *
 * Decision: with no path and standard input piped, standard input is read as before, unless
 * `$OPENCLAW_STATE_DIR` says which state directory to read (scripts pipe transcripts without `-`;
 * a user who set the variable means the state directory).
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
