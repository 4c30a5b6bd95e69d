/**
 * Which Claude Code transcripts are one conversation (agents.md A1, rule 7). `--fork-session` (and
 * older builds' `--resume`) writes a new `<sessionId>.jsonl` that starts with the parent's entries
 * copied under the new session id, keeping their uuids, timestamps and messages, and the tool_use
 * ids of their calls. So a fork and its parent begin alike: the same first entry, and the same
 * first call. Files that share both are one family, read as one unit (shared/forkFamilies.ts) in
 * scan order, the first file replaying what they share (copies.ts).
 *
 * Both, and a real uuid, because assembled and generated transcripts reuse placeholder uuids,
 * timestamps and prompts for different conversations (`u-1`, `t1`, "next task"): a conversation
 * is only taken for a copy when its first entry is a random uuid and its first call (id, tool and
 * input) is the other's too.
 *
 * Not grouped: a fork whose copy starts elsewhere than the parent's first entry (e.g. after a
 * compaction, if a build copies only from the compact boundary on), or whose head holds no call
 * (`MAX_HEAD_LINES`); its copied calls are replayed in both files.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import type { ForkTag, ForkTagger } from "../shared/forkFamilies.js";
import { hash53 } from "../shared/textHash.js";
import { looksLikeClaudeCode } from "./claudeCodeAdapter.js";
import { QUIET_TYPES } from "./claudeLines.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const hashed = (value: unknown) => hash53(JSON.stringify(value) ?? "");

/** The first tool_use block of an assistant line, as its copy would have it. */
function firstCall(line: Record<string, unknown>): string | undefined {
  const message = own(line, "message");
  const content = isPlainObject(message) ? own(message, "content") : undefined;
  if (own(line, "type") !== "assistant" || !Array.isArray(content)) return undefined;
  const block = content.find((b) => isPlainObject(b) && own(b, "type") === "tool_use" && typeof own(b, "id") === "string");
  return block === undefined ? undefined : `${String(own(block, "id"))}\u0000${String(own(block, "name"))}\u0000${hashed(own(block, "input"))}`;
}

/**
 * The key of a transcript's first entry and first call. The lines before the first entry must be
 * Claude Code's own entries without a uuid (snapshots, summaries, modes), so that another format's
 * file is let go at its first line.
 */
export const claudeCodeForkTag: ForkTagger = () => {
  let first: string | undefined;
  return (head): ForkTag | null | undefined => {
    // After the first entry only a line with a call can decide: long text and thinking lines are not parsed.
    if (first !== undefined && !head.text.includes('"tool_use"')) return undefined;
    const line = head.value();
    if (line === undefined) return null;
    const uuid = own(line, "uuid");
    if (typeof uuid !== "string" || uuid === "") return QUIET_TYPES.has(own(line, "type") as string) ? undefined : null;
    if (!looksLikeClaudeCode(line)) return null;
    if (first === undefined) {
      if (!UUID.test(uuid)) return null;
      const body = own(line, "message") ?? own(line, "attachment") ?? own(line, "content") ?? null;
      first = `${uuid}\u0000${String(own(line, "timestamp"))}\u0000${hashed(body)}`;
    }
    const call = firstCall(line);
    return call === undefined ? undefined : { keys: [`claude-code:${first}\u0000${call}`] };
  };
};
