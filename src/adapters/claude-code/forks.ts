/**
 * Which Claude Code transcripts are one conversation (agents.md A1, rule 7). `--fork-session` (and
 * older builds' `--resume`) writes a new `<sessionId>.jsonl` that starts with the parent's entries
 * copied, keeping their uuids, timestamps and messages, and the tool_use ids of their calls. So a
 * fork and its parent begin alike: the same first entry, and the same first call. Files that share
 * both are one family, read as one unit (shared/forkFamilies.ts), parent first, the parent
 * replaying what they share (copies.ts).
 *
 * Both, and a real uuid, because assembled and generated transcripts reuse placeholder uuids,
 * timestamps and prompts for different conversations (`u-1`, `t1`, "next task"): a conversation
 * is only taken for a copy when its first entry is a random uuid and its first call (id, tool and
 * input) is the other's too.
 *
 * The cases the first entry and first call do not settle:
 * - A head with no call (none in the first 64 lines / 1 MB: long prompts, attachments, or a
 *   conversation that has none): its first entry alone is a weak key (forkFamilies.ts), so such a
 *   file joins the files that begin with the same entry, and two files that both have a call still
 *   need the same call to be joined. The first entry's random uuid, timestamp and content are what
 *   tells a copy then; a placeholder uuid (`u-1`) ties nothing, as above. A line that crosses the
 *   1 MB (a pasted screenshot, a first call writing a large file) is read to its end
 *   (shared/forkHeads.ts).
 * - A copy that starts at a compaction (a build that copies only from the compact boundary on): the
 *   fork's first entry is the `compact_boundary`, or, where the boundary is left out, the entry
 *   after it (the compact summary, `isCompactSummary`), or any entry whose `parentUuid` names an
 *   entry the file does not begin with. Each lies deep in the parent's file, beyond its head: such a
 *   head asks for its parent to be searched (`seek`: the files of its folder are read for that
 *   entry's uuid, shared/forkFamilies.ts `seekParents`), and the file that holds it is read first.
 *   Files that begin so are rare: the cost is paid only for them. (A copy re-chained to begin
 *   without a parent at an entry other than the boundary or the summary is not told.)
 * - Which file is the parent. Builds that did not stamp the copies with the fork's session id left
 *   the parent's on them: a file named `<uuid>.jsonl` whose first entry carries another session id
 *   names its parent, `<that id>.jsonl`. Else, of files tied by their heads, one whose last entry the
 *   other holds is the session forked where it ended: the parent (`lastEntry`, read only for files
 *   that are tied: forkFamilies.ts). When both went on past the fork, nothing tells: they are read in
 *   scan order, and the entries they share are replayed, and attributed, as the first one's.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
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

/** The needle of an entry in a file: its uuid as Claude Code writes it. */
const uuidNeedle = (uuid: string) => `"uuid":${JSON.stringify(uuid)}`;

/** `claude-code:session:<id>`: the self and parent keys of main session files. */
const sessionKey = (session: string) => `claude-code:session:${session}`;

/** The session a main transcript's file name says (`<uuid>.jsonl`), else undefined (sub-agents, renamed exports). */
function fileSession(path: string): string | undefined {
  const stem = basename(path).replace(/\.jsonl$/i, "");
  return UUID.test(stem) ? stem : undefined;
}

/** Whether a first entry continues a conversation whose beginning is elsewhere (see above: a copy that starts at a compaction). */
function continuesElsewhere(line: Record<string, unknown>): boolean {
  const parent = own(line, "parentUuid");
  const boundary = own(line, "type") === "system" && own(line, "subtype") === "compact_boundary";
  return boundary || own(line, "isCompactSummary") === true || (typeof parent === "string" && parent !== "");
}

/**
 * The key of a transcript's first entry and first call. The lines before the first entry must be
 * Claude Code's own entries without a uuid (snapshots, summaries, modes), so that another format's
 * file is let go at its first line.
 */
export const claudeCodeForkTag: ForkTagger = (path) => {
  const session = fileSession(path);
  let first: string | undefined;
  /** The uuid of the first entry, when it continues a conversation begun elsewhere. */
  let seek: string | undefined;
  /** The session id the first entry carries, when the file's name says another. */
  let parent: string | undefined;
  const tag = (keys: string[]): ForkTag => ({
    keys,
    weak: `claude-code:${first}`,
    ...(seek !== undefined && { seek: uuidNeedle(seek) }),
    ...(session !== undefined && { self: sessionKey(session), lastEntry: () => lastEntryNeedle(path) }),
    ...(parent !== undefined && { parent: sessionKey(parent) }),
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
      if (continuesElsewhere(line)) seek = uuid;
      const carried = own(line, "sessionId");
      if (session !== undefined && typeof carried === "string" && UUID.test(carried) && carried !== session) parent = carried;
    }
    const call = firstCall(line);
    return call === undefined ? undefined : tag([`claude-code:${first}\u0000${call}`]);
  };
};

/** How much of a file's end is read for its last entry. */
const TAIL_BYTES = 256 * 1024;

/**
 * The needle of the last prompt, reply or result of the main conversation in a file (what a fork
 * made where the file ended copied), from its last TAIL_BYTES; undefined when none is whole there.
 */
export function lastEntryNeedle(path: string): string | undefined {
  let text: string;
  let cut: boolean;
  try {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.allocUnsafe(length);
      text = buffer.subarray(0, readSync(fd, buffer, 0, length, size - length)).toString("utf8");
      cut = length < size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // reading the file says why
  }
  const lines = text.split("\n");
  // The first line of a cut tail is a piece of one.
  for (let i = lines.length - 1; i >= (cut ? 1 : 0); i--) {
    const entry = parsed(lines[i]!);
    const type = entry && own(entry, "type");
    const uuid = entry && own(entry, "uuid");
    if ((type === "user" || type === "assistant") && own(entry!, "isSidechain") !== true && typeof uuid === "string" && uuid !== "") return uuidNeedle(uuid);
  }
  return undefined;
}

function parsed(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
