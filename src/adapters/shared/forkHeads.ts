/**
 * The first lines of a file, read for what they say about its fork family (forkFamilies.ts): each
 * agent's `ForkTagger` reads them one at a time and decides. Only the head is read, so that a scan
 * reads no file whole twice.
 */
import { closeSync, readSync } from "node:fs";
import { MAX_LINE_BYTES } from "../io/lineSource.js";
import { openForReading } from "../io/openForReading.js";

/** What the first lines of a file say about the family it belongs to. */
export interface ForkTag {
  /** Keys the file is known by: files sharing any key are one family. */
  readonly keys: readonly string[];
  /**
   * A key that ties less: a file whose head told only this one (no `keys`) joins the files that
   * have the same weak key; files that both have keys are not joined by it.
   */
  readonly weak?: string;
  /** A key that names the file itself, and one that names the file it was forked from: the parent is read first. */
  readonly self?: string;
  readonly parent?: string;
  /**
   * The head cannot name the parent, but a line of it would be in the parent's file (`needle`, its
   * bytes as written): the files beside this one are searched for it (forkFamilies.ts `seekParents`), and the one
   * holding it is taken as the parent.
   */
  readonly seek?: string;
  /**
   * The needle of the file's last entry, read when asked: when nothing names the parent among files
   * tied by their heads, a file whose last entry another holds (and not the other way round) is a
   * prefix of it, so its parent (a session forked where it ended).
   */
  readonly lastEntry?: () => string | undefined;
}

/**
 * Reads a file's first parsed lines, one at a time: returns a tag once it has decided, `null` when
 * the file is not of its agent or ties to nothing, `undefined` to see the next line. At the end of
 * the head (the file's end, or the limits below) it is called once more without a line, to decide
 * from what it saw. A new one is made for each file (`ForkTagger`, given the file's path), so that
 * it may keep what the lines before told it.
 */
export type ForkLineReader = (line: HeadLine | undefined) => ForkTag | null | undefined;
export type ForkTagger = (path: string) => ForkLineReader;

/** A line of a file's head: its text, and its JSON object (parsed when asked; undefined when it is none). */
export interface HeadLine {
  readonly text: string;
  value(): Record<string, unknown> | undefined;
}

function headLine(text: string): HeadLine {
  let parsed: Record<string, unknown> | null | undefined;
  return {
    text,
    value() {
      if (parsed === undefined) {
        try {
          const value: unknown = JSON.parse(text);
          parsed = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
        } catch {
          parsed = null;
        }
      }
      return parsed ?? undefined;
    },
  };
}

/** Plain JSON-lines files only: a compressed transcript is not opened for its head. */
export const HEAD_FILE = /\.jsonl$/i;
/**
 * The first read is small: most files a scan meets are decided by their first line (another
 * format's header, a Codex session_meta) and reading and decoding 64 KB of each of a state folder's
 * 1601 files was most of the cost; later reads are larger.
 */
const FIRST_CHUNK = 4 * 1024;
const CHUNK = 64 * 1024;
/** The first lines are short; a head this long without a decision ends the look. */
const MAX_HEAD_BYTES = 1 << 20;
const MAX_HEAD_LINES = 64;
/** Reads of the line that crosses MAX_HEAD_BYTES, until its end. */
const LONG_LINE_CHUNK = 1 << 20;

/**
 * The lines of a file's head, in order, the last one possibly without its newline (at the file's
 * end): every line that starts within the first MAX_HEAD_BYTES. The line that crosses that limit is
 * read to its end, because a head cut inside a line tells nothing about it, and that line may be the
 * one that decides: a first prompt with a pasted screenshot, a first call that writes a large file
 * (unless it is longer than the line limit: reading skips such a line too).
 */
function* headLines(fd: number): Generator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  let offset = 0;
  while (offset < MAX_HEAD_BYTES) {
    const size = offset === 0 ? FIRST_CHUNK : Math.min(CHUNK, MAX_HEAD_BYTES - offset);
    const buffer = Buffer.allocUnsafe(size);
    const bytesRead = readSync(fd, buffer, 0, size, offset);
    offset += bytesRead;
    const atEnd = bytesRead < size;
    const lines = (rest + decoder.decode(buffer.subarray(0, bytesRead), { stream: !atEnd })).split("\n");
    rest = atEnd ? "" : lines.pop()!;
    yield* lines;
    if (atEnd) return;
  }
  if (rest === "") return;
  // The line that crosses the limit: its pieces are joined once its end is found (not one string
  // grown by each read: that copies the line over and over).
  const pieces = [rest];
  for (let length = rest.length; length <= MAX_LINE_BYTES; ) {
    const buffer = Buffer.allocUnsafe(LONG_LINE_CHUNK);
    const bytesRead = readSync(fd, buffer, 0, LONG_LINE_CHUNK, offset);
    offset += bytesRead;
    const atEnd = bytesRead < LONG_LINE_CHUNK;
    const piece = decoder.decode(buffer.subarray(0, bytesRead), { stream: !atEnd });
    const newline = piece.indexOf("\n");
    pieces.push(newline === -1 ? piece : piece.slice(0, newline));
    if (newline !== -1 || atEnd) return yield pieces.join("");
    length += piece.length;
  }
}

/** The tag of a file, from its first lines; undefined when no tagger claims it (or it cannot be read: reading says why). */
export function forkTagOf(path: string, taggers: readonly ForkTagger[]): ForkTag | undefined {
  if (!HEAD_FILE.test(path)) return undefined;
  const fd = openForReading(path);
  if (fd === undefined) return undefined;
  try {
    let live = taggers.map((tagger) => tagger(path));
    let index = 0;
    for (const text of headLines(fd)) {
      if (text.trim() === "") continue;
      const line = headLine(text);
      const still: ForkLineReader[] = [];
      for (const reader of live) {
        const tag = reader(line);
        if (tag) return tag;
        if (tag === undefined) still.push(reader);
      }
      live = still;
      if (live.length === 0) return undefined;
      if (++index >= MAX_HEAD_LINES) break;
    }
    return headEnd(live);
  } catch {
    return undefined; // unreadable (a folder, an I/O error): reading the file says why
  } finally {
    closeSync(fd);
  }
}

/** What the readers still undecided at the end of the head make of it. */
function headEnd(live: readonly ForkLineReader[]): ForkTag | undefined {
  for (const reader of live) {
    const tag = reader(undefined);
    if (tag) return tag;
  }
  return undefined;
}

/**
 * The tags of the files, in their order. Read synchronously: a read of a cached file is a copy,
 * while asynchronous reads cost thread-pool round trips that the process only waited on (48 Claude
 * Code transcripts: ~45 ms idle before the first was analysed).
 */
export async function forkTagsOf(files: readonly string[], taggers: readonly ForkTagger[]): Promise<Array<ForkTag | undefined>> {
  return files.map((file) => forkTagOf(file, taggers));
}
