/**
 * The one builder of canonical events (core/events.ts) for every adapter: a format says where a run
 * starts, which calls, results and compactions it holds and where, and the writer makes the typed
 * events, in one shape, under one set of rules. No adapter builds an event or casts one.
 *
 * The rules it keeps, the same for every format:
 * - **Run dating** (what `--since`/`--until` read): runDating.ts. Canonical events keep the `ts`
 *   they were recorded with (`recordedEvent`).
 * - **Runs without calls** are runs: every start is counted. `announce: "now"` emits the run's
 *   `run_start` at once; `"ifSilent"` (OpenClaw transcripts and Codex rollouts, whose events
 *   `looplens events` has always printed without one) only when the run ends having emitted nothing
 *   that replay used: a lone `run_start` at its start's line.
 * - **Final run ends**: when the caller asked for runs to be closed (`closeRuns`), the writer ends
 *   the open run at the next start (and where the format says its run is over: `endRun`) with
 *   `final: true`, unless the format says a later start of the file may carry the same name
 *   (`mayRecur`): replay then frees the run's state (a transcript of 100 000 runs kept ~150 MB of it
 *   to the end otherwise). Reading keeps `final` only in the last file of a unit (pipeline/reading.ts).
 *   Not a line of its own: it is placed at the run's last event.
 * - **Foreign formats**: every call carries the writer's `format` (agents.md rule 1: OpenClaw's
 *   tool-specific hashing and known polls do not apply to other agents' tools).
 * - **Line accounting** (inputs.md: read = used + ignored + skipped): every event replay refuses is
 *   a diagnostic at its place, said here; the line itself is counted once by its owner — used when
 *   replay used any of its events, else ignored (a result that matches no call is "counted as
 *   ignored, with a diagnostic", inputs.md §1). A line whose one event is handed over at once is
 *   settled from what `emit` returns; a line whose events are held back (parallel calls replayed one
 *   by one) is settled by a `LineEvents` once its last event is handed over.
 * - **Run identity** (issue 34 §4, core/runIdentity.ts): what a start says of its run (`facts`: its
 *   prompt, channel, model), what the format notes of it later (`facts`: the model that answered,
 *   how the run ended), and the first and last times offered for it (`startRun`'s `time`,
 *   `offerTime`) are gathered per run and handed on (`sink.facts`) after the run's events, when the
 *   file is through or the run is over; replay merges what several hand-overs (and files) say of it.
 * - **Turns** (spec/cost.md): one model response, its usage counted once, with the calls it made
 *   (each handed over with the turn's key); the final answer is a turn without a call. `turn`
 *   writes it after its calls. Each format's extraction is adapters/<format>/usage.ts.
 */
import type { StringForm } from "../../core/byteText.js";
import type { CompactionEvent, LoopEvent, RunEndEvent, RunStartEvent, ToolCallEvent, ToolResultEvent, TurnEvent } from "../../core/events.js";
import type { RunFacts } from "../../core/runIdentity.js";
import type { Usage } from "../../core/usage.js";
import { RunDating } from "./runDating.js";
import { RunIdentities } from "./runIdentities.js";
import { READS_USAGE, nameOf, type RunName, type Emitted, type EventPlace, type EventSink, type Outcome, type RunOwner, type RunStart, type CallFacts, type ResultFacts, type TurnFacts, type WriterPolicy } from "./runFacts.js";

const NEVER = () => false;

/**
 * One stream of runs: a file's, or (when a file holds several, such as Claude Code's sub-agents or
 * OpenHands' delegates) one session's. One run is open at a time; events may still name another
 * run explicitly (a trajectory's lines carry their run id).
 */
export class RunWriter {
  /** The run of the last event emitted, and that event's place: a final run end goes there. */
  private openRun: string | undefined;
  private openPlace: EventPlace | undefined;
  /** A run started with `announce: "ifSilent"` that replay has used nothing of yet. */
  private silent: { readonly run: RunName; readonly place: EventPlace } | undefined;
  private readonly dating = new RunDating();
  private readonly format: string | undefined;
  private readonly mayRecur: (run: string) => boolean;
  /** What was told of each run since it was last handed on (module comment: run identity); none when nothing reports it. */
  private readonly identities: RunIdentities<RunName> | undefined;

  constructor(
    private readonly sink: EventSink,
    private readonly owner: () => RunOwner,
    policy: WriterPolicy = {},
  ) {
    this.format = policy.format;
    this.mayRecur = policy.mayRecur ?? NEVER;
    this.identities = sink.facts === undefined ? undefined : new RunIdentities(sink.facts, nameOf);
  }

  /**
   * A run starts at `place`: the run open before it is over (a lone `run_start` for a silent one,
   * then its final end). Returns what replay made of the `run_start` when it was emitted now.
   * `run` may be a function when the run's name is settled only by its first event (a Codex turn
   * names the run its user message started): it is asked then, or when a silent run is announced.
   */
  startRun(run: RunName, place: EventPlace, start: RunStart): Emitted | undefined {
    this.endRun();
    this.dating.started(run, start.time);
    if (start.facts !== undefined) this.facts(run, start.facts);
    this.identities?.time(run, start.time);
    if (start.announce === "ifSilent" && start.harnessVersion === undefined) {
      this.silent = { run, place };
      return undefined;
    }
    return this.emitStart(nameOf(run), place, start.harnessVersion);
  }

  /** A line of `run` recorded `time`: it dates the run if nothing dated it yet (runDating.ts). */
  offerTime(run: string, time: string | number | undefined): void {
    this.identities?.time(run, time);
    this.dating.offer(run, time);
  }

  /** What the format learned of a run (its model, how it ended…): handed on with the rest (module comment). */
  facts(run: RunName, facts: RunFacts): void {
    this.identities?.facts(run, facts);
  }

  /** A line of the run recorded `time`: it may end the run (identity only; `offerTime` dates runs). */
  lineTime(run: RunName, time: string | number | undefined): void {
    this.identities?.time(run, time);
  }

  /**
   * Model turn `turn.id` of `run` is over (cost.md §1), after the calls it made (`CallFacts.turn`):
   * its usage, counted once. A turn that recorded none is not written, so inputs without usage give
   * the events they always gave. Not a line of its own: the caller counts the line as before.
   */
  turn(run: string, place: EventPlace, turn: TurnFacts): void {
    if (turn.usage === undefined || !READS_USAGE) return;
    if (this.silent !== undefined && nameOf(this.silent.run) === run) this.announceSilent();
    const event = this.head("turn", run, place) as Writable<TurnEvent>;
    event.turn = turn.id;
    event.usage = turn.usage;
    // Straight to replay where it takes turns so (reading.ts `Delivery.turn`): nothing to prepare.
    const sink = this.sink;
    if (sink.turn !== undefined) sink.turn(event);
    else sink.emit(event);
  }

  call(run: string, place: EventPlace, call: CallFacts): Emitted {
    const event = this.head("tool_call", run, place) as Writable<ToolCallEvent>;
    if (call.id !== undefined) event.id = call.id;
    event.tool = call.tool;
    if (this.format !== undefined) event.format = this.format;
    if (call.args !== undefined) event.args = call.args;
    if (call.form === "bytes") event.form = call.form;
    if (call.turn !== undefined) event.turn = call.turn;
    return this.emit(event, place);
  }

  result(run: string, place: EventPlace, result: ResultFacts): Emitted {
    const event = this.head("tool_result", run, place) as Writable<ToolResultEvent>;
    if (result.id !== undefined) event.id = result.id;
    if (result.tool !== undefined) event.tool = result.tool;
    const { outcome } = result;
    if ("error" in outcome) event.error = outcome.error;
    else event.result = outcome.result;
    if (result.unknownTool !== undefined) event.unknownTool = result.unknownTool;
    if (result.form === "bytes") event.form = result.form;
    return this.emit(event, place);
  }

  compaction(run: string, place: EventPlace): Emitted {
    return this.emit(this.head("compaction", run, place) as CompactionEvent, place);
  }

  /**
   * The open run is over: a silent one gets its lone `run_start`, and (under `closeRuns`, when no
   * later start can name it) its final end. Every start calls it first.
   */
  endRun(): void {
    this.endFile();
    const run = this.openRun;
    const place = this.openPlace;
    this.openRun = undefined;
    if (run === undefined || place === undefined || this.sink.options.closeRuns !== true || this.mayRecur(run)) return;
    const end = this.head("run_end", run, place) as Writable<RunEndEvent>;
    end.final = true;
    this.sink.emit(end);
    this.openRun = undefined;
  }

  /**
   * The file is read through: a silent run gets its lone `run_start`, but the run is not ended. A
   * later file of the unit may go on with it (an archive's last run, an OpenHands conversation's
   * next event file), and ending it would start its detectors over; formats whose runs end with
   * their file (Gemini CLI) call `endRun`.
   */
  endFile(): void {
    this.announceSilent();
    this.identities?.handOn();
  }

  /** A silent run's lone `run_start`, at its start's line, once. */
  private announceSilent(): void {
    const silent = this.silent;
    this.silent = undefined;
    if (silent !== undefined) this.emitStart(nameOf(silent.run), silent.place, undefined);
  }

  private emitStart(run: string, place: EventPlace, harnessVersion: string | undefined): Emitted {
    const event = this.head("run_start", run, place) as Writable<RunStartEvent>;
    if (harnessVersion !== undefined) event.harnessVersion = harnessVersion;
    return this.emit(event, place);
  }

  /**
   * An event's common fields, key by key in one order (spreading optional parts cost ~1 µs an event,
   * a tenth of the run on transcripts of small entries); the run's waiting time as `ts`, once.
   */
  private head(type: LoopEvent["type"], run: string, place: EventPlace): Writable<EventHead> {
    const { session, agent } = this.owner();
    const event: Writable<EventHead> = { type, run } as Writable<EventHead>;
    if (session !== undefined) event.session = session;
    if (agent !== undefined) event.agent = agent;
    const ts = this.dating.take(run);
    if (ts !== undefined) event.ts = ts;
    event.file = place.file;
    event.line = place.line;
    if (type !== "run_end") {
      this.openRun = run;
      this.openPlace = place;
    }
    return event;
  }

  private emit(event: LoopEvent, place: EventPlace): Emitted {
    const emitted = this.sink.emit(event);
    if (emitted.used) {
      if (this.silent !== undefined && nameOf(this.silent.run) === event.run) this.silent = undefined;
    } else {
      this.sink.tally.note({ file: place.file, line: place.line, reason: place.within === undefined ? emitted.reason : `${place.within}: ${emitted.reason}` });
    }
    return emitted;
  }
}

type EventHead = Pick<LoopEvent, "type" | "run" | "session" | "agent" | "ts" | "file" | "line">;
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A canonical event as it was recorded (events/canonicalEvents.ts): read back field by field, with
 * its own `ts`. The one other way an event is made; `fields` is what the line validated.
 */
export function recordedEvent(fields: RecordedFields): LoopEvent {
  const { type, file, line, run } = fields;
  const event: Writable<EventHead> & Record<string, unknown> = { type, file, line, run } as Writable<EventHead> & Record<string, unknown>;
  if (fields.session !== undefined) event.session = fields.session;
  if (fields.agent !== undefined) event.agent = fields.agent;
  if (fields.ts !== undefined) event.ts = fields.ts;
  switch (fields.type) {
    case "tool_call":
      if (fields.id !== undefined) event.id = fields.id;
      event.tool = fields.tool;
      if (fields.format !== undefined) event.format = fields.format;
      if (fields.args !== undefined) event.args = fields.args;
      if (fields.form === "bytes") event.form = fields.form;
      if (fields.turn !== undefined) event.turn = fields.turn;
      if (fields.usage !== undefined) event.usage = fields.usage;
      break;
    case "turn":
      event.turn = fields.turn;
      if (fields.usage !== undefined) event.usage = fields.usage;
      break;
    case "tool_result":
      if (fields.id !== undefined) event.id = fields.id;
      if (fields.tool !== undefined) event.tool = fields.tool;
      if (fields.outcome !== undefined) {
        if ("error" in fields.outcome) event.error = fields.outcome.error;
        else event.result = fields.outcome.result;
      }
      if (fields.unknownTool !== undefined) event.unknownTool = fields.unknownTool;
      if (fields.form === "bytes") event.form = fields.form;
      break;
    case "run_start":
      if (fields.harnessVersion !== undefined) event.harnessVersion = fields.harnessVersion;
      break;
    default:
      break;
  }
  return event as unknown as LoopEvent;
}

interface RecordedHead {
  readonly file: string;
  readonly line: number;
  readonly run: string;
  readonly session: string | undefined;
  readonly agent: string | undefined;
  readonly ts: string | number | undefined;
}

export type RecordedFields =
  | (RecordedHead & { readonly type: "run_start"; readonly harnessVersion: string | undefined })
  | (RecordedHead & { readonly type: "run_end" | "compaction" })
  | (RecordedHead & {
      readonly type: "tool_call";
      readonly id: string | undefined;
      readonly tool: string;
      readonly format: string | undefined;
      readonly args: unknown;
      readonly form: StringForm;
      readonly turn: string | undefined;
      readonly usage: Usage | undefined;
    })
  | (RecordedHead & { readonly type: "turn"; readonly turn: string; readonly usage: Usage | undefined })
  | (RecordedHead & {
      readonly type: "tool_result";
      readonly id: string | undefined;
      readonly tool: string | undefined;
      /** Absent: no result (which has no hash and is never recorded). */
      readonly outcome: Outcome | undefined;
      readonly unknownTool: string | undefined;
      readonly form: StringForm;
    });

/**
 * A recorded run end marked final (canonical events whose runs are known to be over: the reader
 * checks as it goes, events/canonicalEvents.ts): set on the event itself, whose object is new from
 * its line, since a spread adding a key is V8's slow copy.
 */
export function finalEnd(event: RunEndEvent): RunEndEvent {
  (event as Writable<RunEndEvent>).final = true;
  return event;
}
