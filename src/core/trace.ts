/**
 * Tracing replay for `looplens explain`: the same replay as analysis (it is a `Replayer`), plus, for
 * the findings at a chosen place, the window of calls the detector counted — the run's history
 * records just before the judged call, or the post-compaction guard's window at the abort — each
 * record tied back to the call (and input line) that made it. Which of those rows the detector's
 * count took is decided by windowCounts.ts.
 *
 * Analysis never uses this class, so tracing costs nothing when not explaining.
 */
import type { ReplayedFinding } from "./findings.js";
import type { CallRecord } from "./history.js";
import type { PreparedEvent } from "./prepare.js";
import type { NewestRecord } from "./profiles/newest/history.js";
import type { ProfileName } from "./profiles/profile.js";
import { Replayer, type ReplayOptions } from "./replay.js";

/** One call of a window, as the detector saw it. */
export interface TraceRow {
  /** The call's number in its run (for an outcome that made its own record: the call it answers). */
  readonly call: number;
  /** The input line of the call (history records) or of its result (guard window). */
  readonly file: string;
  readonly line: number;
  readonly tool: string;
  readonly argsHash: string;
  /** Absent: no outcome yet (pending), or a veto (newest: `outcomeKind` says). */
  readonly resultHash?: string;
  readonly unknownTool?: string;
  /** Newest generation's outcome facts (absent under the default one). */
  readonly outcomeKind?: string;
  readonly noProgress?: boolean;
  readonly failureIdentity?: string;
  readonly mutationTarget?: string;
}

/** The call being judged: the incoming call of a verdict (not yet in the history it is judged on). */
export interface TraceProbe {
  readonly call: number;
  readonly file: string;
  readonly line: number;
  readonly tool: string;
  readonly argsHash: string;
  readonly knownPoll: boolean;
  readonly mutationTarget?: string;
}

export type TracedFinding =
  | {
      readonly kind: "history";
      readonly finding: ReplayedFinding;
      readonly profile: ProfileName;
      readonly historySize: number;
      /** The run's records, oldest first, as the verdict read them. */
      readonly rows: readonly TraceRow[];
      readonly probe: TraceProbe;
    }
  | {
      readonly kind: "guard";
      readonly finding: ReplayedFinding;
      readonly profile: ProfileName;
      /** The outcomes the armed window held, oldest first, the aborting one last. */
      readonly rows: readonly TraceRow[];
    };

/** Which findings to trace: those made by the events this accepts (a place in the input, or a run's call). */
export type TraceTarget = (event: PreparedEvent) => boolean;

type CallEvent = Extract<PreparedEvent, { type: "call" }>;
type OutcomeEvent = Extract<PreparedEvent, { type: "outcome" }>;
type AnyRecord = CallRecord | NewestRecord;
interface Origin {
  readonly call: number;
  readonly file: string;
  readonly line: number;
}

export class TracingReplayer extends Replayer {
  /** The event each history record was made by (records are objects the engines own). */
  private readonly origins = new WeakMap<object, Origin>();
  /** Per run, the outcome events behind the armed guard's entries, in order. */
  private readonly guardEvents = new Map<string, OutcomeEvent[]>();
  private readonly traced: TracedFinding[] = [];

  constructor(
    configFor: ConstructorParameters<typeof Replayer>[0],
    profileFor: ConstructorParameters<typeof Replayer>[1],
    private readonly target: TraceTarget,
    options: ReplayOptions = {},
  ) {
    // A settled run is over: what was followed of its guard goes with it.
    const onSettled = options.onSettled;
    super(configFor, profileFor, onSettled ? { ...options, onSettled: (run) => (this.guardEvents.delete(run.run), onSettled(run)) } : options);
  }

  /** The findings traced so far, in input order. */
  get findings(): readonly TracedFinding[] {
    return this.traced;
  }

  override push(event: PreparedEvent): void {
    const wanted = (event.type === "call" || event.type === "outcome") && this.target(event);
    const before = wanted ? this.peek(event.run) : undefined;
    const records = before?.view?.records.slice() ?? [];
    const guard = wanted ? [...(this.guardEvents.get(event.run) ?? [])] : [];
    const found = before?.findings.length ?? 0;
    super.push(event);
    if (event.type !== "call" && event.type !== "outcome") return this.followGuard(event.run, undefined);
    const after = this.peek(event.run);
    this.noteNewRecord(after?.view?.records, event);
    this.followGuard(event.run, event);
    if (!wanted || !after) return;
    for (const finding of after.findings.slice(found)) {
      if (finding.detector === "compaction_loop_persisted" && event.type === "outcome") {
        this.traced.push({ kind: "guard", finding, profile: after.profile, rows: [...guard, event].map(guardRow) });
      } else if (event.type === "call") {
        const historySize = after.view?.historySize ?? records.length;
        this.traced.push({ kind: "history", finding, profile: after.profile, historySize, rows: records.map((r) => this.row(r)), probe: probeOf(event) });
      }
    }
  }

  /** A record the event just added (a call recorded, or an outcome no record took) is the newest of its run. */
  private noteNewRecord(records: readonly AnyRecord[] | undefined, event: CallEvent | OutcomeEvent): void {
    const newest = records?.[records.length - 1];
    if (newest !== undefined && !this.origins.has(newest)) this.origins.set(newest, { call: event.call, file: event.file, line: event.line });
  }

  /** Keeps the guard's entries tied to the outcomes that made them: it gains one per observed outcome. */
  private followGuard(run: string, event: CallEvent | OutcomeEvent | undefined): void {
    const entries = this.peek(run)?.view?.guard;
    const events = this.guardEvents.get(run) ?? [];
    if (entries === undefined || entries.length === 0) {
      if (events.length > 0) this.guardEvents.delete(run);
      return;
    }
    if (event?.type === "outcome" && entries.length === events.length + 1) {
      events.push(event);
      this.guardEvents.set(run, events);
    }
  }

  private row(record: AnyRecord): TraceRow {
    const origin = this.origins.get(record);
    const row: { -readonly [K in keyof TraceRow]: TraceRow[K] } = {
      call: origin?.call ?? 0,
      file: origin?.file ?? "",
      line: origin?.line ?? 0,
      tool: record.tool,
      argsHash: record.argsHash,
    };
    if (record.resultHash !== undefined) row.resultHash = record.resultHash;
    if (record.unknownTool !== undefined) row.unknownTool = record.unknownTool;
    if ("outcomeKind" in record && record.outcomeKind !== undefined) row.outcomeKind = record.outcomeKind;
    if ("noProgress" in record && record.noProgress === true) row.noProgress = true;
    if ("failureIdentity" in record && record.failureIdentity !== undefined) row.failureIdentity = record.failureIdentity;
    if ("mutationTarget" in record && record.mutationTarget !== undefined) row.mutationTarget = record.mutationTarget;
    return row;
  }
}

function probeOf(event: CallEvent): TraceProbe {
  const probe = { call: event.call, file: event.file, line: event.line, tool: event.tool, argsHash: event.argsHash, knownPoll: event.knownPoll };
  return event.mutationTarget !== undefined ? { ...probe, mutationTarget: event.mutationTarget } : probe;
}

function guardRow(event: OutcomeEvent): TraceRow {
  const row = { call: event.call, file: event.file, line: event.line, tool: event.tool, argsHash: event.argsHash };
  return event.resultHash !== undefined ? { ...row, resultHash: event.resultHash } : row;
}
