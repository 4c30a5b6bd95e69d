/**
 * The sessions one OpenHands input holds and their runs. The conversation is one session; a V0
 * delegate (`AgentDelegateAction`) runs a sub-agent in the same event stream until its
 * `AgentDelegateObservation`, and those events are a session of their own
 * (`<session>/delegate-<action id>`, agent `openhands/<agent type>`), so a sub-agent's loop is found
 * and attributed to it (agents.md rule 4). Runs are user turns; OpenHands has no turn id, so they
 * are named `<session>#<n>` (activity before the first user message is a run of its own).
 */
import type { LoopEvent } from "../../core/events.js";
import type { AdapterContext, EmitResult } from "../adapter.js";
import { RunSegments } from "../openclaw/runNaming.js";
import { RunDating } from "../shared/recordedTime.js";
import type { RecordPlace } from "./replay.js";

export const FORMAT = "openhands";
export const AGENT = "openhands";

export class OpenHandsSession {
  private readonly runs: RunSegments;
  /** The run of the last event emitted, until the run is over. */
  private openRun: string | undefined;
  private openRunLine = 0;
  private openRunFile = "";
  /** A run is dated by its first dated event: its user message, when it has one. */
  private readonly dating = new RunDating();
  /** Since the last compaction, nothing happened: a second marker of the same condensation is not counted again. */
  compactedLast = false;

  constructor(
    readonly id: string,
    readonly agent: string,
    /** The delegate action that started this sub-agent session (V0), undefined for the conversation. */
    readonly delegateAction: string | undefined,
    /** Runs of this session read before (an evaluation instance run again): numbering goes on. */
    runsBefore = 0,
  ) {
    this.runs = new RunSegments([], () => this.id, runsBefore);
  }

  /** An event's common fields, in the order `looplens events` writes them. */
  base(type: LoopEvent["type"], place: RecordPlace, line = place.line): Record<string, unknown> {
    const run = this.runs.current();
    const { file, time } = place;
    this.openRun = run;
    this.openRunLine = line;
    this.openRunFile = file;
    this.dating.offer(run, time);
    const ts = this.dating.stamp(run);
    return ts === undefined ? { type, run, session: this.id, agent: this.agent, file, line } : { type, run, session: this.id, agent: this.agent, ts, file, line };
  }

  /** A user turn starts the next run; the one in progress is over. */
  userTurn(context: AdapterContext, place: RecordPlace): EmitResult {
    this.endRun(context);
    this.runs.userMessage();
    this.compactedLast = false;
    return context.emit(this.base("run_start", place) as unknown as LoopEvent);
  }

  /**
   * Tells replay the run in progress is over (when asked: `closeRuns`), so that it frees the run's
   * state; not a line of its own.
   */
  endRun(context: AdapterContext): void {
    const run = this.openRun;
    this.openRun = undefined;
    if (run === undefined || !context.options.closeRuns) return;
    // Runs are numbered, never named (RunSegments without names): no later event names the run.
    context.emit({ type: "run_end", run, session: this.id, agent: this.agent, file: this.openRunFile, line: this.openRunLine, final: true });
  }
}
