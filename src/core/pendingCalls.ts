/**
 * The calls of one run still waiting for their result, for linking results to calls (spec:
 * inputs.md §1: a result with an id answers the call with that id, a result without one the newest
 * unanswered call of the same tool). Counts per id and per tool
 * let a result that answers nothing be rejected without scanning the list: a file of a million
 * orphan results against thousands of unanswered calls would otherwise cost a scan each.
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

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

export class PendingCalls {
  /** Oldest first. */
  private readonly calls: PendingCall[] = [];
  private readonly byId = new Map<string, number>();
  private readonly byTool = new Map<string, number>();

  /** At most `limit` calls are kept: calls that never get a result must not grow memory without bound. */
  constructor(private readonly limit: number) {}

  get size(): number {
    return this.calls.length;
  }

  add(call: PendingCall): void {
    this.calls.push(call);
    this.count(call, 1);
    if (this.calls.length > this.limit) this.count(this.calls.shift()!, -1);
  }

  /**
   * The call a result answers: with an id, only the pending call with that id (a duplicate or unknown
   * id matches nothing, whatever the tool); without one, the newest pending call of the same tool.
   */
  take(id: string | undefined, tool: string | undefined): PendingCall | undefined {
    if (id !== undefined) return this.byId.has(id) ? this.takeNewest((candidate) => candidate.id === id) : undefined;
    if (tool === undefined || !this.byTool.has(tool)) return undefined;
    return this.takeNewest((candidate) => candidate.tool === tool);
  }

  private takeNewest(matches: (candidate: PendingCall) => boolean): PendingCall | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      if (!matches(this.calls[i]!)) continue;
      const [taken] = this.calls.splice(i, 1);
      this.count(taken!, -1);
      return taken;
    }
    return undefined;
  }

  private count(call: PendingCall, delta: number): void {
    if (call.id !== undefined) bump(this.byId, call.id, delta);
    bump(this.byTool, call.tool, delta);
  }
}
