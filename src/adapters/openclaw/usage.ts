/**
 * What an OpenClaw model turn used (cost.md §1), from the shapes the runtime records:
 * - a transcript `message` entry whose `message.role` is `assistant` (the SQLite store's rows are
 *   transcript lines, so the same);
 * - an assistant message of a trajectory's `model.completed.data.messagesSnapshot[]` (same shape);
 * - `model.completed.data.usage`, the attempt's usage, used as one turn only when the snapshot holds
 *   no assistant message that records usage (`completedUsage`).
 *
 * | OpenClaw (`usage.…`)        | normalised   | note                                              |
 * |-----------------------------|--------------|---------------------------------------------------|
 * | `input`                     | `input`      | already the uncached prompt tokens                |
 * | `output`                    | `output`     |                                                   |
 * | `cacheRead`                 | `cacheRead`  |                                                   |
 * | `cacheWrite`                | `cacheWrite` |                                                   |
 * | `totalTokens` (else `total`)| `total`      | = the four parts in real files; `total` in a      |
 * |                             |              | trajectory's run usage                            |
 * | `cost.total`                | `cost`       | USD; `0` is a real zero (local models)            |
 *
 * The per-part costs (`cost.input`, …) are not read: `cost.total` is what was charged. A turn is
 * counted once: copies of an entry (inputs.md §2) and messages an earlier snapshot held are not
 * replayed, and their usage goes with them — the identity of a turn is the adapter's copy rule, not
 * something read here.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { usageOf, type Usage } from "../../core/usage.js";

/** A `usage` object as OpenClaw records it; `undefined` when it records nothing usable. */
export function openclawUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  const cost = own(usage, "cost");
  return usageOf(
    own(usage, "input"),
    own(usage, "output"),
    own(usage, "cacheRead"),
    own(usage, "cacheWrite"),
    own(usage, "totalTokens") ?? own(usage, "total"),
    isPlainObject(cost) ? own(cost, "total") : undefined,
  );
}

/**
 * The usage of a message (a transcript entry's `message`, or a snapshot message) when it is an
 * assistant turn: `{usage}` (usage `undefined` when the message records none), else `undefined`
 * (not a model turn: user, toolResult, … messages).
 */
export function assistantTurnUsage(message: unknown): { readonly usage: Usage | undefined } | undefined {
  if (!isPlainObject(message) || own(message, "role") !== "assistant") return undefined;
  return { usage: openclawUsage(own(message, "usage")) };
}

/**
 * Where the turns of a `model.completed` event come from: its snapshot's assistant messages, each
 * once (`messages`), when any of them records usage; else its `data.usage` as one turn (`run`; the
 * usage `undefined` when none is recorded either). A snapshot repeats earlier messages, and the
 * attempt's usage covers only this attempt, so the two are never added together.
 */
export function completedUsage(data: Record<string, unknown>): { readonly kind: "messages" } | { readonly kind: "run"; readonly usage: Usage | undefined } {
  const snapshot = own(data, "messagesSnapshot");
  if (Array.isArray(snapshot) && snapshot.some((message) => assistantTurnUsage(message)?.usage !== undefined)) return { kind: "messages" };
  return { kind: "run", usage: openclawUsage(own(data, "usage")) };
}
