/**
 * The OpenHands adapter (agents.md A4): V0 trajectories (a JSON array), V0 event folders (one
 * event per `.json` file), V1 SDK event folders and one-event-per-line streams, under one format
 * name, `openhands`: each record says which version wrote it (records.ts), and the mapping to
 * canonical events is the same (calls with `format: "openhands"`, results by call id, runs by user
 * turn, condensations as compactions). An evaluation's `output.jsonl` (one task instance per line,
 * its history these events) is a format of its own, `openhands-eval` (evalOutput.ts), which reuses
 * the same replay.
 */
import { dirname, join } from "node:path";
import type { AdapterContext, InputAdapter, UnitHistory } from "../adapter.js";
import type { LineSource } from "../io/lineSource.js";
import { forEachRecord } from "./documentRecords.js";
import { eventIndex, groupOpenHandsFiles, OPENHANDS_EVENT_FILE, openhandsDefaultLocations, sessionIdOf } from "./files.js";
import { own } from "../../core/plainObject.js";
import { classifyRecord } from "./records.js";
import { zonelessTime } from "./recordTypes.js";
import { OpenHandsReplay, type RecordPlace } from "./replay.js";
import { sniffOpenHands } from "./sniff.js";

export { groupOpenHandsFiles, OPENHANDS_EVENT_FILE, OPENHANDS_INPUT_FILE, openhandsDefaultLocations } from "./files.js";
export { UNKNOWN_TOOL_MESSAGES, VOLATILE_FIELDS } from "./outcome.js";

/** One replay per input unit: the files of an events folder are one conversation. */
const replays = new WeakMap<UnitHistory, OpenHandsReplay>();

function replayFor(context: AdapterContext, file: string): OpenHandsReplay {
  let replay = replays.get(context.unit);
  if (!replay) {
    replay = new OpenHandsReplay(context, sessionIdOf(file));
    replays.set(context.unit, replay);
  }
  return replay;
}

/** Whether this file ends its unit (a unit given as one file, or the last event file of a folder). */
function endsUnit(unit: UnitHistory, file: string): boolean {
  return unit.files.length === 0 || unit.files[unit.files.length - 1] === file || !unit.files.includes(file);
}

export const openhandsAdapter: InputAdapter = {
  format: "openhands",
  agent: {
    kind: "openhands",
    // A blank $OPENHANDS_HOME is unset; the home folder is $HOME's, as for every other agent.
    homes: (env, home) => openhandsDefaultLocations({ ...env, OPENHANDS_HOME: env.OPENHANDS_HOME?.trim() || join(home, ".openhands") }),
  },
  files: {
    // A conversation's `events/<n>.json`: one event a file, the conversation one input.
    scan: (_name, path) => OPENHANDS_EVENT_FILE.test(path),
    fragments: { claims: (file) => eventIndex(file) !== undefined, units: groupOpenHandsFiles, name: (unit) => dirname(unit[0]!) },
  },

  sniff(samples) {
    return sniffOpenHands(samples);
  },

  async read(source: LineSource, context: AdapterContext) {
    const file = source.file;
    const replay = replayFor(context, file);
    await forEachRecord(source, context.tally, (record) => {
      const time = record.kind === "bad" ? undefined : zonelessTime(own(record.value, "timestamp"));
      const place: RecordPlace = { file, line: record.line, tallies: record.tallies, time };
      replay.record(record.kind === "bad" ? { kind: "bad", reason: record.reason } : classifyRecord(record.value), place, record.kind === "bad" ? undefined : record.value);
    });
    if (endsUnit(context.unit, file)) {
      replay.end();
      replays.delete(context.unit);
    }
  },
};
