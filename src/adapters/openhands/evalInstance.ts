/**
 * One instance of an OpenHands evaluation output (evalOutput.ts): its `history` replayed as the
 * events of one conversation, session `instance_id`, agent `openhands` (as for every OpenHands input).
 *
 * Runs: one per instance, started by the instance (its `instruction`), whatever user messages its
 * history holds. Decision: agents.md rule 4 starts a run at each real user message, and the later
 * user messages of an evaluation are not real: they are the harness's automatic replies
 * (`fake_user_response_fn`, "Please continue working on the task…") sent whenever the agent stops
 * to ask, and an agent that loops across them is one stuck attempt at one task — cutting it there
 * would reset the detectors' history at each nudge and hide the loop. So the instance is one
 * session with one run, `<instance_id>#1`; a V0 delegate in the history stays a session of its own
 * (`<instance_id>/delegate-<id>`, runs by its user messages, as in a conversation). An instance id
 * written again further down the file (outputs joined, a rerun appended) is the session's next run,
 * `#2`, so no run is reported twice under one name.
 *
 * An instance that failed before its agent acted (its `error` set, its history empty or null) is a
 * run without calls: every instance of the file is a run. Its `error` is the evaluation's outcome,
 * not a problem of the input: no diagnostic.
 *
 * Line accounting: the line is used when any of its events were (its run start is), else ignored;
 * a history entry that is bad is a diagnostic at the line naming the entry (`history[12]: …`), the
 * other entries still read. A line that is no instance (no `instance_id`, `history` neither an array
 * nor null) is skipped with a diagnostic.
 */
import { instanceFacts } from "./evalFacts.js";
import type { AdapterContext } from "../adapter.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { classifyRecord } from "./records.js";
import { eventIdOf, zonelessTime } from "./recordTypes.js";
import { OpenHandsReplay, type RecordPlace } from "./replay.js";

export interface InstanceLine {
  readonly file: string;
  readonly line: number;
}

export function readInstance(value: Record<string, unknown>, at: InstanceLine, context: AdapterContext, runsOf: Map<string, number>): void {
  const { tally } = context;
  const { file, line } = at;
  const id = eventIdOf(own(value, "instance_id"));
  if (id === undefined) return tally.skipped(file, line, 'an evaluation output line without an "instance_id"; not an instance');
  const history = own(value, "history");
  if (history !== null && !Array.isArray(history)) {
    const what = history === undefined ? 'without a "history"' : `whose "history" is ${kindOf(history)}, not an array of events`;
    return tally.skipped(file, line, `instance ${JSON.stringify(id)} ${what}`);
  }
  const events = history ?? [];
  const runsBefore = runsOf.get(id) ?? 0;
  runsOf.set(id, runsBefore + 1);

  let used = false;
  const instance: AdapterContext = {
    tally,
    unit: context.unit,
    options: context.options,
    ...(context.facts && { facts: context.facts }),
    emit(event) {
      const disposition = context.emit(event);
      if (disposition.used) used = true;
      return disposition;
    },
  };
  const replay = new OpenHandsReplay(instance, id, { kind: "one", runsBefore });
  replay.startRun({ file, line, tallies: false, time: firstTime(events) }, instanceFacts(value));
  forEachEvent(events, (event, within) => {
    const place: RecordPlace = { file, line, tallies: false, time: isPlainObject(event) ? zonelessTime(own(event, "timestamp")) : undefined, within };
    replay.record(isPlainObject(event) ? classifyRecord(event) : { kind: "bad", reason: "not a JSON object" }, place, isPlainObject(event) ? event : undefined);
  });
  replay.endAll();
  if (used) tally.used();
  else tally.ignored();
}

/**
 * Each event of a history with where it sits. Older benchmarks write the history as
 * `[action, observation]` pairs (`compatibility_for_eval_history_pairs`): their events are read in
 * pair order, which is the order they happened in.
 */
function forEachEvent(history: readonly unknown[], handle: (event: unknown, within: string) => void): void {
  for (let i = 0; i < history.length; i++) {
    const entry = history[i];
    if (!Array.isArray(entry)) {
      handle(entry, `history[${i}]`);
      continue;
    }
    for (let j = 0; j < entry.length; j++) handle(entry[j], `history[${i}][${j}]`);
  }
}

/** When the instance began: its first dated event (it dates the run). */
function firstTime(history: readonly unknown[]): string | undefined {
  for (const entry of history) {
    for (const event of Array.isArray(entry) ? entry : [entry]) {
      const time = isPlainObject(event) ? zonelessTime(own(event, "timestamp")) : undefined;
      if (time !== undefined) return time;
    }
  }
  return undefined;
}

/** What a `history` that is neither an array nor null is instead. */
function kindOf(value: unknown): string {
  return isPlainObject(value) ? "an object" : `a ${typeof value}`;
}
