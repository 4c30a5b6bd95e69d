/**
 * The config-independent half of replay: numbers each run's calls, links every result to the call it
 * answers (by id; a result without one, the newest unanswered call of that tool) and hashes calls and outcomes.
 * Its output, a stream of `PreparedEvent`s, can be replayed under any number of configs without
 * hashing again (that is what makes `sweep` cheap).
 */
import type { LoopEvent, ToolResultEvent } from "./events.js";
import { isKnownPoll, type Hashing } from "./hashing.js";

interface Located {
  readonly run: string;
  readonly file: string;
  readonly line: number;
}

export type PreparedEvent =
  | (Located & { readonly type: "run_start" | "run_end" | "compaction"; readonly agent?: string; readonly session?: string })
  | (Located & {
      readonly type: "call";
      readonly agent?: string;
      readonly session?: string;
      readonly tool: string;
      readonly argsHash: string;
      readonly knownPoll: boolean;
      readonly callId: string | undefined;
      /** 1-based ordinal of the call in its run. */
      readonly call: number;
    })
  | (Located & {
      readonly type: "outcome";
      readonly tool: string;
      readonly argsHash: string;
      readonly callId: string | undefined;
      readonly call: number;
      readonly resultHash: string | undefined;
      readonly unknownTool: string | undefined;
      readonly veto: boolean;
    });

/** Whether an event took part in replay; an ignored event comes with the reason. */
export type Disposition = { readonly used: true; readonly prepared: PreparedEvent } | { readonly used: false; readonly reason: string };

interface PendingCall {
  readonly id: string | undefined;
  readonly tool: string;
  readonly args: unknown;
  readonly argsHash: string;
  readonly call: number;
}

interface RunLinks {
  calls: number;
  pending: PendingCall[];
}

/** Calls that never get a result must not grow memory without bound. */
const MAX_PENDING_PER_RUN = 4096;

export class EventPreparer {
  private readonly runs = new Map<string, RunLinks>();

  constructor(private readonly hashing: Hashing) {}

  prepare(event: LoopEvent): Disposition {
    const base = { run: event.run, file: event.file, line: event.line };
    const identity = {
      ...(event.agent !== undefined ? { agent: event.agent } : {}),
      ...(event.session !== undefined ? { session: event.session } : {}),
    };
    switch (event.type) {
      case "run_start":
      case "compaction":
        this.links(event.run);
        return { used: true, prepared: { type: event.type, ...base, ...identity } };
      case "run_end": {
        // The run's unanswered calls can no longer be answered; its call numbering goes on if it resumes.
        const links = this.runs.get(event.run);
        if (links) links.pending = [];
        return { used: true, prepared: { type: "run_end", ...base, ...identity } };
      }
      case "tool_call": {
        const links = this.links(event.run);
        const argsHash = this.hashing.argsHash(event.tool, event.args);
        const call = ++links.calls;
        links.pending.push({ id: event.id, tool: event.tool, args: event.args, argsHash, call });
        if (links.pending.length > MAX_PENDING_PER_RUN) links.pending.shift();
        return {
          used: true,
          prepared: {
            type: "call",
            ...base,
            ...identity,
            tool: event.tool,
            argsHash,
            knownPoll: isKnownPoll(event.tool, event.args),
            callId: event.id,
            call,
          },
        };
      }
      case "tool_result":
        return this.result(event, base);
    }
  }

  private links(run: string): RunLinks {
    let links = this.runs.get(run);
    if (!links) {
      links = { calls: 0, pending: [] };
      this.runs.set(run, links);
    }
    return links;
  }

  private result(event: ToolResultEvent, base: Located): Disposition {
    const links = this.runs.get(event.run);
    const call = links && takePending(links.pending, event);
    if (!call) {
      const what = event.id !== undefined ? `id ${JSON.stringify(event.id)}` : `tool ${JSON.stringify(event.tool ?? "?")}`;
      return { used: false, reason: `result (${what}) matches no call of run ${JSON.stringify(event.run)}; not replayed` };
    }
    const outcome =
      event.error !== undefined ? ({ kind: "error", value: event.error } as const) : ({ kind: "result", value: event.result } as const);
    const hashed = this.hashing.outcomeHash(call.tool, call.args, outcome);
    return {
      used: true,
      prepared: {
        type: "outcome",
        ...base,
        tool: call.tool,
        argsHash: call.argsHash,
        // The id the call was recorded under: the outcome must attach to that record (a result id
        // that no call had would leave the answered call pending and append a second record).
        callId: call.id,
        call: call.call,
        resultHash: hashed.resultHash,
        unknownTool: hashed.unknownTool,
        veto: hashed.veto === true,
      },
    };
  }
}

/**
 * The call a result answers (inputs.md §1): "`id` links a result to its call", so a result with an id
 * answers only the pending call with that id (a duplicate or unknown id matches nothing); a result
 * without one belongs to the newest pending call of the same tool.
 */
function takePending(pending: PendingCall[], event: ToolResultEvent): PendingCall | undefined {
  const matches =
    event.id !== undefined ? (candidate: PendingCall) => candidate.id === event.id : (candidate: PendingCall) => candidate.tool === event.tool;
  for (let i = pending.length - 1; i >= 0; i--) if (matches(pending[i]!)) return pending.splice(i, 1)[0];
  return undefined;
}
