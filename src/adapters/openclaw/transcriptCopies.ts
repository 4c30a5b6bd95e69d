/**
 * Rewritten copies in a session transcript (inputs.md §2). A later rewrite can append copies of
 * earlier entries under new entry ids (seen: a thousand entries re-written days later under an old
 * parent, tool results truncated to `[... middle content omitted ...]`). Their calls executed once,
 * so a message entry whose `message.role`, `message.timestamp` and tool-call ids (its `toolCall`
 * block ids, or its `toolCallId`) equal an earlier entry's is a copy and is not replayed again.
 *
 * A message without a timestamp has no key: it can never be told from a new message, so it is
 * always replayed. Keys are kept as 53-bit hashes in a flat table (shared/keySets.ts): a session of
 * 100 000 calls keeps ~5 MB of them; a collision (odds ~1e-6 at 10^5 keys) would drop one call.
 * A large transcript that no later file of its session reads after keeps only the keys of messages
 * whose timestamp another of its messages may have (repeatedTimes.ts).
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { own } from "../../core/plainObject.js";
import { KeySet } from "../shared/keySets.js";
import { KeyHash } from "../shared/textHash.js";

/** The copy key of a message entry's message, or undefined when it has no timestamp. */
export function messageCopyKey(role: string, message: Record<string, unknown>, form: StringForm, ids: ReadonlyArray<string | undefined>): number | undefined {
  return copyKeyOf(role, own(message, "timestamp"), form, ids);
}

/** The same from the message's `timestamp` value (as parsed, or as read from the line's bytes). */
export function copyKeyOf(role: string, rawTimestamp: unknown, form: StringForm, ids: ReadonlyArray<string | undefined>): number | undefined {
  const key = new KeyHash();
  key.text(role);
  if (!timestampPart(key, rawTimestamp, form)) return undefined;
  for (const id of ids) {
    if (id === undefined) key.absent();
    else key.text(id);
  }
  return key.value();
}

/**
 * The key an entry is known by across the files of one session: its `id` and its own `timestamp`
 * (a copy in a checkpoint or backup keeps both). The id alone is not enough: ids are 8 hex digits,
 * unique within a file, and two lives of a session of 10^4 entries each share one with odds of ~2%.
 */
export function entryKey(entry: Record<string, unknown>, id: string | undefined, form: StringForm): number | undefined {
  return entryKeyOf(id, own(entry, "timestamp"), form);
}

/** The same from the entry's `timestamp` value (as parsed, or as read from the line's bytes). */
export function entryKeyOf(id: string | undefined, rawTimestamp: unknown, form: StringForm): number | undefined {
  if (id === undefined) return undefined;
  const key = new KeyHash();
  key.text(id);
  if (!timestampPart(key, rawTimestamp, form)) key.absent();
  return key.value();
}

/**
 * A timestamp as the keys take it: a finite number, or a non-empty string as text; else undefined
 * (none). The pass over a large last file (repeatedTimes.ts) compares and hashes the same values.
 */
export function keyTime(raw: unknown, form: StringForm): number | string | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
  return typeof raw === "string" && raw !== "" ? textOf(form, raw) : undefined;
}

/** Adds a timestamp (`keyTime`) to a key, by kind (a number never equals a string) and value. */
export function addTime(key: KeyHash, time: number | string): void {
  if (typeof time === "number") key.number(time);
  else (key.tag(1), key.text(time));
}

/** Adds a timestamp to a key; false when it is none. */
function timestampPart(key: KeyHash, raw: unknown, form: StringForm): boolean {
  const time = keyTime(raw, form);
  if (time !== undefined) addTime(key, time);
  return time !== undefined;
}

/**
 * Copy detection over one file of a unit: keys of earlier files (`before`) and of this file so far.
 * This file's keys join `before` only once the file is read through (`commit`), so that a file
 * read again after a failed shortcut starts from the same state.
 */
export class CopyDetector {
  private readonly own = new KeySet();

  constructor(private readonly before: KeySet) {}

  /** True when `key` was seen before (a copy); otherwise remembers it, unless no later message can have it (`remember` false). */
  isCopy(key: number | undefined, remember = true): boolean {
    if (key === undefined) return false;
    if (this.before.has(key) || this.own.has(key)) return true;
    if (remember) this.own.add(key);
    return false;
  }

  commit(): void {
    this.own.forEach((key) => this.before.add(key));
    this.own.clear();
  }
}
