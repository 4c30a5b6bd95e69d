/**
 * What a Codex model turn used (cost.md §1): the `event_msg` `token_count` written with each model
 * response, `payload.info.last_token_usage` (the response's own; `total_token_usage` is the
 * session's running total). `info: null` (written before the first response, and by some builds
 * at a turn's start) carries nothing.
 *
 * One response, one turn: Codex writes the same `token_count` twice around a response (real 0.47.0
 * rollouts: once before the response's items, again after the turn context, with the same running
 * total). A `token_count` whose `total_token_usage` equals the previous one's used no tokens since,
 * so it is a repeat, not a turn (`TokenCounts`).
 *
 * | Codex (`last_token_usage.…`) | normalised   | note                                             |
 * |------------------------------|--------------|--------------------------------------------------|
 * | `input_tokens`               | `input`      | minus the cached and cache-write tokens: Codex's |
 * |                              |              | input count includes them                        |
 * | `cached_input_tokens`        | `cacheRead`  |                                                  |
 * | `cache_write_input_tokens`   | `cacheWrite` | newer builds; taken as part of `input_tokens`    |
 * |                              |              | too, as `total_tokens` = input + output shows    |
 * | `output_tokens`              | `output`     | includes `reasoning_output_tokens` (not added    |
 * |                              |              | again: real files have reasoning ≤ output and    |
 * |                              |              | total = input + output)                          |
 * | `total_tokens`               | `total`      |                                                  |
 * | (none)                       | `cost`       | not recorded: absent                             |
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { normaliseUsage, recordedNumber, uncachedInput, type Usage } from "../../core/usage.js";

/** A Codex token usage object (`last_token_usage`); `undefined` when it records nothing usable. */
export function codexUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  const input = recordedNumber(own(usage, "input_tokens"));
  const cacheRead = recordedNumber(own(usage, "cached_input_tokens"));
  const cacheWrite = recordedNumber(own(usage, "cache_write_input_tokens"));
  return normaliseUsage({
    input: uncachedInput(input, cacheRead, cacheWrite),
    output: own(usage, "output_tokens"),
    cacheRead,
    cacheWrite,
    total: own(usage, "total_tokens"),
  });
}

/** What one `token_count` payload says: a response's usage and the running total it brings, or nothing. */
export type TokenCount =
  | { readonly kind: "none" }
  | { readonly kind: "usage"; readonly usage: Usage | undefined; readonly running: string | undefined };

/** The `payload` of an `event_msg` line of type `token_count`. */
export function tokenCount(payload: Record<string, unknown>): TokenCount {
  const info = own(payload, "info");
  if (!isPlainObject(info)) return { kind: "none" };
  const last = own(info, "last_token_usage");
  if (!isPlainObject(last)) return { kind: "none" };
  return { kind: "usage", usage: codexUsage(last), running: runningKey(own(info, "total_token_usage")) };
}

/** The running total as a comparable key (its counts in a fixed order); `undefined` when not recorded. */
function runningKey(total: unknown): string | undefined {
  if (!isPlainObject(total)) return undefined;
  const counts = ["input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens", "reasoning_output_tokens", "total_tokens"].map((key) => recordedNumber(own(total, key)) ?? null);
  return counts.every((count) => count === null) ? undefined : JSON.stringify(counts);
}

/**
 * The turns of one rollout's `token_count` lines, fed in file order: `next` returns `{usage}` for a
 * line that is a model response (its usage `undefined` when it records none), `undefined` for one
 * that carries nothing or repeats the previous running total. Without a running total to compare,
 * every line with a `last_token_usage` is a turn.
 */
export class TokenCounts {
  private lastRunning: string | undefined;

  /** `next` for a rollout line, when it is an `event_msg` `token_count`. */
  of(line: Record<string, unknown>): { readonly usage: Usage | undefined } | undefined {
    if (own(line, "type") !== "event_msg") return undefined;
    const payload = own(line, "payload");
    return isPlainObject(payload) && own(payload, "type") === "token_count" ? this.next(payload) : undefined;
  }

  next(payload: Record<string, unknown>): { readonly usage: Usage | undefined } | undefined {
    const count = tokenCount(payload);
    if (count.kind === "none") return undefined;
    const repeat = count.running !== undefined && count.running === this.lastRunning;
    this.lastRunning = count.running;
    return repeat ? undefined : { usage: count.usage };
  }
}
