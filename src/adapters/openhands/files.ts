/**
 * Where OpenHands keeps its events, and how a folder scan should group them (for the lead to wire
 * into inputs.ts; nothing here reads the disk):
 * - V0: `~/.openhands/sessions/<sid>/events/<id>.json`, one event per file (file_store_path,
 *   default `~/.openhands`); a trajectory is one JSON array file at `save_trajectory_path`.
 * - V1 SDK: `<persistence_base>/<conversation_id>/events/event-<idx:05d>-<uuid>.json`, one event per
 *   file; streams are also written one event per line (`.jsonl`).
 * The files of one `events/` folder are one conversation: they are one input unit, read in event
 * order (V0 ids are numbers, so `10.json` comes after `9.json`), and the adapter keeps its state
 * across them (a parallel group or a delegate may span files).
 */
import { homedir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { runNameForFile } from "../shared/fileRunName.js";

/** One event file of an events folder: V0 `<id>.json`, V1 `event-<idx>-<uuid>.json`. */
export const OPENHANDS_EVENT_FILE = /(^|[\\/])events[\\/](\d+|event-\d+-[0-9a-f-]+)\.json$/i;

/** Files a folder scan should pick up for OpenHands besides `*.jsonl`: event files, and trajectories (`*.json`, sniffed). */
export const OPENHANDS_INPUT_FILE = /\.json$/i;

/** The default locations (agents.md rule 8): V0's file store; V1 conversations under the same home by default. */
export function openhandsDefaultLocations(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.OPENHANDS_HOME ?? join(homedir(), ".openhands");
  return [join(home, "sessions"), join(home, "conversations")];
}

/** The event index of an events-folder file (for ordering), or undefined for any other file. */
export function eventIndex(file: string): number | undefined {
  const match = OPENHANDS_EVENT_FILE.exec(file);
  if (!match) return undefined;
  const name = match[2]!;
  return Number(name.startsWith("event-") ? name.split("-")[1] : name);
}

/**
 * Groups the event files of each `events/` folder into one unit in event order; every other file
 * stays a unit of its own, in the order given (the first event file of a folder holds its place).
 */
export function groupOpenHandsFiles(files: readonly string[]): string[][] {
  const units: string[][] = [];
  const folders = new Map<string, string[]>();
  for (const file of files) {
    if (eventIndex(file) === undefined) {
      units.push([file]);
      continue;
    }
    const folder = dirname(file);
    let unit = folders.get(folder);
    if (!unit) {
      unit = [];
      folders.set(folder, unit);
      units.push(unit);
    }
    unit.push(file);
  }
  for (const unit of folders.values()) unit.sort((a, b) => eventIndex(a)! - eventIndex(b)! || (a < b ? -1 : a > b ? 1 : 0));
  return units;
}

/**
 * The session id: the folder above `events/` (V0 `<sid>`, V1 `<conversation_id>`), else the file's
 * base name without its extensions (a trajectory or a `.jsonl` stream).
 */
export function sessionIdOf(file: string): string {
  if (eventIndex(file) !== undefined) {
    const conversation = basename(dirname(dirname(file)));
    if (conversation !== "" && conversation !== "." && conversation !== sep) return conversation;
  }
  return runNameForFile(file);
}
