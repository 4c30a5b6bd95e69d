/**
 * The config-independent half of replay: numbers each run's calls, links every result to the call it
 * answers (by id; a result without one, the newest unanswered call of that tool) and hashes calls and outcomes.
 * Its output, a stream of `PreparedEvent`s, can be replayed under any number of configs without
 * hashing again (that is what makes `sweep` cheap).
 */
import { formOf, type LoopEvent, type ToolResultEvent, type TurnEvent } from "./events.js";
import { argsForOutcome, isKnownPoll, type Hashing, type OutcomeKind } from "./hashing.js";
import type { Disposition as GenericDisposition } from "./disposition.js";
import { answeredCall, withCall, type HeldCalls, type PendingCall } from "./pendingCalls.js";
import { quote } from "./quote.js";
import { eventTime } from "./eventTime.js";
import type { Usage } from "./usage.js";

interface Located {
  readonly run: string;
  readonly file: string;
  readonly line: number;
  /** The run's start time (eventTime.ts), on the first event of the run whose input recorded one. */
  readonly ts?: string;
}

export type PreparedEvent =
  | (Located & { readonly type: "run_start"; readonly agent?: string; readonly session?: string; readonly harnessVersion?: string })
  | (Located & { readonly type: "run_end"; readonly agent?: string; readonly session?: string; readonly final?: true })
  | (Located & { readonly type: "compaction"; readonly agent?: string; readonly session?: string })
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
      /** Newest generation: the file a `write` call changes. */
      readonly mutationTarget?: string;
      /** The model turn that made the call (events.ts `TurnEvent`), when the input records turns. */
      readonly turn?: string;
      readonly usage?: Usage;
    })
  | (Located & { readonly type: "turn"; readonly agent?: string; readonly session?: string; readonly turn: string; readonly usage?: Usage })
  | (Located & {
      readonly type: "outcome";
      readonly tool: string;
      readonly argsHash: string;
      readonly callId: string | undefined;
      readonly call: number;
      readonly resultHash: string | undefined;
      readonly unknownTool: string | undefined;
      readonly veto: boolean;
      /** Newest generation only (hashing.ts `OutcomeHash`); absent under the default one. */
      readonly mutationTarget?: string;
      readonly outcomeKind?: OutcomeKind;
      readonly failureIdentity?: string;
      readonly noProgress?: boolean;
    });

type CallEvent = Extract<PreparedEvent, { type: "call" }>;
type BoundaryEvent = Extract<PreparedEvent, { type: "compaction" }>;
type RunEnd = Extract<PreparedEvent, { type: "run_end" }>;
type RunStart = Extract<PreparedEvent, { type: "run_start" }>;
type OutcomeEvent = Extract<PreparedEvent, { type: "outcome" }>;
type TurnEnd = Extract<PreparedEvent, { type: "turn" }>;

/**
 * The hashing of a run's profile, from the build version its run_start records (if any): under
 * `--profile auto` runs of one input may replay under different generations.
 */
export type HashingForRun = (harnessVersion: string | undefined) => Hashing;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Identity = { agent?: string; session?: string };

/** Copies the event's agent and session, when it has them, onto the prepared event. */
function withIdentity<T extends Identity>(prepared: T, event: LoopEvent): T {
  if (event.agent !== undefined) prepared.agent = event.agent;
  if (event.session !== undefined) prepared.session = event.session;
  return prepared;
}

/**
 * A turn as replay takes it: a copy, without its `ts` (a turn never dates its run). Its run's links
 * are not made for it: a turn neither numbers calls nor holds pending ones, so it needs no
 * preparer, and reading may hand it to replay without one (pipeline/reading.ts `Delivery.turn`).
 */
export function preparedTurn(event: TurnEvent): TurnEnd {
  const prepared = withIdentity<Mutable<TurnEnd>>({ type: "turn", run: event.run, file: event.file, line: event.line, turn: event.turn }, event);
  if (event.usage !== undefined) prepared.usage = event.usage;
  return prepared;
}

/** What preparing an event gave: the prepared event, or why it is not replayed. */
export type Disposition = GenericDisposition<{ readonly prepared: PreparedEvent }>;

interface RunLinks {
  calls: number;
  /** The run's start time was put on an event already (only the first timed event carries it). */
  timed?: boolean;
  pending: HeldCalls;
  readonly hashing: Hashing;
}

/** Calls that never get a result must not grow memory without bound. */
const MAX_PENDING_PER_RUN = 4096;

export class EventPreparer {
  private readonly runs = new Map<string, RunLinks>();
  /** Ended runs keep only their call count, so that numbering goes on if one resumes. */
  private readonly endedCalls = new Map<string, number>();

  private readonly hashingFor: HashingForRun;

  /** One hashing for every run, or one chosen per run from its recorded build version. */
  constructor(hashing: Hashing | HashingForRun) {
    this.hashingFor = typeof hashing === "function" ? hashing : () => hashing;
  }

  /** Runs not ended yet: the only ones whose pending calls (and arguments) are held in memory. */
  get openRuns(): number {
    return this.runs.size;
  }

  prepare(event: LoopEvent): Disposition {
    // Objects are built field by field, not spread: this runs once per input line (bench/).
    switch (event.type) {
      case "run_start": {
        this.links(event.run, event.harnessVersion);
        const prepared: Mutable<RunStart> = { type: "run_start", run: event.run, file: event.file, line: event.line };
        if (event.harnessVersion !== undefined) prepared.harnessVersion = event.harnessVersion;
        return { used: true, prepared: this.timed(withIdentity(prepared, event), event) };
      }
      case "compaction":
        this.links(event.run);
        return { used: true, prepared: this.timed(withIdentity<Mutable<BoundaryEvent>>({ type: event.type, run: event.run, file: event.file, line: event.line }, event), event) };
      case "run_end": {
        // The run's unanswered calls (and their arguments) can no longer be answered: release them.
        const links = this.runs.get(event.run);
        if (links) {
          this.runs.delete(event.run);
          // A run that can resume keeps its count; a `final` one cannot, and keeps nothing.
          if (event.final !== true) this.endedCalls.set(event.run, links.calls);
        }
        const prepared = withIdentity<Mutable<RunEnd>>({ type: "run_end", run: event.run, file: event.file, line: event.line }, event);
        if (event.final === true) prepared.final = true;
        return { used: true, prepared };
      }
      case "tool_call": {
        const links = this.links(event.run);
        // Another agent's tool is hashed under a name no OpenClaw rule knows (agents.md rule 1): the
        // generic rules apply to it whatever it is called.
        const hashTool = event.format === undefined ? event.tool : `${event.format}/${event.tool}`;
        const form = formOf(event); // decided once here (events.ts): an event without `form` is text
        const argsHash = links.hashing.argsHash(hashTool, event.args, form);
        const mutationTarget = links.hashing.mutationTarget?.(hashTool, event.args, form);
        const call = ++links.calls;
        // Only what the outcome hash reads of the arguments (`argsForOutcome`) is kept, not the arguments.
        const pendingCall: PendingCall = { id: event.id, tool: event.tool, args: argsForOutcome(event.args), argsHash, call };
        if (hashTool !== event.tool) (pendingCall as Mutable<PendingCall>).hashTool = hashTool;
        links.pending = withCall(links.pending, mutationTarget === undefined ? pendingCall : { ...pendingCall, mutationTarget }, MAX_PENDING_PER_RUN);
        const prepared: Mutable<CallEvent> = {
          type: "call",
          run: event.run,
          file: event.file,
          line: event.line,
          tool: event.tool,
          argsHash,
          knownPoll: event.format === undefined && isKnownPoll(event.tool, event.args),
          callId: event.id,
          call,
        };
        if (mutationTarget !== undefined) prepared.mutationTarget = mutationTarget;
        if (event.turn !== undefined) prepared.turn = event.turn;
        if (event.usage !== undefined) prepared.usage = event.usage;
        return { used: true, prepared: this.timed(withIdentity(prepared, event), event) };
      }
      case "tool_result":
        return this.result(event);
      case "turn":
        return { used: true, prepared: preparedTurn(event) };
    }
  }

  /**
   * Puts the run's start time on the first of its events whose input recorded a time: one string a
   * run, not one an event (prepared events are held for a whole sweep).
   */
  private timed<T extends { run: string; ts?: string }>(prepared: T, event: LoopEvent): T {
    if (event.ts === undefined) return prepared;
    const links = this.runs.get(event.run);
    if (links === undefined || links.timed === true) return prepared;
    const ts = eventTime(event.ts);
    if (ts === null) return prepared;
    links.timed = true;
    prepared.ts = ts;
    return prepared;
  }

  /** A run's links; its hashing is fixed when they are made (a run's first event, ideally its run_start). */
  private links(run: string, harnessVersion?: string): RunLinks {
    let links = this.runs.get(run);
    if (!links) {
      links = { calls: this.endedCalls.get(run) ?? 0, pending: undefined, hashing: this.hashingFor(harnessVersion) };
      this.endedCalls.delete(run);
      this.runs.set(run, links);
    }
    return links;
  }

  private result(event: ToolResultEvent): Disposition {
    const links = this.runs.get(event.run);
    const call = answeredCall(links?.pending, event.id, event.tool);
    if (call !== undefined && call === links!.pending) links!.pending = undefined;
    if (!call) {
      const what = event.id !== undefined ? `id ${quote(event.id)}` : `tool ${quote(event.tool ?? "?")}`;
      return { used: false, reason: `result (${what}) matches no call of run ${quote(event.run)}; not replayed` };
    }
    const outcome =
      event.error !== undefined ? ({ kind: "error", value: event.error } as const) : ({ kind: "result", value: event.result } as const);
    const hashed = links!.hashing.outcomeHash(call.hashTool ?? call.tool, call.args, outcome, formOf(event));
    const prepared: Mutable<OutcomeEvent> = {
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
        unknownTool: hashed.unknownTool ?? (outcome.kind === "error" ? event.unknownTool : undefined),
        veto: hashed.veto === true || hashed.outcomeKind === "tool-loop-veto",
    };
    // The newest generation's extra facts, set only when present (the default one never has them).
    if (call.mutationTarget !== undefined) prepared.mutationTarget = call.mutationTarget;
    if (hashed.outcomeKind !== undefined) prepared.outcomeKind = hashed.outcomeKind;
    if (hashed.failureIdentity !== undefined) prepared.failureIdentity = hashed.failureIdentity;
    if (hashed.noProgress === true) prepared.noProgress = true;
    return { used: true, prepared };
  }
}
