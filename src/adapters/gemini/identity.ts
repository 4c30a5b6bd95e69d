/**
 * Where Gemini CLI keeps its chat recordings, and who a recording belongs to (agents.md A3, rule 4):
 * - main sessions: `~/.gemini/tmp/<projectId>/chats/session-<YYYY-MM-DDTHH-MM>-<sid8>.jsonl`
 *   (legacy: the same name ending `.json`, one JSON document);
 * - sub-agents: `~/.gemini/tmp/<projectId>/chats/<parentSessionId>/<sid>.jsonl`, their own
 *   sessions, whose agent is `gemini-cli/<sid>` (a metadata `kind: "subagent"` says so too).
 * The session id is the metadata's `sessionId`; without one, the file name's.
 */
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

export const GEMINI_FORMAT = "gemini-cli";

/**
 * Chat recordings a folder scan should pick up beyond `*.jsonl` (matched against the whole path):
 * the legacy single-document `chats/session-*.json` files. Other `.json` files of
 * `~/.gemini/tmp/<projectId>/` (`logs.json`, checkpoints) and looplens' own `*.looplens.json`
 * snapshots are not transcripts.
 */
export const GEMINI_CHAT_JSON_FILE = /(^|[\\/])chats[\\/]session-[^\\/]*(?<!\.looplens)\.json$/i;

/** The default location of the recordings: `<home>/.gemini/tmp` (each project's `chats/` under it). */
export function geminiDefaultRoot(home: string = homedir()): string {
  return join(home, ".gemini", "tmp");
}

/** `chats/<parentSessionId>/<sid>.jsonl`: the parent session id when the file is a sub-agent's. */
export function subAgentParent(file: string): string | undefined {
  const parent = dirname(file);
  return basename(dirname(parent)) === "chats" && basename(parent) !== "chats" ? basename(parent) : undefined;
}

/** The session id a file name gives: `<sid>` of `<sid>.jsonl`, the whole stem of `session-….jsonl`. */
export function sessionIdFromFile(file: string): string {
  if (file === "-") return "stdin";
  return basename(file).replace(/(\.(gz|zst))?$/i, "").replace(/\.(jsonl|json)$/i, "") || basename(file);
}

export interface GeminiIdentity {
  readonly session: string;
  readonly agent: string;
}

/** The identity of a recording, from its metadata (if any) and its path. */
export function identityOf(file: string, metadata: Record<string, unknown> | undefined): GeminiIdentity {
  const id = metadata?.sessionId;
  const session = typeof id === "string" && id.trim() !== "" ? id.trim() : sessionIdFromFile(file);
  const subAgent = metadata?.kind === "subagent" || subAgentParent(file) !== undefined;
  return { session, agent: subAgent ? `${GEMINI_FORMAT}/${session}` : GEMINI_FORMAT };
}
