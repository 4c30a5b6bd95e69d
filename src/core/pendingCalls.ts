/**
 * The calls of one run still waiting for their result, for linking results to calls (spec:
 * inputs.md §1: a result with an id answers the call with that id, a result without one the newest
 * unanswered call of the same tool).
 *
 * A run almost always has a few calls pending at a time, and a newest-first scan of those is the
 * cheapest lookup there is. Counts per id and per tool are kept only while many calls are pending
 * (more than `indexAbove`), so that a result that answers nothing is rejected without a scan: a
 * file of a million orphan results against thousands of unanswered calls would otherwise cost a
 * scan each. Kept always, the counts cost two Map updates a call, and a Map that goes from one
 * entry to none allocates a new table (V8 shrinks it): ~30 MB of garbage on a 165 MB folder.
 */

export interface PendingCall {
  readonly id: string | undefined;
  readonly tool: string;
  /** Only what the outcome hash reads of the arguments (`argsForOutcome`), not the arguments. */
  readonly args: unknown;
  readonly argsHash: string;
  readonly call: number;
  /** The name the call's outcome is hashed under, when not `tool` (a foreign tool: prepare.ts). */
  readonly hashTool?: string;
  /** Newest generation: the file a `write` call changes (absent otherwise). */
  readonly mutationTarget?: string;
}

/**
 * A run's pending calls as the preparer holds them (prepare.ts): none, the one call itself (most
 * runs, most of the time), or a list. No list object for one call: a file of 300,000 runs that never
 * end held one a run (~60 bytes) to its end.
 */
export type HeldCalls = PendingCall | PendingCalls | undefined;

/** What holds `held` and `call`: the list is made at the second call pending at a time (`limit`: see PendingCalls). */
export function withCall(held: HeldCalls, call: PendingCall, limit: number): PendingCall | PendingCalls {
  if (held === undefined) return call;
  if (held instanceof PendingCalls) {
    held.add(call);
    return held;
  }
  const list = new PendingCalls(limit);
  list.add(held);
  list.add(call);
  return list;
}

/** The call a result answers (PendingCalls `take`), taken out of a list; the one call held is the caller's to drop. */
export function answeredCall(held: HeldCalls, id: string | undefined, tool: string | undefined): PendingCall | undefined {
  if (held instanceof PendingCalls) return held.take(id, tool);
  return held !== undefined && answers(held, id, tool) ? held : undefined;
}

/** Whether a result with `id` (without one: of `tool`) answers `call`. */
function answers(call: PendingCall, id: string | undefined, tool: string | undefined): boolean {
  return id !== undefined ? call.id === id : tool !== undefined && call.tool === tool;
}

/** Pending calls up to which results are matched by scanning, without counts. */
const INDEX_ABOVE = 16;

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** Counts of the pending calls per id and per tool (only while many calls are pending). */
export class PendingCounts {
  readonly byId = new Map<string, number>();
  readonly byTool = new Map<string, number>();

  constructor(calls: readonly PendingCall[]) {
    for (const call of calls) this.count(call, 1);
  }

  count(call: PendingCall, delta: number): void {
    if (call.id !== undefined) bump(this.byId, call.id, delta);
    bump(this.byTool, call.tool, delta);
  }
}

export class PendingCalls {
  /**
   * The pending call while no list was needed: most runs have one call pending at a time, and a list
   * costs ~180 bytes (a file of 300,000 runs that never end holds every open run's to its end).
   */
  private only: PendingCall | undefined;
  /** Oldest first, made once two calls were pending at a time (then kept). */
  private calls: PendingCall[] | undefined;
  private counts: PendingCounts | undefined;

  /**
   * At most `limit` (≥ 1) calls are kept: calls that never get a result must not grow memory without
   * bound. `indexAbove` (tests lower it) is where the counts start; they are dropped again at half.
   */
  constructor(
    private readonly limit: number,
    private readonly indexAbove = INDEX_ABOVE,
  ) {}

  get size(): number {
    return this.calls !== undefined ? this.calls.length : this.only !== undefined ? 1 : 0;
  }

  add(call: PendingCall): void {
    let calls = this.calls;
    if (calls === undefined) {
      if (this.only === undefined) {
        this.only = call;
        return;
      }
      calls = this.calls = [this.only];
      this.only = undefined;
    }
    calls.push(call);
    this.counts?.count(call, 1);
    if (calls.length > this.limit) {
      const dropped = calls.shift()!; // not inside `?.`: the shift must happen with or without counts
      this.counts?.count(dropped, -1);
    }
    if (this.counts === undefined && calls.length > this.indexAbove) this.counts = new PendingCounts(calls);
  }

  /**
   * The call a result answers: with an id, only the pending call with that id (a duplicate or unknown
   * id matches nothing, whatever the tool); without one, the newest pending call of the same tool.
   */
  take(id: string | undefined, tool: string | undefined): PendingCall | undefined {
    if (this.calls === undefined) return this.takeOnly(id, tool);
    const counts = this.counts;
    if (id !== undefined) return counts && !counts.byId.has(id) ? undefined : this.takeNewest(id, "id");
    if (tool === undefined || (counts && !counts.byTool.has(tool))) return undefined;
    return this.takeNewest(tool, "tool");
  }

  /** `take` while no list was made: the one pending call, if the result answers it. */
  private takeOnly(id: string | undefined, tool: string | undefined): PendingCall | undefined {
    const only = this.only;
    if (only === undefined || !answers(only, id, tool)) return undefined;
    this.only = undefined;
    return only;
  }

  /** The newest pending call whose `field` is `value`, taken out of the list. */
  private takeNewest(value: string, field: "id" | "tool"): PendingCall | undefined {
    const calls = this.calls!;
    for (let i = calls.length - 1; i >= 0; i--) {
      const candidate = calls[i]!;
      if (candidate[field] !== value) continue;
      if (i === calls.length - 1) calls.pop();
      else calls.splice(i, 1);
      this.counts?.count(candidate, -1);
      // Hysteresis: counts made at indexAbove + 1 calls are dropped at half that, not at once.
      if (this.counts !== undefined && calls.length <= this.indexAbove >> 1) this.counts = undefined;
      return candidate;
    }
    return undefined;
  }
}
