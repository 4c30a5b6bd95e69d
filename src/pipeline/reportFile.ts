/**
 * The file `-o/--output-file` names, replaced whole or not at all: the report is written beside it
 * under a temporary name and renamed over it once the command has finished (`commit`), so that an
 * interrupted or failed run (a signal, an error, an exit status of 2) leaves the old report as it
 * was (`discard`) instead of a truncated one. The file is written as the report is made: a large
 * report is never held whole.
 *
 * A path that is not a regular file (/dev/null, /dev/stdout, a named pipe) cannot be replaced: it
 * is written to directly, as before. A symbolic link is written through: the file it points to is
 * replaced, with its permission bits, and the link stays.
 */
import { accessSync, closeSync, constants, fchmodSync, lstatSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { InputError } from "../adapters/io/lineSource.js";

export interface ReportFile {
  write(text: string): void;
  /** The report is complete: it replaces the old file. */
  commit(): void;
  /** The report is abandoned: the old file stays as it was (a new one is not created). */
  discard(): void;
}

const cannotWrite = (path: string, error: unknown) =>
  new InputError(`cannot write the report to ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);

/** Opens the report file at once, so that an unwritable path fails before a long analysis. */
export function openReportFile(path: string): ReportFile {
  const existing = existingFile(path);
  if (existing !== undefined && !existing.regular) return directFile(path);
  const target = existing?.real ?? path;
  // Hidden, and named after the report: what is left of it after a SIGKILL says whose it is.
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number;
  try {
    // A report that may not be written is refused as before, though the folder would allow a rename.
    if (existing !== undefined) accessSync(target, constants.W_OK);
    fd = openSync(temporary, "wx", 0o666);
    if (existing !== undefined) fchmodSync(fd, existing.mode);
  } catch (error) {
    throw cannotWrite(path, error);
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    write: (text) => writeAll(fd, text),
    commit() {
      close();
      renameSync(temporary, target);
    },
    discard() {
      close();
      unlinkSync(temporary);
    },
  };
}

/** What is at `path` now: nothing (undefined), or whether it is a regular file, its real path and mode. */
function existingFile(path: string): { regular: boolean; real: string; mode: number } | undefined {
  try {
    lstatSync(path);
  } catch {
    return undefined; // nothing there (or nothing we may see: opening the temporary file says why)
  }
  try {
    const stat = statSync(path);
    return { regular: stat.isFile(), real: realpathSync(path), mode: stat.mode & 0o7777 };
  } catch {
    return undefined; // a dangling link: the report replaces the link
  }
}

/** A device or a pipe: written to as it is, nothing to keep or to replace. */
function directFile(path: string): ReportFile {
  let fd: number;
  try {
    fd = openSync(path, "w");
  } catch (error) {
    throw cannotWrite(path, error);
  }
  return { write: (text) => writeAll(fd, text), commit: () => closeSync(fd), discard: () => closeSync(fd) };
}

function writeAll(fd: number, text: string): void {
  let buffer = Buffer.from(text);
  while (buffer.length > 0) buffer = buffer.subarray(writeSync(fd, buffer));
}
