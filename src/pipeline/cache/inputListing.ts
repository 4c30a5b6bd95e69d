/**
 * What a folder scan saw of the paths a user typed, without grouping or sniffing anything: each
 * folder's listing as discovery's walk reads it (discovery.ts: its sub-folders and the input files
 * among its entries, in sorted order), and what each path typed is (a folder, a file, nothing: a
 * store session `<db>#<id>`). The kept output of a command (reportCache.ts) is keyed on it instead
 * of on the units discovery makes from it, so that a warm hit reads the folders again but neither
 * sniffs, groups nor sorts their files (`expandUnits`: ~40 ms of CPU for 1,601 files).
 *
 * Why that is enough: the units are a function of the listing and of the files' contents (fork
 * heads, stores' sessions), and every file discovery may open is stamped with the output: the
 * units' files, and each store (by name in a folder, or any file typed) with its write-ahead log,
 * since a store without sessions is in no unit. A new, removed or renamed file or folder, or a
 * file turned into a folder, changes the listing; an edit changes a stamp.
 */
import { readdirSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { isInputFile, namedAsStore } from "../../adapters/inputFileNames.js";
import type { ByteHasher } from "./byteHash.js";

export interface InputListing {
  /** The hash of the listing (it goes into the kept output's key). */
  readonly digest: string;
  /** Files discovery may open that are in no unit when they hold nothing (stores), each with its log: stamped too. */
  readonly stores: readonly string[];
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The folder's entries that the walk takes, as records (`d`: a folder, `f`: an input file), recursively. */
function listFolder(dir: string, records: string[], stores: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      records.push(`d${path}`);
      listFolder(path, records, stores);
    } else if (entry.isFile() && isInputFile(entry.name, path)) {
      records.push(`f${path}`);
      if (namedAsStore(path)) stores.push(path, `${path}-wal`);
    }
  }
}

/**
 * The listing of `paths` now; undefined for standard input or a path that cannot be read (the
 * command then runs as without a kept output, and says why).
 */
export function listInputs(paths: readonly string[], hasher: ByteHasher): InputListing | undefined {
  const records: string[] = [];
  const stores: string[] = [];
  try {
    for (const path of paths) {
      if (path === "-") return undefined;
      const info = statSync(path, { throwIfNoEntry: false });
      if (info === undefined) records.push(`?${path}`);
      else if (info.isDirectory()) {
        records.push(`D${path}`);
        listFolder(path, records, stores);
      } else {
        records.push(`F${path}`);
        stores.push(path, `${path}-wal`); // a typed file is opened as a store whatever its name
      }
    }
  } catch {
    return undefined;
  }
  // NUL cannot be in a path: the records cannot run into each other.
  return { digest: hasher.hash(Buffer.from(records.join("\0"))), stores };
}
