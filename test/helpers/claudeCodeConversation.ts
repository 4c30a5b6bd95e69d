/**
 * Claude Code conversations (agents.md A1) as the fork tests build them: entries in the 2.1 shape,
 * chained by `parentUuid`, written as `<sessionId>.jsonl` files of one project folder. A fork
 * (`--fork-session`) is a conversation that begins with copies of another's entries.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Entry = Record<string, unknown>;

/** Entries of one conversation; `sessionId` is set when a file is written (unless a copy kept its own). */
export class Conversation {
  readonly entries: Entry[] = [];
  private n = 0;
  private parent: string | null = null;

  constructor(private readonly prefix: string) {}

  private push(fields: Entry): this {
    const uuid = `${this.prefix}-${String(++this.n).padStart(4, "0")}-4000-8000-000000000000`;
    const timestamp = new Date(Date.UTC(2026, 2, 1, 9, 0, this.n)).toISOString();
    this.entries.push({ parentUuid: this.parent, isSidechain: false, userType: "external", cwd: "/home/dev/app", version: "2.1.90", gitBranch: "main", ...fields, uuid, timestamp });
    this.parent = uuid;
    return this;
  }

  prompt(text: string): this {
    return this.push({ type: "user", message: { role: "user", content: text }, promptId: `prompt-${this.prefix}-${this.n}` });
  }

  /** A prompt with a pasted screenshot: an image block of `bytes` base64 chars before the text. */
  promptWithImage(text: string, bytes: number): this {
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo".padEnd(bytes, "A") } };
    return this.push({ type: "user", message: { role: "user", content: [image, { type: "text", text }] }, promptId: `prompt-${this.prefix}-${this.n}` });
  }

  /** A call and its result, in two lines. */
  call(id: string, name: string, input: Entry, stdout: string): this {
    this.push({ type: "assistant", requestId: `req_${id}`, message: { id: `msg_${id}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id, name, input }] } });
    return this.push({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: stdout, is_error: false }] },
      toolUseResult: { stdout, stderr: "", interrupted: false, isImage: false },
    });
  }

  /** A Bash call and its result. */
  bash(id: string, command: string, stdout: string): this {
    return this.call(id, "Bash", { command }, stdout);
  }

  /**
   * A compaction: the boundary (no parent, its logical parent the last entry), then, as 2.1 writes
   * them, `attachments` (files kept in context) and the summary.
   */
  compaction(attachments: readonly string[] = []): this {
    const logicalParentUuid = this.parent;
    this.parent = null;
    this.push({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", logicalParentUuid, compactMetadata: { trigger: "auto", preTokens: 150000 } });
    for (const filename of attachments) this.push({ type: "attachment", attachment: { type: "compact_file_reference", filename, displayPath: filename } });
    return this.push({ type: "user", isCompactSummary: true, message: { role: "user", content: "This session is being continued from a previous conversation." } });
  }

  /** An assistant text line (no call). */
  say(text: string): this {
    return this.push({ type: "assistant", requestId: `req_t${this.n}`, message: { id: `msg_t${this.n}`, type: "message", role: "assistant", content: [{ type: "text", text }] } });
  }

  /**
   * Continues with copies of entries `from`..`count` of another conversation, as a fork begins.
   * `sessionId`: the session id the copies keep (builds that did not stamp copies with the fork's).
   */
  continueFrom(other: Conversation, count = other.entries.length, from = 0, sessionId?: string): this {
    this.entries.push(...other.entries.slice(from, count).map((entry) => ({ ...entry, ...(sessionId !== undefined && { sessionId }) })));
    this.parent = this.entries.at(-1)!.uuid as string;
    return this;
  }
}

const roots: string[] = [];

/** A new project folder (`<tmp>/projects/<slug>`), removed by `removeProjectFolders`. */
export function projectFolder(): string {
  const root = mkdtempSync(join(tmpdir(), "looplens-cc-fork-"));
  roots.push(root);
  const dir = join(root, "projects", "-home-dev-app");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Removes every folder `projectFolder` made (a test file's `afterAll`). */
export function removeProjectFolders(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** Writes `<session>.jsonl` (a file-history snapshot, then the entries) and returns its path. */
export function writeConversation(dir: string, session: string, conversation: Conversation): string {
  const snapshot = { type: "file-history-snapshot", messageId: null, snapshot: { messageId: null, trackedFileBackups: {}, timestamp: "2026-03-01T09:00:00.000Z" }, isSnapshotUpdate: false };
  const lines = [snapshot, ...conversation.entries.map((entry) => ({ ...entry, sessionId: entry.sessionId ?? session }))];
  const path = join(dir, `${session}.jsonl`);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}
