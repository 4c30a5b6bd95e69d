/**
 * What a Claude Code model turn used (cost.md §1). A turn is one API response: an `assistant`
 * entry, and every entry sharing its `message.id` — Claude Code writes a streamed response as one
 * line per content block, each repeating the response's usage as it stood when the line was written
 * (early lines can say `output_tokens: 1`). The turn's usage is its LAST line's; adding each line's
 * is the classic double count. `StreamedTurns` does this for lines fed in order.
 *
 * | Claude Code (`message.usage.…`) | normalised   | note                                         |
 * |---------------------------------|--------------|----------------------------------------------|
 * | `input_tokens`                  | `input`      | uncached prompt tokens (Anthropic API)       |
 * | `output_tokens`                 | `output`     | thinking included                            |
 * | `cache_read_input_tokens`       | `cacheRead`  |                                              |
 * | `cache_creation_input_tokens`   | `cacheWrite` | `cache_creation.ephemeral_*` split it; unread|
 * | (none)                          | `total`      | the sum of the four: no total is recorded    |
 * | (none)                          | `cost`       | not recorded (old builds' `costUSD` aside,   |
 * |                                 |              | which the spec does not read): absent        |
 *
 * `server_tool_use` (web search requests) and `iterations` are not tokens of the turn's own and are
 * not read. A line without `message.id` (seen on sidechain lines) is a turn of its own.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { idText } from "../shared/ids.js";
import { recordedNumber, usageOf, type Usage } from "../../core/usage.js";

/** A `message.usage` object; `undefined` when it records nothing usable. */
export function claudeUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  return usageOf(own(usage, "input_tokens"), own(usage, "output_tokens"), own(usage, "cache_read_input_tokens"), own(usage, "cache_creation_input_tokens"), undefined, undefined);
}

/**
 * True when a `message.usage` value records something (`claudeUsage` would not be `undefined`):
 * the test a streamed line needs, without building the usage of a line that a later one replaces.
 */
export function recordsUsage(usage: unknown): usage is Record<string, unknown> {
  return isPlainObject(usage) && (recordedNumber(own(usage, "input_tokens")) !== undefined || recordedNumber(own(usage, "output_tokens")) !== undefined || recordedNumber(own(usage, "cache_read_input_tokens")) !== undefined || recordedNumber(own(usage, "cache_creation_input_tokens")) !== undefined);
}

/**
 * One line of a turn: its response id (`undefined`: none recorded) and its raw `message.usage` when
 * that records something. Raw, because only the response's last line counts: it is normalised once,
 * when the turn closes (normalising every streamed line was most of what reading usage cost).
 */
export interface ClaudeTurnLine {
  readonly id: string | undefined;
  readonly usage: Record<string, unknown> | undefined;
}

/** An `assistant` entry's part of a turn; `undefined` for any other entry. */
export function claudeTurnLine(entry: unknown): ClaudeTurnLine | undefined {
  if (!isPlainObject(entry) || own(entry, "type") !== "assistant") return undefined;
  const message = own(entry, "message");
  return isPlainObject(message) ? messageTurnLine(message) : { id: undefined, usage: undefined };
}

/**
 * The turn line of an assistant entry's `message` object: what `classifyClaudeLine` reads in its own
 * walk of the message, so that a line is not looked into a second time for its usage.
 */
export function messageTurnLine(message: Record<string, unknown>): ClaudeTurnLine {
  const usage = own(message, "usage");
  return { id: idText(own(message, "id"), "text", "keep"), usage: recordsUsage(usage) ? usage : undefined };
}

/** A finished turn: its response id, its last line's usage, and how many lines it spanned. */
export interface ClaudeTurn {
  readonly id: string | undefined;
  readonly usage: Usage | undefined;
  readonly lines: number;
}

/** What most lines finish: shared, so that a streamed line allocates no array. */
const NONE: readonly ClaudeTurn[] = Object.freeze([]);

/** Responses open at once before the oldest is taken as finished: two interleave, rarely more. */
const OPEN_RESPONSES = 4;
/** Finished ids remembered, so that a straggling line of one is not taken for a new turn. */
const FINISHED_IDS = 256;

/**
 * Turns from streamed lines fed in order: one per `message.id`, with the last line's usage, handed
 * out in the order the responses started. A response is finished once `openResponses` later
 * responses have started (lines of two responses can interleave: a sidechain's beside the main
 * thread's), or at `finish()`. A line of a response already handed out (later than that) changes
 * nothing and is counted in `stragglers`, never made a second turn.
 */
export class StreamedTurns {
  /** Responses not handed out yet, in the order they started; a line without id has a number of its own. */
  private readonly open = new Map<string | number, { usage: Record<string, unknown> | undefined; lines: number }>();
  private readonly finished: string[] = [];
  private readonly finishedSet = new Set<string>();
  private anonymous = 0;
  /** The response the last line belonged to: its lines are usually consecutive, so no Map lookup. */
  private lastId: string | undefined;
  private lastHeld: { usage: Record<string, unknown> | undefined; lines: number } | undefined;
  stragglers = 0;

  constructor(private readonly openResponses = OPEN_RESPONSES) {}

  /** Feeds one line; returns the turns it finished (oldest first). */
  push(line: ClaudeTurnLine): readonly ClaudeTurn[] {
    const key = line.id ?? this.anonymous++;
    const held = key === this.lastId ? this.lastHeld : this.open.get(key);
    if (held !== undefined) {
      held.lines++;
      // A line without usage does not undo what an earlier line of the response recorded.
      if (line.usage !== undefined) held.usage = line.usage;
      return NONE;
    }
    if (typeof key === "string" && this.finishedSet.has(key)) {
      this.stragglers++;
      return NONE;
    }
    const fresh = { usage: line.usage, lines: 1 };
    this.open.set(key, fresh);
    // Two assignments, not `[a, b] = [x, y]`: that makes an array and walks it with an iterator, once per response.
    if (typeof key === "string") {
      this.lastId = key;
      this.lastHeld = fresh;
    }
    if (this.open.size <= this.openResponses) return NONE;
    const done: ClaudeTurn[] = [];
    while (this.open.size > this.openResponses) done.push(this.close(this.open.keys().next().value!));
    return done;
  }

  /** Finishes every open response (end of the file). */
  finish(): ClaudeTurn[] {
    return [...this.open.keys()].map((key) => this.close(key));
  }

  private close(key: string | number): ClaudeTurn {
    const { usage, lines } = this.open.get(key)!;
    this.open.delete(key);
    if (key === this.lastId) {
      this.lastId = undefined;
      this.lastHeld = undefined;
    }
    const used = usage === undefined ? undefined : claudeUsage(usage);
    if (typeof key === "number") return { id: undefined, usage: used, lines };
    this.finished.push(key);
    this.finishedSet.add(key);
    if (this.finished.length > FINISHED_IDS) this.finishedSet.delete(this.finished.shift()!);
    return { id: key, usage: used, lines };
  }
}
