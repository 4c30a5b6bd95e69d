/**
 * From the paths a user typed to input units: folders are walked recursively (`*.jsonl`, `*.ndjson`,
 * `*.log`, OpenClaw's session archives and stores, other agents' `.json` layouts, and their
 * compressed forms, in sorted order), `-` is standard input, a SQLite store stands for one input per
 * session, and the files read as one history are grouped into one unit (an OpenClaw session's files:
 * openclaw/sessionFiles.ts; an OpenHands conversation's event files).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { claudeCodeForkTag } from "./claude-code/forks.js";
import { codexForkTag } from "./codex/forks.js";
import { GEMINI_CHAT_JSON_FILE } from "./gemini/identity.js";
import { describeReadError, fileSource, stdinSource } from "./io/sources.js";
import { InputError, type LineSource } from "./io/lineSource.js";
import { inOpenClawSessionsFolder } from "./openclaw/identity.js";
import { ARCHIVE_FILE, groupSessionFiles } from "./openclaw/sessionFiles.js";
import { isSqliteFile, storeSessions, storeSessionSource } from "./openclaw/sqliteStore.js";
import { eventIndex, groupOpenHandsFiles, OPENHANDS_EVENT_FILE } from "./openhands/files.js";
import { forkFamilies, forkTagsOf, seekParents, type ForkTag } from "./shared/forkFamilies.js";

export { InputError };

const INPUT_FILE = /\.(jsonl|ndjson|log)(\.(gz|zst))?$/i;

/** SQLite transcript stores (inputs.md §2a) as a folder scan finds them. */
const STORE_FILE = /\.sqlite$/i;

/**
 * Files of a folder scan: inputs by extension, OpenClaw's session archives, transcript stores, and
 * the `.json` files other agents keep transcripts in (Gemini CLI's legacy `chats/session-*.json`,
 * OpenHands' `events/<n>.json`). Other `.json` files are not scanned (configs, `sessions.json`,
 * `.meta.json` side files): a JSON document of another kind, such as an OpenHands trajectory array,
 * is read when named.
 */
const isInputFile = (name: string, path: string) =>
  INPUT_FILE.test(name) || ARCHIVE_FILE.test(name) || STORE_FILE.test(name) || GEMINI_CHAT_JSON_FILE.test(path) || OPENHANDS_EVENT_FILE.test(path);

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
  if (!expandStores || !(await isSqliteFile(path))) return void into.push(path);
  for (const session of await storeSessions(path)) into.push(`${path}#${session}`);
}

/** `<db>#<sessionId>` of a store session, split; undefined for any other path. */
async function storeRef(path: string): Promise<{ db: string; session: string } | undefined> {
  for (let hash = path.lastIndexOf("#"); hash > 0; hash = path.lastIndexOf("#", hash - 1)) {
    const db = path.slice(0, hash);
    if (await isSqliteFile(db)) return { db, session: path.slice(hash + 1) };
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
      for (const file of found) await pushInput(file, files, expandStores && STORE_FILE.test(file)); // not push(...found): it overflows the stack past ~100k files
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
  const events = files.filter((file) => eventIndex(file) !== undefined);
  const others = files.filter((file) => eventIndex(file) === undefined);
  const { families, rest } = await forkGroups(others);
  const units = [...groupOpenHandsFiles(events), ...families, ...groupSessionFiles(rest)];
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

/** What ties the files of one forked conversation together, per agent. */
const FORK_TAGGERS = [claudeCodeForkTag, codexForkTag];

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
  const candidates = files.filter((file) => !inOpenClawSessionsFolder(file));
  const found = new Map(candidates.map((file, i) => [file, i]));
  const tags = await seekParents(candidates, await forkTagsOf(candidates, FORK_TAGGERS));
  return files.map((file) => {
    const i = found.get(file);
    return i === undefined ? undefined : tags[i];
  });
}

export async function openSource(path: string): Promise<LineSource> {
  try {
    if (path === "-") return await stdinSource();
    const store = path.includes("#") ? await storeRef(path) : undefined;
    return store ? await storeSessionSource(store.db, store.session) : await fileSource(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeReadError(path, error));
  }
}
