/**
 * `--agent-home NAME`: read an agent's default location, as ccusage does for Claude Code (agents.md
 * rule 8). Each name maps to the folders that agent writes its transcripts to; the ones that exist
 * are read like folders given on the command line, and a name whose folders are all missing is an
 * error that says where it looked. `all` reads every agent's that exists.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { claudeCodeProjectDirs } from "../adapters/claude-code/defaultLocation.js";
import { codexSessionsDir } from "../adapters/codex/identity.js";
import { geminiDefaultRoot } from "../adapters/gemini/identity.js";
import { openhandsDefaultLocations } from "../adapters/openhands/files.js";
import { InputError } from "../adapters/io/lineSource.js";
import { stateDirectory } from "./stateDirectory.js";

const HOMES: Readonly<Record<string, (env: NodeJS.ProcessEnv, home: string) => string[]>> = {
  openclaw: (env) => [join(stateDirectory(env), "agents")],
  "claude-code": (env, home) => claudeCodeProjectDirs(env, home),
  codex: (env, home) => [codexSessionsDir(env, home)],
  "gemini-cli": (_env, home) => [geminiDefaultRoot(home)],
  // A blank $OPENHANDS_HOME is unset; the home folder is $HOME's, as for every other agent.
  openhands: (env, home) => openhandsDefaultLocations({ ...env, OPENHANDS_HOME: env.OPENHANDS_HOME?.trim() || join(home, ".openhands") }),
};

export const AGENT_HOMES: readonly string[] = [...Object.keys(HOMES), "all"];

/** The existing folders of the named agents' default locations, in the order named. */
export function agentHomePaths(names: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const paths: string[] = [];
  for (const name of names) {
    const agents = name === "all" ? Object.keys(HOMES) : [name];
    const found: string[] = [];
    const looked: string[] = [];
    for (const agent of agents) {
      const locate = HOMES[agent];
      if (!locate) throw new InputError(`--agent-home: unknown agent ${JSON.stringify(name)} (one of ${AGENT_HOMES.join(", ")})`);
      for (const dir of locate(env, home)) (existsSync(dir) ? found : looked).push(dir);
    }
    if (found.length === 0) throw new InputError(`--agent-home ${name}: no transcripts folder found (looked in ${looked.join(", ")})`);
    for (const dir of found) if (!paths.includes(dir)) paths.push(dir);
  }
  return paths;
}
