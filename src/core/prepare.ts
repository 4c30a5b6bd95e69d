/**
 * The config-independent half of replay: numbers each run's calls, links every result to the call it
 * answers (by id; a result without one, the newest unanswered call of that tool) and hashes calls and outcomes.
 * Its output, a stream of `PreparedEvent`s, can be replayed under any number of configs without
 * hashing again (that is what makes `sweep` cheap).
 */
import type { LoopEvent, ToolResultEvent } from "./events.js";
import { argsForOutcome, isKnownPoll, type Hashing } from "./hashing.js";
import { PendingCalls } from "./pendingCalls.js";
import { quote } from "./quote.js";

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

type CallEvent = Extract<PreparedEvent, { type: "call" }>;
type BoundaryEvent = Extract<PreparedEvent, { type: "run_start" | "run_end" | "compaction" }>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Identity = { agent?: string; session?: string };

/** Copies the event's agent and session, when it has them, onto the prepared event. */
function withIdentity<T extends Identity>(prepared: T, event: LoopEvent): T {
  if (event.agent !== undefined) prepared.agent = event.agent;
  if (event.session !== undefined) prepared.session = event.session;
  return prepared;
}

/** Whether an event took part in replay; an ignored event comes with the reason. */
export type Disposition = { readonly used: true; readonly prepared: PreparedEvent } | { readonly used: false; readonly reason: string };

interface RunLinks {
  calls: number;
  readonly pending: PendingCalls;
}

/** Calls that never get a result must not grow memory without bound. */
const MAX_PENDING_PER_RUN = 4096;

export class EventPreparer {
  private readonly runs = new Map<string, RunLinks>();
  /** Ended runs keep only their call count, so that numbering goes on if one resumes. */
  private readonly endedCalls = new Map<string, number>();

  constructor(private readonly hashing: Hashing) {}

  /** Runs not ended yet: the only ones whose pending calls (and arguments) are held in memory. */
  get openRuns(): number {
    return this.runs.size;
  }

  prepare(event: LoopEvent): Disposition {
    // Objects are built field by field, not spread: this runs once per input line (bench/).
    switch (event.type) {
      case "run_start":
      case "compaction":
        this.links(event.run);
        return { used: true, prepared: withIdentity<Mutable<BoundaryEvent>>({ type: event.type, run: event.run, file: event.file, line: event.line }, event) };
      case "run_end": {
        // The run's unanswered calls (and their arguments) can no longer be answered: release them.
        const links = this.runs.get(event.run);
        if (links) {
          this.runs.delete(event.run);
          this.endedCalls.set(event.run, links.calls);
        }
        return { used: true, prepared: withIdentity<Mutable<BoundaryEvent>>({ type: "run_end", run: event.run, file: event.file, line: event.line }, event) };
      }
      case "tool_call": {
        const links = this.links(event.run);
        const argsHash = this.hashing.argsHash(event.tool, event.args, event.form);
        const call = ++links.calls;
        // Only what the outcome hash reads of the arguments (`argsForOutcome`) is kept, not the arguments.
        links.pending.add({ id: event.id, tool: event.tool, args: argsForOutcome(event.args), argsHash, call });
        const prepared: Mutable<CallEvent> = {
          type: "call",
          run: event.run,
          file: event.file,
          line: event.line,
          tool: event.tool,
          argsHash,
          knownPoll: isKnownPoll(event.tool, event.args),
          callId: event.id,
          call,
        };
        return { used: true, prepared: withIdentity(prepared, event) };
      }
      case "tool_result":
        return this.result(event);
    }
  }

  private links(run: string): RunLinks {
    let links = this.runs.get(run);
    if (!links) {
      links = { calls: this.endedCalls.get(run) ?? 0, pending: new PendingCalls(MAX_PENDING_PER_RUN) };
      this.endedCalls.delete(run);
      this.runs.set(run, links);
    }
    return links;
  }

  private result(event: ToolResultEvent): Disposition {
    const links = this.runs.get(event.run);
    const call = links?.pending.take(event.id, event.tool);
    if (!call) {
      const what = event.id !== undefined ? `id ${quote(event.id)}` : `tool ${quote(event.tool ?? "?")}`;
      return { used: false, reason: `result (${what}) matches no call of run ${quote(event.run)}; not replayed` };
    }
    const outcome =
      event.error !== undefined ? ({ kind: "error", value: event.error } as const) : ({ kind: "result", value: event.result } as const);
    const hashed = this.hashing.outcomeHash(call.tool, call.args, outcome, event.form);
    return {
      used: true,
      prepared: {
        type: "outcome",
        run: event.run,
        file: event.file,
        line: event.line,
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
