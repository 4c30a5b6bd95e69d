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
 * Two cases the first entry and first call do not settle:
 * - A head with no call (none in the first 64 lines / 1 MB: long prompts, attachments, or a
 *   conversation that has none): its first entry alone is a weak key (forkFamilies.ts), so such a
 *   file joins the files that begin with the same entry, and two files that both have a call still
 *   need the same call to be joined. The first entry's random uuid, timestamp and content are what
 *   tells a copy then; a placeholder uuid (`u-1`) ties nothing, as above.
 * - A copy that starts at a compaction (a build that copies only from the compact boundary on): the
 *   fork's first entry is a `compact_boundary`, which lies deep in the parent's file, beyond its
 *   head. Such a head asks for its parent to be searched (`seek`: the files of its folder are read
 *   for the boundary's uuid, shared/forkFamilies.ts `seekParents`), and the file that holds it is
 *   read first. Files that begin at a compaction are rare: the cost is paid only for them.
 * Which of two files with the same head is the parent the heads cannot tell (the copies carry the
 * fork's session id): they are read in scan order, and the entries they share are replayed, and
 * attributed, as the first one's.
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
  /** The uuid of the compact boundary the file begins with, if it does. */
  let boundary: string | undefined;
  const tag = (keys: string[]): ForkTag => ({
    keys,
    weak: `claude-code:${first}`,
    ...(boundary !== undefined ? { seek: `"uuid":${JSON.stringify(boundary)}` } : {}),
  });
  return (head): ForkTag | null | undefined => {
    if (head === undefined) return first === undefined ? null : tag([]);
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
      if (own(line, "type") === "system" && own(line, "subtype") === "compact_boundary") boundary = uuid;
    }
    const call = firstCall(line);
    return call === undefined ? undefined : tag([`claude-code:${first}\u0000${call}`]);
  };
};
