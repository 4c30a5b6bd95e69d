/** Recognising a Claude Code line (the adapter's sniff, and the fork tagger's check of a head). */
import { isPlainObject, own } from "../../core/plainObject.js";

/** Entry types only Claude Code writes, recognisable even on lines without a uuid. */
const META_TYPES = new Set(["permission-mode", "queue-operation", "last-prompt", "ai-title", "custom-title", "agent-name", "worktree-state", "pr-link", "bridge-session"]);

/** A line Claude Code writes: a message or system entry in its `parentUuid` tree, or one of its own entry types. */
export function looksLikeClaudeCode(sample: unknown): boolean {
  if (!isPlainObject(sample)) return false;
  const type = own(sample, "type");
  if (typeof type !== "string") return false;
  const hasSession = typeof own(sample, "sessionId") === "string";
  switch (type) {
    case "user":
    case "assistant":
    case "system":
    case "attachment":
    case "progress":
      return hasSession && typeof own(sample, "uuid") === "string" && Object.prototype.hasOwnProperty.call(sample, "parentUuid");
    case "summary":
      return typeof own(sample, "summary") === "string" && typeof own(sample, "leafUuid") === "string";
    case "file-history-snapshot":
      return typeof own(sample, "messageId") === "string" && isPlainObject(own(sample, "snapshot"));
    default:
      return hasSession && META_TYPES.has(type);
  }
}
