/**
 * What OpenHands model turns used (cost.md §1). OpenHands records it two ways:
 * - **accumulated metrics**, running totals of the conversation's LLM(s): V0 events' `llm_metrics`
 *   (`{accumulated_cost, accumulated_token_usage}`), V1's `ConversationStateUpdateEvent` with
 *   `key: "stats"` and `value.usage_to_metrics: {<usage id>: {accumulated_cost,
 *   accumulated_token_usage}}` (one entry per LLM: `default`, `condenser`, …). A turn is the change
 *   of one LLM's totals between consecutive records (`AccumulatedUsage`); these carry money.
 * - **a response's own usage**, V0 actions' `tool_call_metadata.model_response.usage` (LiteLLM's),
 *   repeated on every action of the response and on their observations: one turn per
 *   `model_response.id` (`responseUsage` gives the id; the caller counts each once). No money.
 * A file that records accumulated metrics is read by them alone (they cover every response, and
 * the cost); the responses' usage is for files that record none (real V0 trajectories).
 *
 * | OpenHands                                   | normalised   | note                            |
 * |---------------------------------------------|--------------|---------------------------------|
 * | `prompt_tokens`                             | `input`      | minus cache read and write: the |
 * |                                             |              | prompt count includes them      |
 * | `cache_read_tokens` (response: `cache_read_`| `cacheRead`  |                                 |
 * | `input_tokens`, else `prompt_tokens_details`|              |                                 |
 * | `.cached_tokens`)                           |              |                                 |
 * | `cache_write_tokens` (response:             | `cacheWrite` |                                 |
 * | `cache_creation_input_tokens`)              |              |                                 |
 * | `completion_tokens`                         | `output`     | reasoning included (LiteLLM);   |
 * |                                             |              | `reasoning_tokens` not added    |
 * | response `total_tokens`                     | `total`      | accumulated: the parts' sum     |
 * | `accumulated_cost` (delta)                  | `cost`       | USD (LiteLLM's price)           |
 *
 * Deltas: a total smaller than the previous record's means the counters restarted (a restored or
 * new conversation): that LLM's deltas start again from zero, never negative. A field one record
 * lacks is not recorded for that turn, and the next record that has it is compared with the last
 * one that did. A record where no total changed is no turn. Money deltas are float differences, so
 * their sum can differ from the last running total in the last digits.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { idText } from "../shared/ids.js";
import { normaliseUsage, recordedNumber, uncachedInput, type Usage } from "../../core/usage.js";

/** An LLM's running totals as one record gives them (fields not recorded are absent). */
export interface Totals {
  cost?: number;
  prompt?: number;
  completion?: number;
  cacheRead?: number;
  cacheWrite?: number;
}
const TOTAL_FIELDS = ["cost", "prompt", "completion", "cacheRead", "cacheWrite"] as const;

/** Token counts with the prompt count including the cache's, as OpenHands and LiteLLM record them. */
function promptUsage(prompt: number | undefined, completion: unknown, cacheRead: number | undefined, cacheWrite: number | undefined, total?: unknown, cost?: number): Usage | undefined {
  return normaliseUsage({
    input: uncachedInput(prompt, cacheRead, cacheWrite),
    output: completion,
    cacheRead,
    cacheWrite,
    total,
    cost,
  });
}

/** A V0 action's (or observation's) response: its id and usage; `undefined` when it records no response. */
export function responseUsage(event: Record<string, unknown>): { readonly id: string | undefined; readonly usage: Usage | undefined } | undefined {
  const metadata = own(event, "tool_call_metadata");
  const response = isPlainObject(metadata) ? own(metadata, "model_response") : undefined;
  if (!isPlainObject(response)) return undefined;
  const id = idText(own(response, "id"), "text", "keep");
  const usage = own(response, "usage");
  if (!isPlainObject(usage)) return { id, usage: undefined };
  const details = own(usage, "prompt_tokens_details");
  const cacheRead = recordedNumber(own(usage, "cache_read_input_tokens")) ?? (isPlainObject(details) ? recordedNumber(own(details, "cached_tokens")) : undefined);
  const cacheWrite = recordedNumber(own(usage, "cache_creation_input_tokens"));
  return { id, usage: promptUsage(recordedNumber(own(usage, "prompt_tokens")), own(usage, "completion_tokens"), cacheRead, cacheWrite, own(usage, "total_tokens")) };
}

function totalsOf(metrics: unknown): Totals | undefined {
  if (!isPlainObject(metrics)) return undefined;
  const tokens = own(metrics, "accumulated_token_usage");
  const read = (key: string) => (isPlainObject(tokens) ? recordedNumber(own(tokens, key)) : undefined);
  const totals: Totals = {};
  const values: Totals = {
    cost: recordedNumber(own(metrics, "accumulated_cost")),
    prompt: read("prompt_tokens"),
    completion: read("completion_tokens"),
    cacheRead: read("cache_read_tokens"),
    cacheWrite: read("cache_write_tokens"),
  };
  for (const field of TOTAL_FIELDS) if (values[field] !== undefined) totals[field] = values[field];
  return Object.keys(totals).length === 0 ? undefined : totals;
}

/**
 * The running totals an event records, by LLM (usage id); `undefined` when it records none. V0's
 * `llm_metrics` is the agent's one LLM, under `default` (V1's name for the agent's).
 */
export function accumulatedMetrics(event: Record<string, unknown>): ReadonlyMap<string, Totals> | undefined {
  const out = new Map<string, Totals>();
  if (own(event, "kind") === "ConversationStateUpdateEvent") {
    const value = own(event, "value");
    const byLlm = own(event, "key") === "stats" && isPlainObject(value) ? own(value, "usage_to_metrics") : undefined;
    if (!isPlainObject(byLlm)) return undefined;
    for (const id of Object.keys(byLlm)) {
      const totals = totalsOf(own(byLlm, id));
      if (totals !== undefined) out.set(id, totals);
    }
  } else {
    const totals = totalsOf(own(event, "llm_metrics"));
    if (totals !== undefined) out.set("default", totals);
  }
  return out.size === 0 ? undefined : out;
}

/** Turns from consecutive running totals, fed in file order (see the file's comment on deltas). */
export class AccumulatedUsage {
  private readonly last = new Map<string, Totals>();

  /** The turns between the previous record and this one: one per LLM whose totals changed. */
  next(metrics: ReadonlyMap<string, Totals>): Usage[] {
    const turns: Usage[] = [];
    for (const [id, now] of metrics) {
      const before = this.last.get(id) ?? {};
      const restarted = TOTAL_FIELDS.some((field) => now[field] !== undefined && before[field] !== undefined && now[field]! < before[field]!);
      const base: Totals = restarted ? {} : before;
      const delta: Totals = {};
      let changed = false;
      for (const field of TOTAL_FIELDS) {
        if (now[field] === undefined) continue;
        delta[field] = now[field]! - (base[field] ?? 0);
        if (delta[field] !== 0) changed = true;
      }
      this.last.set(id, restarted ? { ...now } : { ...before, ...now });
      if (!changed) continue;
      const usage = promptUsage(delta.prompt, delta.completion, delta.cacheRead, delta.cacheWrite, undefined, delta.cost);
      if (usage !== undefined) turns.push(usage);
    }
    return turns;
  }
}
