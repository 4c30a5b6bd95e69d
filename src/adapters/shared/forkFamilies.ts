/**
 * Forked and resumed conversations of other agents, found across the files of one scan (agents.md
 * rule 7: every executed call once). Claude Code's `--fork-session` (and older builds' `--resume`)
 * writes a new file that starts with copies of the parent's entries, keeping their uuids; a Codex
 * rollout with `session_meta.forked_from_id` repeats the parent's items. Read as separate units,
 * the copied calls would be replayed once per file.
 *
 * So the files of one family are grouped into one input unit (the adapters share the unit's state:
 * the first file holding an entry replays it, later files count it as a duplicate and skip it).
 * Which files are a family is decided from the first lines of each file only, so that a scan reads
 * no file whole twice; each agent says what in those lines ties files together (`ForkTagger`). A
 * file read alone is its own unit, and replays all its calls.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { fileContains } from "../io/sources.js";

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
   * bytes as written): the files beside this one are searched for it (`seekParents`), and the one
   * holding it is taken as the parent.
   */
  readonly seek?: string;
}

/**
 * Reads a file's first parsed lines, one at a time: returns a tag once it has decided, `null` when
 * the file is not of its agent or ties to nothing, `undefined` to see the next line. At the end of
 * the head (the file's end, or the limits below) it is called once more without a line, to decide
 * from what it saw. A new one is made for each file (`ForkTagger`), so that it may keep what the
 * lines before told it.
 */
export type ForkLineReader = (line: HeadLine | undefined) => ForkTag | null | undefined;

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
export type ForkTagger = () => ForkLineReader;

/** Plain JSON-lines files only: a compressed transcript is not opened for its head. */
const HEAD_FILE = /\.jsonl$/i;
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

/** The tag of a file, from its first lines; undefined when no tagger claims it (or it cannot be read: reading says why). */
export function forkTagOf(path: string, taggers: readonly ForkTagger[]): ForkTag | undefined {
  if (!HEAD_FILE.test(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    let live = taggers.map((tagger) => tagger());
    let rest = "";
    let index = 0;
    let offset = 0;
    const decoder = new TextDecoder();
    for (;;) {
      const size = offset === 0 ? FIRST_CHUNK : Math.min(CHUNK, MAX_HEAD_BYTES - offset);
      const buffer = Buffer.allocUnsafe(size);
      const bytesRead = readSync(fd, buffer, 0, size, offset);
      offset += bytesRead;
      const atEnd = bytesRead < size || offset >= MAX_HEAD_BYTES;
      const lines = (rest + decoder.decode(buffer.subarray(0, bytesRead), { stream: !atEnd })).split("\n");
      rest = atEnd ? "" : lines.pop()!;
      for (const text of lines) {
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
        if (++index >= MAX_HEAD_LINES) return headEnd(live);
      }
      if (atEnd) return headEnd(live);
    }
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

/** Whether the file holds these bytes; an unreadable file holds nothing (reading it says why). */
function holds(path: string, needle: Buffer): boolean {
  try {
    return fileContains(path, [needle]);
  } catch {
    return false;
  }
}

/**
 * The tags with the parents that `seek` found: each file whose tag seeks is searched for in the
 * plain JSON-lines files of its own folder (Claude Code keeps a project's sessions in one folder),
 * in scan order; the first that holds the needle is its parent. This reads those files whole once
 * more, so it is done only for the rare heads that ask for it.
 */
export async function seekParents(files: readonly string[], tags: ReadonlyArray<ForkTag | undefined>): Promise<Array<ForkTag | undefined>> {
  const result = [...tags];
  for (const [i, tag] of tags.entries()) {
    if (tag?.seek === undefined) continue;
    const needle = Buffer.from(tag.seek);
    const folder = dirname(files[i]!);
    for (const [j, file] of files.entries()) {
      // Another file that starts with the same line is another fork of the same parent, not it.
      if (j === i || tags[j]?.seek === tag.seek || !HEAD_FILE.test(file) || dirname(file) !== folder || !holds(file, needle)) continue;
      const parent = result[j];
      const self = parent?.self ?? `file:${file}`;
      const link = `seek:${tag.seek}`;
      result[j] = { ...parent, keys: [...(parent?.keys ?? []), link], self };
      result[i] = { ...result[i]!, keys: [...result[i]!.keys, link], parent: self };
      break;
    }
  }
  return result;
}

/**
 * Groups tagged files into families: each family of several files is one unit, parents before the
 * files forked from them, else in the order given; every other file is left out (`rest`).
 */
export function forkFamilies(files: readonly string[], tags: ReadonlyArray<ForkTag | undefined>): { families: string[][]; rest: string[] } {
  const root = files.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i]!)));
  const byKey = new Map<string, number>();
  const join = (map: Map<string, number>, key: string, i: number) => {
    const other = map.get(key);
    if (other === undefined) map.set(key, i);
    else root[find(i)] = find(other);
  };
  tags.forEach((tag, i) => {
    for (const key of tag?.keys ?? []) join(byKey, key, i);
  });
  // Weak keys: every file that has one is met, but only those without keys of their own join by it.
  const byWeak = new Map<string, number>();
  tags.forEach((tag, i) => {
    if (tag?.weak !== undefined && tag.keys.length > 0 && !byWeak.has(tag.weak)) byWeak.set(tag.weak, i);
  });
  tags.forEach((tag, i) => {
    if (tag?.weak !== undefined && tag.keys.length === 0) join(byWeak, tag.weak, i);
  });
  const members = new Map<number, number[]>();
  files.forEach((_, i) => {
    const r = find(i);
    const family = members.get(r);
    if (family === undefined) members.set(r, [i]);
    else family.push(i);
  });
  const families: string[][] = [];
  const rest: string[] = [];
  for (const indices of members.values()) {
    if (indices.length === 1) rest.push(files[indices[0]!]!);
    else families.push(parentsFirst(indices, tags).map((i) => files[i]!));
  }
  return { families, rest };
}

/** The indices (in input order) with every file after the one it was forked from, when that is in the family. */
function parentsFirst(indices: readonly number[], tags: ReadonlyArray<ForkTag | undefined>): number[] {
  const bySelf = new Map<string, number>();
  for (const i of indices) if (tags[i]?.self !== undefined) bySelf.set(tags[i]!.self!, i);
  const placed = new Set<number>();
  const order: number[] = [];
  const place = (i: number, path: Set<number>) => {
    if (placed.has(i) || path.has(i)) return;
    path.add(i);
    const parent = tags[i]?.parent !== undefined ? bySelf.get(tags[i]!.parent!) : undefined;
    if (parent !== undefined) place(parent, path);
    placed.add(i);
    order.push(i);
  };
  for (const i of indices) place(i, new Set());
  return order;
}
