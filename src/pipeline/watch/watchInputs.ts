/**
 * What a watch follows: the inputs `analyze` would read (paths as given: folders, files, store
 * sessions), the folders to watch for them, which changed files matter, and the units they form now.
 *
 * Decisions where `analyze` has nothing to say:
 * - A folder that holds no input yet is watched, not an error (a fresh state directory, a sessions
 *   folder before the first session): `analyze` would say "no input files"; a watch waits.
 * - A Gateway log named as a file (`/tmp/openclaw/openclaw-2026-06-16.log`) is followed into the next
 *   day's file in the same folder (`openclaw-2026-06-17.log`, named by the date), as the Gateway
 *   rolls its log at midnight: the later-dated files of that form join the inputs when they appear.
 * - A SQLite store is watched through its folder: a Gateway commits to `<db>-wal` (the database file
 *   itself changes only at a checkpoint), so changes to either mean "read the store again".
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { expandPaths, expandUnits, InputError, isInputFile, type InputUnit } from "../../adapters/discovery.js";
import type { WatchTarget } from "./watcher.js";

const GATEWAY_LOG = /^openclaw-(\d{4}-\d{2}-\d{2})\.log$/;
const STORE_FILE = /\.sqlite$/i;
const STORE_COMPANION = /\.sqlite-(wal|journal)$/i;

/** The store a changed file belongs to (the store itself, or its write-ahead log), if any. */
export function storeOf(path: string): string | undefined {
  if (STORE_FILE.test(path)) return path;
  if (STORE_COMPANION.test(path)) return path.replace(/-(wal|journal)$/i, "");
  return undefined;
}

/** `<db>#<session>` as given on the command line: the store file, or undefined for any other path. */
function storeFileOfSession(path: string): string | undefined {
  const hash = path.lastIndexOf("#");
  return hash > 0 && !existsSync(path) && existsSync(path.slice(0, hash)) ? path.slice(0, hash) : undefined;
}

export class WatchInputs {
  /** Folders given (watched with all below them), resolved, with a trailing separator. */
  private readonly trees: string[] = [];
  /** Files given (and store files of given store sessions), resolved. */
  private readonly files = new Set<string>();
  /** Folders of Gateway logs given as files (resolved) → the folder as given, and the earliest date given there. */
  private readonly logFolders = new Map<string, { readonly given: string; earliest: string }>();

  /** Throws InputError for a path that does not exist (as `analyze` would). */
  constructor(readonly paths: readonly string[]) {
    for (const path of paths) {
      if (path === "-") throw new InputError("watch follows files: standard input cannot be watched (to follow a pipe, use `looplens analyze - --format ndjson`)");
      const store = storeFileOfSession(path);
      let isFolder: boolean;
      try {
        isFolder = statSync(store ?? path).isDirectory();
      } catch {
        throw new InputError(`cannot watch ${path}: no such file or directory`);
      }
      if (isFolder) this.trees.push(`${resolve(path)}/`);
      else this.files.add(resolve(store ?? path));
      const log = GATEWAY_LOG.exec(basename(path));
      if (log && !isFolder) {
        const folder = resolve(dirname(path));
        const known = this.logFolders.get(folder);
        if (known === undefined) this.logFolders.set(folder, { given: dirname(path), earliest: log[1]! });
        else if (log[1]! < known.earliest) known.earliest = log[1]!;
      }
    }
  }

  /** What to hand to the watcher. */
  targets(): WatchTarget[] {
    return [...this.trees.map((tree) => ({ path: tree.slice(0, -1), kind: "tree" as const })), ...[...this.files].map((file) => ({ path: file, kind: "file" as const }))];
  }

  /** Whether a change to this file can change what is read. */
  interesting(path: string): boolean {
    const full = resolve(path);
    if (this.files.has(full)) return true;
    const store = storeOf(full);
    if (store !== undefined && this.files.has(store)) return true;
    if (this.isNextLog(full)) return true;
    if (!this.trees.some((tree) => full.startsWith(tree))) return false;
    return store !== undefined || isInputFile(basename(full), full);
  }

  /** The paths to read now: those given that exist, and the later days' Gateway logs. */
  current(): string[] {
    const paths = this.paths.filter((path) => existsSync(storeFileOfSession(path) ?? path));
    for (const { given, earliest } of this.logFolders.values()) {
      // Named as the given file's folder was named, so that a file reads as it would if given.
      for (const next of laterLogs(given, earliest)) if (!paths.some((path) => resolve(path) === resolve(next))) paths.push(next);
    }
    return paths;
  }

  /** The units the current paths form (discovery.ts), folders without inputs left out. */
  async units(): Promise<InputUnit[]> {
    const paths = this.current();
    try {
      return await expandUnits(paths);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
    }
    // Some folder holds no input yet (or a path went away meanwhile): the ones that do, alone.
    const usable: string[] = [];
    for (const path of paths) {
      try {
        await expandPaths([path], { expandStores: false });
        usable.push(path);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
      }
    }
    return usable.length === 0 ? [] : expandUnits(usable);
  }

  private isNextLog(full: string): boolean {
    const log = GATEWAY_LOG.exec(basename(full));
    const folder = log ? this.logFolders.get(dirname(full)) : undefined;
    return folder !== undefined && log![1]! > folder.earliest;
  }
}

/** The Gateway logs of a folder dated after `after`, in date order (their names sort by date). */
function laterLogs(folder: string, after: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => {
      const log = GATEWAY_LOG.exec(name);
      return log !== null && log[1]! > after;
    })
    .sort()
    .map((name) => join(folder, name));
}
