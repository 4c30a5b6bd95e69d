/**
 * From the paths a user typed to input units: folders are walked recursively (`*.jsonl`, `*.ndjson`,
 * `*.log`, OpenClaw's session archives and stores, other agents' `.json` layouts, and their
 * compressed forms, in sorted order), `-` is standard input, a SQLite store stands for one input per
 * session, and the files read as one history are grouped into one unit (an OpenClaw session's files:
 * openclaw/sessionFiles.ts; an OpenHands conversation's event files).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { InputContainer } from "./adapter.js";
import { describeReadError, fileSource, type FileSourceOptions } from "./io/sources.js";
import { stdinSource } from "./io/stdinSource.js";
import { InputError, type LineSource } from "./io/lineSource.js";
import { INPUT_FILES } from "./registry.js";
import { forkFamilies, forkTagsOf, seekParents, type ForkTag } from "./shared/forkFamilies.js";
import type { ForkTagger } from "./shared/forkHeads.js";

export { InputError };

const INPUT_FILE = /\.(jsonl|ndjson|log)(\.(gz|zst))?$/i;

/**
 * Files of a folder scan: inputs by extension, and what a format's descriptor adds (`InputFiles.scan`:
 * OpenClaw's session archives and transcript stores, the `.json` files other agents keep
 * transcripts in: Gemini CLI's legacy `chats/session-*.json`, OpenHands' `events/<n>.json`). Other
 * `.json` files are not scanned (configs, `sessions.json`, `.meta.json` side files): a JSON document
 * of another kind, such as an OpenHands trajectory array, is read when named. (`looplens watch` asks
 * it which changed files matter.)
 */
const SCANS = INPUT_FILES.flatMap((files) => (files.scan ? [files.scan] : []));
export const isInputFile = (name: string, path: string) => INPUT_FILE.test(name) || SCANS.some((scan) => scan(name, path));

const COMPANIONS = INPUT_FILES.flatMap((files) => (files.companions ? [files.companions] : []));

/**
 * The files a folder scan would read in one unit with `file` (adapter.ts `InputFiles.companions`):
 * the first format that knows any answers; none when no format ties the file to others.
 */
export async function companionsOf(file: string): Promise<string[]> {
  for (const companions of COMPANIONS) {
    const found = await companions(file);
    if (found.length > 0) return found;
  }
  return [];
}

/** Files that stand for several inputs (a SQLite transcript store), as the descriptors say. */
const CONTAINERS: readonly InputContainer[] = INPUT_FILES.flatMap((files) => (files.container ? [files.container] : []));

/** Whether a folder scan opens this file as a store (by its name: the folder's other inputs are line files). */
export const namedAsStore = (file: string) => CONTAINERS.some((container) => container.named(file));

async function containerOf(path: string): Promise<InputContainer | undefined> {
  for (const container of CONTAINERS) if (await container.is(path)) return container;
  return undefined;
}

/** The descriptors' fragment rules: files that are parts of one input (an OpenHands events folder). */
const FRAGMENTS = INPUT_FILES.flatMap((files) => (files.fragments ? [files.fragments] : []));

/** The fragment rule that claims a file, if one does. */
export function fragmentsOf(file: string): NonNullable<(typeof FRAGMENTS)[number]> | undefined {
  return FRAGMENTS.find((fragments) => fragments.claims(file));
}

/** The files that are fragments, grouped into units each rule's way, with the unit's name; the others (`rest`). */
export function fragmentUnits(files: readonly string[]): { units: Array<{ name: string; files: string[] }>; rest: string[] } {
  const units = FRAGMENTS.flatMap((fragments) => fragments.units(files.filter((file) => fragmentsOf(file) === fragments)).map((unit) => ({ name: fragments.name(unit), files: unit })));
  return { units, rest: files.filter((file) => fragmentsOf(file) === undefined) };
}

/** How each format groups its files of one session that are read as one history (OpenClaw's). */
const LIVES = INPUT_FILES.flatMap((files) => (files.lives ? [files.lives] : []));

function groupLives(files: readonly string[]): string[][] {
  // One format today; with more, each would take the files the one before left as units of their own.
  let units: string[][] = files.map((file) => [file]);
  for (const lives of LIVES) {
    const singles = units.filter((unit) => unit.length === 1).map((unit) => unit[0]!);
    const grouped = new Set(singles);
    units = [...units.filter((unit) => unit.length !== 1 || !grouped.has(unit[0]!)), ...lives(singles)];
  }
  return units;
}

/** Files read one after another as one history: one OpenClaw session's files, or a single file. */
export type InputUnit = readonly string[];

/** A bare word that names no file was probably meant as a subcommand. */
function describeMissingPath(path: string, error: unknown): string {
  const message = describeReadError(path, error);
  const isBareWord = /^[a-z][a-z0-9-]*$/i.test(path) && (error as NodeJS.ErrnoException)?.code === "ENOENT";
  return isBareWord ? `${message} (and it is not a command: see looplens --help)` : message;
}

async function walk(dir: string, into: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, into);
    else if (entry.isFile() && isInputFile(entry.name, path)) into.push(path);
  }
}

/**
 * A SQLite transcript store stands for one input per session, `<db>#<sessionId>` (what the report
 * names as its file); any other file stands for itself.
 */
async function pushInput(path: string, into: string[], expandStores: boolean): Promise<void> {
  const container = expandStores ? await containerOf(path) : undefined;
  if (container === undefined) return void into.push(path);
  for (const member of await container.members(path)) into.push(`${path}#${member}`);
}

/** `<db>#<sessionId>` of a store session, split; undefined for any other path. */
async function storeRef(path: string): Promise<{ db: string; session: string; container: InputContainer } | undefined> {
  for (let hash = path.lastIndexOf("#"); hash > 0; hash = path.lastIndexOf("#", hash - 1)) {
    const db = path.slice(0, hash);
    const container = await containerOf(db);
    if (container !== undefined) return { db, session: path.slice(hash + 1), container };
  }
  return undefined;
}

/**
 * Expands folders and (unless `expandStores` is false: `check` snapshots a store as one input) stores;
 * a missing path or a folder without inputs is an `InputError`.
 */
export async function expandPaths(paths: readonly string[], { expandStores = true } = {}): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (path === "-") {
      files.push(path);
      continue;
    }
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      if (await storeRef(path)) {
        files.push(path); // one session of a store, named as the report names it
        continue;
      }
      throw new InputError(describeMissingPath(path, error));
    }
    if (info.isDirectory()) {
      const found: string[] = [];
      try {
        await walk(path, found);
      } catch (error) {
        throw new InputError(describeReadError(path, error));
      }
      if (found.length === 0) throw new InputError(`no input files (*.jsonl, *.ndjson, *.log, session archives, optionally .gz/.zst) under ${path}`);
      // Only a file named as a store is opened for the SQLite header: the folder's other inputs are
      // named as line files (a state folder's 7,241 transcripts took ~110 ms of opens for nothing).
      // A store renamed to `.jsonl` is read as a line file, which says it is binary.
      for (const file of found) await pushInput(file, files, expandStores && namedAsStore(file)); // not push(...found): it overflows the stack past ~100k files
    } else {
      await pushInput(path, files, expandStores);
    }
  }
  return files;
}

/**
 * Expands folders and groups the files read as one history into one unit, in input order: the
 * files of an OpenClaw session (openclawFiles.ts), the event files of an OpenHands conversation,
 * and a Claude Code or Codex session with the sessions forked from it (shared/forkFamilies.ts).
 */
export async function expandUnits(paths: readonly string[]): Promise<InputUnit[]> {
  const files = await expandPaths(paths);
  const position = new Map(files.map((file, i) => [file, i]));
  const fragments = fragmentUnits(files);
  const { families, rest } = await forkGroups(fragments.rest);
  const units = [...fragments.units.map((unit) => unit.files), ...families, ...groupLives(rest)];
  const first = (unit: InputUnit) => unit.reduce((min, file) => Math.min(min, position.get(file)!), Infinity);
  return units.sort((a, b) => first(a) - first(b));
}

/**
 * The files of forked conversations grouped into families (shared/forkFamilies.ts), each parent
 * first; the other files (`rest`) in their order.
 */
export async function forkGroups(files: readonly string[]): Promise<{ families: string[][]; rest: string[] }> {
  return forkFamilies(files, await forkTags(files));
}

/** What ties the files of one forked conversation together, per agent (the descriptors' `forkTag`). */
const FORK_TAGGERS: readonly ForkTagger[] = INPUT_FILES.flatMap((files) => (files.forkTag ? [files.forkTag] : []));

/** Paths only one format's agent writes to (`ownsPath`): not opened for another format's fork tag. */
const OWNED = INPUT_FILES.flatMap((files) => (files.ownsPath ? [files.ownsPath] : []));

/**
 * The fork tags of the files (forkFamilies.ts), in their order. A file directly in an OpenClaw
 * agent's `sessions/` folder (`agents/<agentId>/sessions/<file>`) is not opened for its head: only
 * Claude Code and Codex files have tags, and neither agent writes there (Claude Code writes
 * `projects/<slug>/<sessionId>.jsonl`, its sub-agents `<sessionId>/subagents/…`; Codex
 * `sessions/YYYY/MM/DD/rollout-….jsonl`, three folders below `sessions/`). A state folder's
 * thousands of transcripts were each opened for nothing (1601 files: ~170-340 ms of a 4.5 s run).
 * Such a file copied there by hand is still read, as its format; only its forks are not grouped.
 */
async function forkTags(files: readonly string[]): Promise<Array<ForkTag | undefined>> {
  const candidates = files.filter((file) => !OWNED.some((owns) => owns(file)));
  // A family is two files or more: a file met alone (named on its own, the one file of its kind in a
  // folder) is not opened for its head, which could tie it to nothing (lineSource.ts: one open less).
  if (candidates.length < 2) return files.map(() => undefined);
  const found = new Map(candidates.map((file, i) => [file, i]));
  const tags = await seekParents(candidates, await forkTagsOf(candidates, FORK_TAGGERS));
  return files.map((file) => {
    const i = found.get(file);
    return i === undefined ? undefined : tags[i];
  });
}

/**
 * `completeLines`: files read only up to their last complete line (`looplens watch`); `standardInput`:
 * the bytes `-` stands for when they are not process.stdin's (the library API's in-memory input).
 */
export async function openSource(path: string, { standardInput, ...options }: FileSourceOptions & { readonly standardInput?: Uint8Array } = {}): Promise<LineSource> {
  try {
    if (path === "-") return await stdinSource(standardInput && Readable.from([Buffer.from(standardInput.buffer, standardInput.byteOffset, standardInput.byteLength)]));
    const store = path.includes("#") ? await storeRef(path) : undefined;
    // A store's rows are whole lines by nature: `completeLines` concerns files only.
    return store ? await store.container.open(store.db, store.session) : await fileSource(path, options);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeReadError(path, error));
  }
}
