/**
 * Who a Codex rollout belongs to: the session (the `session_meta` id, else the uuid of the file name
 * `rollout-<ts>-<uuid>.jsonl`), and the agent, `codex` or, for a sub-agent's own rollout,
 * `codex/<sub-agent>` (agents.md rule 4: a sub-agent is its own session). Also where Codex keeps
 * its rollouts, for a folder scan or a default-location option.
 */
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { isPlainObject, own } from "../../core/plainObject.js";

export const CODEX_FORMAT = "codex";

/** Rollout files as Codex names them (a folder scan's `*.jsonl` already finds them). */
export const CODEX_ROLLOUT_FILE = /^rollout-.+\.jsonl(\.(gz|zst))?$/i;

/** Where Codex writes rollouts: `$CODEX_HOME/sessions` (YYYY/MM/DD below it), CODEX_HOME defaulting to ~/.codex. */
export function codexSessionsDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const codexHome = env.CODEX_HOME !== undefined && env.CODEX_HOME.trim() !== "" ? env.CODEX_HOME : join(home, ".codex");
  return join(codexHome, "sessions");
}

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.(gz|zst))?$/i;

/** The session id a rollout's file name carries, else the file's base name without extensions. */
export function sessionIdFromRolloutName(file: string): string {
  const name = basename(file);
  const uuid = UUID_AT_END.exec(name);
  if (uuid) return uuid[1]!;
  return name.replace(/(\.(gz|zst))?$/i, "").replace(/\.jsonl$/i, "") || name;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function sessionIdOf(meta: Record<string, unknown>): string | undefined {
  return text(own(meta, "id")) ?? text(own(meta, "session_id"));
}

/**
 * The sub-agent a session_meta's `source` names: `{subagent:"review"}`, `{subagent:{other:"x"}}`,
 * `{subagent:{thread_spawn:{agent_nickname, agent_role, agent_path, …}}}` (0.146 schema fixture;
 * semantics not confirmed in a real file). The nickname is preferred: it tells spawned agents apart.
 */
function subAgentName(meta: Record<string, unknown>): string | undefined {
  const source = own(meta, "source");
  const subagent = isPlainObject(source) ? own(source, "subagent") : undefined;
  if (subagent === undefined) return undefined;
  if (typeof subagent === "string") return text(subagent) ?? "subagent";
  if (!isPlainObject(subagent)) return "subagent";
  const spawn = own(subagent, "thread_spawn");
  if (isPlainObject(spawn)) {
    return text(own(spawn, "agent_nickname")) ?? text(own(spawn, "agent_role")) ?? text(own(spawn, "agent_path")) ?? text(own(meta, "agent_nickname")) ?? "thread_spawn";
  }
  const other = text(own(subagent, "other"));
  if (other !== undefined) return other;
  const [kind] = Object.keys(subagent);
  return kind ?? "subagent";
}

export function agentOf(meta: Record<string, unknown>): string {
  const sub = subAgentName(meta);
  return sub === undefined ? CODEX_FORMAT : `${CODEX_FORMAT}/${sub}`;
}
