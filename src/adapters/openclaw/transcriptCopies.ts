/**
 * Rewritten copies in a session transcript (inputs.md §2). A later rewrite can append copies of
 * earlier entries under new entry ids (seen: a thousand entries re-written days later under an old
 * parent, tool results truncated to `[... middle content omitted ...]`). Their calls executed once,
 * so a message entry whose `message.role`, `message.timestamp` and tool-call ids (its `toolCall`
 * block ids, or its `toolCallId`) equal an earlier entry's is a copy and is not replayed again.
 *
 * A message without a timestamp has no key: it can never be told from a new message, so it is
 * always replayed. Keys are kept as 53-bit hashes (a number per message, not a string): a session
 * of 100 000 calls keeps ~2 MB of them; a collision (odds ~1e-6 at 10^5 keys) would drop one call.
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { own } from "../../core/plainObject.js";

/** The copy key of a message entry's message, or undefined when it has no timestamp. */
export function messageCopyKey(role: string, message: Record<string, unknown>, form: StringForm, ids: ReadonlyArray<string | undefined>): number | undefined {
  return copyKeyOf(role, own(message, "timestamp"), form, ids);
}

/** The same from the message's `timestamp` value (as parsed, or as read from the line's bytes). */
export function copyKeyOf(role: string, rawTimestamp: unknown, form: StringForm, ids: ReadonlyArray<string | undefined>): number | undefined {
  const key = new KeyHash();
  key.text(role);
  if (!key.timestamp(rawTimestamp, form)) return undefined;
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
  if (!key.timestamp(rawTimestamp, form)) key.absent();
  return key.value();
}

/** A number's bits, to hash a timestamp without formatting it. */
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);

/**
 * A 53-bit hash of a key's parts (two 32-bit FNV-style lanes), each part closed by a separator no
 * text holds. Keys never leave the process: only equality matters. A timestamp is hashed by kind
 * (string or number, never equal to each other) and value; a number by its bits, not its text
 * (formatting a number cost more than the rest of the key: bench, tiny entries).
 */
class KeyHash {
  private a = 0x811c9dc5 | 0;
  private b = 0x9747b28c | 0;

  text(text: string): void {
    for (let i = 0; i < text.length; i++) this.mix(text.charCodeAt(i));
    this.mix(0x10000);
  }

  absent(): void {
    this.mix(0x10001);
  }

  /** False when the value is no timestamp (not a finite number, not a non-empty string). */
  timestamp(raw: unknown, form: StringForm): boolean {
    if (typeof raw === "number" && Number.isFinite(raw)) {
      BITS[0] = raw + 0; // -0 and 0 are one timestamp
      this.mix(0x10002);
      this.mix(WORDS[0]!);
      this.mix(WORDS[1]!);
      return true;
    }
    if (typeof raw === "string" && raw !== "") {
      this.mix(0x10003);
      this.text(textOf(form, raw));
      return true;
    }
    return false;
  }

  value(): number {
    return (this.a >>> 0) * 0x200000 + (this.b >>> 11);
  }

  private mix(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 13;
  }
}

/**
 * Copy detection over one file of a unit: keys of earlier files (`before`) and of this file so far.
 * This file's keys join `before` only once the file is read through (`commit`), so that a file
 * read again after a failed shortcut starts from the same state.
 */
export class CopyDetector {
  private readonly own = new Set<number>();

  constructor(private readonly before: Set<number>) {}

  /** True when `key` was seen before (a copy); otherwise remembers it. */
  isCopy(key: number | undefined): boolean {
    if (key === undefined) return false;
    if (this.before.has(key) || this.own.has(key)) return true;
    this.own.add(key);
    return false;
  }

  commit(): void {
    for (const key of this.own) this.before.add(key);
    this.own.clear();
  }
}
