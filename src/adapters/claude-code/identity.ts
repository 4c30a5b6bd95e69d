/**
 * Which session and agent a Claude Code line belongs to (agents.md rule 4).
 *
 * - The main session: Claude Code names its file after the session (`<sessionId>.jsonl`, a UUID), so
 *   a UUID file name is the session id (a resumed or forked file may hold copied lines that still carry
 *   the old `sessionId`); any other name (a renamed export) takes the first `sessionId` in the file,
 *   else the file name. Agent `claude-code`.
 * - A sub-agent file (`<sessionId>/subagents/agent-<id>.jsonl`, 2.1.x) is one sub-agent: session
 *   `<parent>/agent-<id>`, agent `claude-code/<id>`. The parent is the folder's session id (else the
 *   lines' `sessionId` when it is not the sub-agent's own).
 * - Inline sidechains (`isSidechain: true` lines in the main file, ≤1.0.108) are sub-agents too: one
 *   per `agentId` when the lines carry it, else one per chain of `parentUuid` links (a Task's
 *   sub-agent starts a chain of its own). Session `<parent>/agent-<id>` or `<parent>/sidechain-<n>`
 *   (n counting the file's chains from 1), agent `claude-code/<id>` or `claude-code/sidechain`.
 */
import { basename, dirname } from "node:path";
import type { LineMeta } from "./claudeLines.js";

export const FORMAT = "claude-code";

export interface Identity {
  readonly session: string;
  readonly agent: string;
  /** A sub-agent's runs are never named by the parent's prompt ids (its lines may repeat them). */
  readonly subAgent: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBAGENT_FILE = /^agent-([A-Za-z0-9_-]+)\.jsonl$/;

function stem(file: string): string {
  return basename(file).replace(/(\.(gz|zst))?$/i, "").replace(/\.(jsonl|ndjson|json)$/i, "") || basename(file);
}

/** The sub-agent id of a `…/subagents/agent-<id>.jsonl` file, and the session folder it sits in. */
export function subAgentFile(file: string): { readonly id: string; readonly parent: string | undefined } | undefined {
  const match = SUBAGENT_FILE.exec(basename(file).replace(/\.(gz|zst)$/i, ""));
  if (!match) return undefined;
  const folder = dirname(file);
  const parent = basename(folder) === "subagents" ? basename(dirname(folder)) : undefined;
  return { id: match[1]!, parent: parent !== undefined && parent !== "." && parent !== "" ? parent : undefined };
}

export class SessionNames {
  private mainSession: string | undefined;
  private readonly fileStem: string;
  private readonly subFile: ReturnType<typeof subAgentFile>;
  /** Sidechain uuid → the sidechain key its chain got. */
  private readonly chains = new Map<string, string>();
  private sidechains = 0;

  constructor(file: string) {
    this.fileStem = stem(file);
    this.subFile = subAgentFile(file);
    if (this.subFile === undefined && UUID.test(this.fileStem)) this.mainSession = this.fileStem;
  }

  /** The session and agent of a line (call for every line that replays, in file order). */
  identify(meta: LineMeta): Identity {
    const parent = this.parentSession(meta);
    if (this.subFile !== undefined) {
      const id = meta.agentId ?? this.subFile.id;
      return this.subAgent(parent, `agent-${id}`, id);
    }
    if (!meta.isSidechain) return { session: parent ?? this.fileStem, agent: FORMAT, subAgent: false };
    if (meta.agentId !== undefined) return this.subAgent(parent, `agent-${meta.agentId}`, meta.agentId);
    return this.subAgent(parent, this.chainOf(meta), "sidechain");
  }

  private subAgent(parent: string | undefined, key: string, name: string): Identity {
    // A sub-agent whose lines carry its own id as the session id (assembled fixtures) is that session.
    const session = parent === undefined || parent === key ? key : `${parent}/${key}`;
    return { session, agent: `${FORMAT}/${name}`, subAgent: true };
  }

  /**
   * The main session's id, fixed by the first line that names one (undefined only in a sub-agent
   * file whose folder and lines name no parent).
   */
  private parentSession(meta: LineMeta): string | undefined {
    if (this.mainSession === undefined) {
      const ownId = this.subFile !== undefined && meta.sessionId === `agent-${this.subFile.id}` ? undefined : meta.sessionId;
      this.mainSession = this.subFile?.parent ?? ownId ?? (this.subFile === undefined ? this.fileStem : undefined);
    }
    return this.mainSession;
  }

  /** An inline sidechain without agent ids: the chain its parent is on, else a new one. */
  private chainOf(meta: LineMeta): string {
    let key = meta.parent !== undefined ? this.chains.get(meta.parent) : undefined;
    if (key === undefined) key = `sidechain-${++this.sidechains}`;
    if (meta.uuid !== undefined) this.chains.set(meta.uuid, key);
    return key;
  }
}
