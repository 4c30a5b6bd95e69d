/** The OpenClaw state directory (inputs.md §2): `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (pipeline/stateDirectory.ts reads it). */
import { homedir } from "node:os";
import { join } from "node:path";

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.OPENCLAW_STATE_DIR?.trim();
  const home = env.HOME || homedir();
  if (fromEnv) return fromEnv === "~" || fromEnv.startsWith("~/") ? join(home, fromEnv.slice(1)) : fromEnv;
  return join(home, ".openclaw");
}

/** Where OpenClaw writes its agents' transcripts (`--agent-home openclaw`). */
export function openclawHomes(env: NodeJS.ProcessEnv): string[] {
  return [join(stateDirectory(env), "agents")];
}
