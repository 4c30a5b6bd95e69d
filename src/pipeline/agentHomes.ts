/**
 * `--agent-home NAME`: read an agent's default location, as ccusage does for Claude Code (agents.md
 * rule 8). Each name maps to the folders that agent writes its transcripts to; the ones that exist
 * are read like folders given on the command line, and a name whose folders are all missing is an
 * error that says where it looked. `all` reads every agent's that exists.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { InputError } from "../adapters/io/lineSource.js";
import { AGENT_HOMES } from "../adapters/formatNames.js";
import { ADAPTERS, AGENT_KINDS } from "../adapters/registry.js";

type Homes = (env: NodeJS.ProcessEnv, home: string) => string[];

/** Each agent's default folders, as its formats' descriptors say (adapter.ts `AgentOfFormat`). */
const HOMES: ReadonlyMap<string, Homes> = new Map(
  AGENT_KINDS.flatMap((kind) => {
    const homes = ADAPTERS.flatMap((adapter) => (adapter.agent?.kind === kind && adapter.agent.homes ? [adapter.agent.homes] : []));
    return homes.length === 0 ? [] : [[kind, (env: NodeJS.ProcessEnv, home: string) => homes.flatMap((locate) => locate(env, home))] as const];
  }),
);

export { AGENT_HOMES };

/** The existing folders of the named agents' default locations, in the order named. */
export function agentHomePaths(names: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const paths: string[] = [];
  for (const name of names) {
    const agents = name === "all" ? [...HOMES.keys()] : [name];
    const found: string[] = [];
    const looked: string[] = [];
    for (const agent of agents) {
      const locate = HOMES.get(agent);
      if (!locate) throw new InputError(`--agent-home: unknown agent ${JSON.stringify(name)} (one of ${AGENT_HOMES.join(", ")})`);
      for (const dir of locate(env, home)) (existsSync(dir) ? found : looked).push(dir);
    }
    if (found.length === 0) throw new InputError(`--agent-home ${name}: no transcripts folder found (looked in ${looked.join(", ")})`);
    for (const dir of found) if (!paths.includes(dir)) paths.push(dir);
  }
  return paths;
}
