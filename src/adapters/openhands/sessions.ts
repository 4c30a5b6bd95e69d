/**
 * The sessions one OpenHands input holds and their runs. The conversation is one session; a V0
 * delegate (`AgentDelegateAction`) runs a sub-agent in the same event stream until its
 * `AgentDelegateObservation`, and those events are a session of their own
 * (`<session>/delegate-<action id>`, agent `openhands/<agent type>`), so a sub-agent's loop is found
 * and attributed to it (agents.md rule 4). Runs are user turns; OpenHands has no turn id, so they
 * are named `<session>#<n>` (activity before the first user message is a run of its own).
 */
import type { Usage } from "../../core/usage.js";
import type { AdapterContext } from "../adapter.js";
import { RunSegments } from "../shared/runSegments.js";
import { RunWriter } from "../shared/runWriter.js";
import type { CallFacts, Emitted, EventPlace, ResultFacts, RunFacts } from "../shared/runFacts.js";

export const FORMAT = "openhands";
export const AGENT = "openhands";

/** Where a record came from and whether it accounts for its line (documentRecords.ts). */
export interface RecordPlace extends EventPlace {
  readonly tallies: boolean;
  /** When the event was written (its `timestamp`, as `zonelessTime` reads it): dates its run. */
  readonly time: string | undefined;
}

export class OpenHandsSession {
  private readonly runs: RunSegments;
  /** Runs are numbered, never named (RunSegments without names): no later event names an ended run. */
  private readonly writer: RunWriter;
  /** Since the last compaction, nothing happened: a second marker of the same condensation is not counted again. */
  compactedLast = false;

  constructor(
    context: AdapterContext,
    readonly id: string,
    readonly agent: string,
    /** The delegate action that started this sub-agent session (V0), undefined for the conversation. */
    readonly delegateAction: string | undefined,
    /** Runs of this session read before (an evaluation instance run again): numbering goes on. */
    runsBefore = 0,
  ) {
    this.runs = new RunSegments([], () => this.id, runsBefore);
    this.writer = new RunWriter(context, () => ({ session: id, agent }), { format: FORMAT });
  }

  /** A user turn starts the next run, dated by its time; the one in progress is over. */
  userTurn(place: RecordPlace, facts?: RunFacts): Emitted {
    this.writer.endRun();
    this.runs.userMessage();
    this.compactedLast = false;
    return this.writer.startRun(this.runs.current(), place, { time: place.time, announce: "now", ...(facts && { facts }) })!;
  }

  call(place: RecordPlace, call: CallFacts): Emitted {
    return this.writer.call(this.dated(place), place, call);
  }

  /** What an event tells of the run in progress (an evaluation's error), none before the first. */
  runFacts(facts: RunFacts): void {
    if (this.runs.started()) this.writer.facts(this.runs.current(), facts);
  }

  result(place: RecordPlace, result: ResultFacts): Emitted {
    return this.writer.result(this.dated(place), place, result);
  }

  /** A model turn's usage, after the calls it made (runWriter.ts `turn`). */
  turn(place: RecordPlace, usage: Usage): void {
    this.writer.turn(this.dated(place), place, { id: `${place.line}${place.within ?? ""}`, usage });
  }

  compaction(place: RecordPlace): Emitted {
    return this.writer.compaction(this.dated(place), place);
  }

  /** The run is over (its final end, when asked: `closeRuns`). */
  endRun(): void {
    this.writer.endRun();
  }

  /** The run in progress, which an event's time dates when nothing dated it yet (a run without a user message). */
  private dated(place: RecordPlace): string {
    const run = this.runs.current();
    this.writer.offerTime(run, place.time);
    this.writer.lineTime(run, place.time);
    return run;
  }
}
