/**
 * looplens' own event format (spec: inputs.md §1), one JSON object per line. Also what
 * `looplens events` prints, so users can hand-edit what the detectors see.
 *
 * Run ids: `run` is required on every event, except that a file with no `run` at all is one run named
 * after the file. Decided before reading, from the file's first RUN_SCAN_LINES lines: if any event
 * there has a run id, a run-less event is a bad line; otherwise run-less events belong to the file's
 * run. (Deciding on the first event alone let one bad first line re-label the whole file.)
 *
 * Run ends: a `run_end` ends its run, but a later event of the same run may open it again, so replay
 * held every run of a file to its end (300,000 short runs in a 130 MB file: 207 MB peak RSS). When
 * the caller can start the file over (`canReadAgain`) and asks for runs to be closed (`closeRuns`),
 * each run_end is marked final, which lets replay hand the run out at once (`RunEnds`); should an
 * event of a run so ended come later, the file is read again without the marks. The same happens
 * at a live event once a run end was marked (live events cannot be undone: none is emitted before).
 */
import { LOOP_EVENT_TYPES, type LoopEvent, type LoopEventType } from "../../core/events.js";
import { LIVE_EVENT_TYPES, isLiveEvent, type LiveEvent } from "../../core/liveEvents.js";
import { idText as sharedIdText } from "../shared/ids.js";
import { textOf, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { isBlank, MAX_SAMPLE_LINE, parseJsonLine, ReadAgain, type AdapterContext, type InputAdapter } from "../adapter.js";
import { IdSet } from "../shared/keySets.js";
import { finalEnd, recordedEvent } from "../shared/runWriter.js";
import { parseObjectBytes } from "../io/jsonBytes.js";
import { TOO_LONG_LINE, type LineProblem, type LineSource } from "../io/lineSource.js";
import { decodeLine, tooLongProblem } from "../io/decoding.js";
import { toLiveEvent } from "./liveEventsJson.js";
import { runNameForFile } from "../shared/fileRunName.js";
import { callUsage } from "./usage.js";


const EVENT_TYPES = new Set<string>([...LOOP_EVENT_TYPES, ...LIVE_EVENT_TYPES]);

/** Canonical events trim their ids (shared/ids.ts). */
const idText = (value: unknown, form: StringForm) => sharedIdText(value, form, "trim");

function optionalString(value: unknown, form: StringForm): string | undefined {
  return typeof value === "string" && value !== "" ? textOf(form, value) : undefined;
}

type Parsed = { ok: true; event: LoopEvent | LiveEvent; notice?: string } | { ok: false; reason: string };

/**
 * Where an event came from: the `file` and `line` it carries (what `looplens events` writes for any
 * input), so that a printed stream analyses with the findings at the original transcript's lines;
 * else this line of this file. A location is a pair: one without the other is not used.
 */
export function recordedOrigin(value: Record<string, unknown>, file: string, line: number, form: StringForm): { file: string; line: number; notice?: string } {
  const recordedFile = own(value, "file");
  const recordedLine = own(value, "line");
  if (recordedFile === undefined && recordedLine === undefined) return { file, line };
  if (typeof recordedFile === "string" && recordedFile !== "" && typeof recordedLine === "number" && Number.isSafeInteger(recordedLine) && recordedLine > 0) {
    return { file: textOf(form, recordedFile), line: recordedLine };
  }
  return { file, line, notice: '"file"/"line" is not a location (a file name and a line number ≥ 1); this line is the location' };
}

/**
 * Validates one parsed line into an event; `run` is resolved by the caller's file-level rule.
 * `form`: the form of the line's strings (jsonBytes.ts); `args`, `result` and `error` keep it, the
 * rest becomes text. Live events must be given as text.
 */
export function toEvent(value: unknown, file: string, line: number, fallbackRun: string | undefined, form: StringForm): Parsed {
  if (!isPlainObject(value)) return { ok: false, reason: "not a JSON object" };
  const rawType = own(value, "type");
  if (typeof rawType !== "string") return { ok: false, reason: rawType === undefined ? 'missing "type"' : '"type" is not a string' };
  const type = textOf(form, rawType);
  if (!EVENT_TYPES.has(type)) return { ok: false, reason: `unknown event type ${quote(type)}` };
  const origin = recordedOrigin(value, file, line, form);
  const parsed =
    type === "live_marker" || type === "live_finding"
      ? toLiveEvent(value, type, origin.file, origin.line)
      : toLoopEvent(value, type as LoopEventType, origin.file, origin.line, fallbackRun, form);
  return origin.notice !== undefined && parsed.ok ? { ...parsed, notice: origin.notice } : parsed;
}

/** A replayed event (not a live one) at its origin. */
function toLoopEvent(value: Record<string, unknown>, type: LoopEventType, file: string, line: number, fallbackRun: string | undefined, form: StringForm): Parsed {
  const rawRun = own(value, "run");
  const run = idText(rawRun, form) ?? fallbackRun;
  if (run === undefined) return { ok: false, reason: rawRun === undefined ? 'missing "run"' : '"run" is not a non-blank string' };

  const rawTs = own(value, "ts");
  const ts = typeof rawTs === "string" ? textOf(form, rawTs) : typeof rawTs === "number" ? rawTs : undefined;
  const session = optionalString(own(value, "session"), form);
  const agent = optionalString(own(value, "agent"), form);
  // No spreads: this runs once per line, and a spread into a literal is V8's slow copy (~1 µs an event).
  const id = idText(own(value, "id"), form);
  switch (type) {
    case "tool_call": {
      const rawTool = own(value, "tool");
      if (rawTool === undefined) return { ok: false, reason: 'tool_call without a "tool" name' };
      if (typeof rawTool !== "string" || rawTool === "") return { ok: false, reason: '"tool" is not a non-empty string' };
      // Another agent's call (agents.md): its tools are hashed by the generic rules.
      const format = optionalString(own(value, "format"), form);
      // A bad `usage` or `turn` leaves a call without usage, said in a notice: the call is still a call.
      const turn = callUsage(value, form);
      const { usage, turn: key } = turn.ok ? turn : { usage: undefined, turn: undefined };
      const event = recordedEvent({ type, file, line, run, session, agent, ts, id, tool: textOf(form, rawTool), format, args: own(value, "args"), form, turn: key, usage });
      const notice = turn.ok ? turn.notice : `${turn.reason}; the call is replayed without usage`;
      return notice === undefined ? { ok: true, event } : { ok: true, event, notice };
    }
    case "turn": {
      // What `looplens events` writes for a model turn (cost.md §1): its key and usage, after its calls.
      const turn = callUsage(value, form);
      if (!turn.ok) return { ok: false, reason: turn.reason };
      if (turn.turn === undefined) return { ok: false, reason: 'turn without a "turn" id' };
      const event = recordedEvent({ type, file, line, run, session, agent, ts, turn: turn.turn, usage: turn.usage });
      return turn.notice === undefined ? { ok: true, event } : { ok: true, event, notice: turn.notice };
    }
    case "tool_result": {
      const rawTool = own(value, "tool");
      if (rawTool !== undefined && (typeof rawTool !== "string" || rawTool === "")) return { ok: false, reason: '"tool" is not a tool name' };
      const tool = rawTool === undefined ? undefined : textOf(form, rawTool);
      if (id === undefined && tool === undefined) return { ok: false, reason: 'tool_result with neither "id" nor "tool"' };
      const result = own(value, "result");
      const outcome = Object.prototype.hasOwnProperty.call(value, "error") ? { error: own(value, "error") ?? null } : result !== undefined ? { result } : undefined;
      return { ok: true, event: recordedEvent({ type, file, line, run, session, agent, ts, id, tool, outcome, unknownTool: optionalString(own(value, "unknownTool"), form), form }) };
    }
    case "run_start": {
      // The OpenClaw build a run was recorded by (`looplens events` of a trajectory), for --profile auto.
      const version = own(value, "harnessVersion");
      const harnessVersion = typeof version === "string" && version.trim() !== "" ? textOf(form, version) : undefined;
      return { ok: true, event: recordedEvent({ type, file, line, run, session, agent, ts, harnessVersion }) };
    }
    case "run_end":
    case "compaction":
      return { ok: true, event: recordedEvent({ type, file, line, run, session, agent, ts }) };
  }
}

/** How far into a file to look for a run id before treating the file as one run. */
const RUN_SCAN_LINES = 1000;

/** True when an event among the file's first lines carries a run id (stops at the first one). */
async function hasRunIds(source: LineSource): Promise<boolean> {
  let found = false;
  await source.forEachLine(
    (text, line, _terminated, problem) => {
      if (problem?.tooLong === undefined && !isBlank(text) && text.length <= MAX_SAMPLE_LINE) {
        const parsed = parseJsonLine(text, true);
        const value = parsed.ok ? parsed.value : undefined;
        found = isPlainObject(value) && EVENT_TYPES.has(own(value, "type") as string) && idText(own(value, "run"), "text") !== undefined;
      }
      return !found && line < RUN_SCAN_LINES;
    },
    { maxLineBytes: MAX_SAMPLE_LINE },
  );
  return found;
}

export const canonicalEventsAdapter: InputAdapter = {
  format: "events",

  sniff(samples) {
    const first = samples.find(isPlainObject);
    return first !== undefined && typeof own(first, "type") === "string" && EVENT_TYPES.has(own(first, "type") as string);
  },

  async read(source: LineSource, context: AdapterContext) {
    const { options } = context;
    const fileRun = (await hasRunIds(source)) ? undefined : runNameForFile(source.file);
    const state = new EventFileState(source.file, fileRun, new RunEnds(source.file, options.canReadAgain === true && options.closeRuns === true));
    await readEventLines(source, context, state);
    context.onReadThrough?.(state, state.lastLine);
  },

  async resume(source: LineSource, context: AdapterContext, state: object) {
    if (!(state instanceof EventFileState)) throw new ReadAgain(source.file, "no state of an event file to resume from");
    // Whether the file's events name runs was settled by its first RUN_SCAN_LINES lines: an appended
    // line among those may name one (then the whole file is read again, as one run no more).
    if (state.fileRun !== undefined && state.lastLine < RUN_SCAN_LINES) throw new ReadAgain(source.file, "the lines that tell whether events name runs grew");
    await readEventLines(source, context, state);
    context.onReadThrough?.(state, state.lastLine);
  },

  get stateClasses() {
    // A getter: the classes are declared below this object.
    return { EventFileState, RunEnds };
  },
};

/** What reading an event file carries from line to line: all a resumed read needs (pipeline/cache/resumeUnit.ts). */
export class EventFileState {
  /** The number of the last line read. */
  lastLine = 0;

  constructor(
    readonly file: string,
    /** The run of a file whose events name none (its first RUN_SCAN_LINES lines decide). */
    readonly fileRun: string | undefined,
    readonly runEnds: RunEnds,
  ) {}
}

/** Reads the source's lines into events, going on from `state` (its run ends taken as final). */
async function readEventLines(source: LineSource, { tally, emit, options }: AdapterContext, state: EventFileState): Promise<void> {
  const { file, fileRun, runEnds } = state;
  const event = (value: unknown, form: StringForm, line: number, notice: string | undefined) => {
    const result = toEvent(value, file, line, fileRun, form);
    if (!result.ok) return tally.skipped(file, line, result.reason);
    // Before anything of the line is counted: a ReadAgain voids the file's tally.
    const toEmit = runEnds.marked(result.event);
    if (notice !== undefined) tally.note({ file, line, reason: notice });
    if (result.notice !== undefined) tally.note({ file, line, reason: result.notice });
    const emitted = emit(toEmit);
    if (emitted.used) tally.used();
    else tally.ignored(file, line, emitted.reason);
  };
  const textLine = (text: string, line: number, terminated: boolean, problem?: LineProblem) => {
    state.lastLine = line;
    if (isBlank(text)) return tally.ignored();
    const parsed = parseJsonLine(text, terminated, problem);
    if (!parsed.ok) return tally.skipped(file, line, parsed.reason);
    event(parsed.value, "text", line, parsed.notice);
  };
  if (!options.bytePayloads || !source.forEachRawLine) return source.forEachLine(textLine);
  // Arguments and results may stay byte strings (jsonBytes.ts). Anything but an object, and live
  // events (whose text is shown), go the text way.
  await source.forEachRawLine((bytes, start, end, line, terminated, tooLong) => {
    const object = parseObjectBytes(bytes, start, end, terminated, tooLong);
    if (object.kind === "object" && !(object.form === "bytes" && LIVE_TYPES.has(own(object.value, "type") as string))) {
      state.lastLine = line;
      return event(object.value, object.form, line, object.notice);
    }
    const { text, problem } = tooLong !== undefined ? { text: TOO_LONG_LINE, problem: tooLongProblem(tooLong, bytes, start, end) } : decodeLine(bytes, start, end);
    textLine(text, line, terminated, problem);
  });
}

const LIVE_TYPES: ReadonlySet<string> = new Set(LIVE_EVENT_TYPES);

/**
 * Marks run ends final where that is safe (see the module comment): the runs ended so far are kept
 * as 53-bit keys (~12 B a run); a key shared by two run ids only has the file read again.
 */
export class RunEnds {
  private readonly ended = new IdSet();

  constructor(
    private readonly file: string,
    private marking: boolean,
  ) {}

  /** The event to emit: a run end marked final while marking; throws ReadAgain for an event of a run ended so. */
  marked(event: LoopEvent | LiveEvent): LoopEvent | LiveEvent {
    if (isLiveEvent(event)) {
      if (this.ended.size > 0) throw new ReadAgain(this.file, "a live event after run ends taken as final");
      this.marking = false;
      return event;
    }
    if (this.ended.size > 0 && this.ended.has(event.run)) throw new ReadAgain(this.file, `run ${quote(event.run)} goes on after its run_end`);
    if (event.type !== "run_end" || !this.marking) return event;
    this.ended.add(event.run);
    return finalEnd(event);
  }
}
