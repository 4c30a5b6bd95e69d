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
import { dirname } from "node:path";
import { fileContains } from "../io/sources.js";
import { HEAD_FILE, type ForkTag } from "./forkHeads.js";

export type { ForkLineReader, ForkTag, ForkTagger, HeadLine } from "./forkHeads.js";
export { forkTagOf, forkTagsOf } from "./forkHeads.js";

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
      // The link joins the two (forkFamilies joins a file to the one its parent names).
      const parent = result[j];
      const self = parent?.self ?? `file:${file}`;
      result[j] = { ...parent, keys: parent?.keys ?? [], self };
      result[i] = { ...result[i]!, parent: self };
      break;
    }
  }
  return result;
}

/**
 * Groups tagged files into families: files that share a key, and a file with the one its `parent`
 * names. Each family of several files is one unit, parents before the files forked from them, else
 * in the order given; every other file is left out (`rest`).
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
  const bySelf = new Map<string, number>();
  tags.forEach((tag, i) => {
    if (tag?.self !== undefined && !bySelf.has(tag.self)) bySelf.set(tag.self, i);
  });
  tags.forEach((tag, i) => {
    const parent = tag?.parent !== undefined ? bySelf.get(tag.parent) : undefined;
    if (parent !== undefined) root[find(i)] = find(parent);
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
    else families.push(parentsFirst(indices, tags, files).map((i) => files[i]!));
  }
  return { families, rest };
}

/**
 * The indices (in input order) with every file after the one it was forked from, when that is in
 * the family. The files with no parent there are first put in the order their last entries tell
 * (`prefixesFirst`), when they can.
 */
function parentsFirst(indices: readonly number[], tags: ReadonlyArray<ForkTag | undefined>, files: readonly string[]): number[] {
  const bySelf = new Map<string, number>();
  for (const i of indices) if (tags[i]?.self !== undefined) bySelf.set(tags[i]!.self!, i);
  const hasParent = (i: number) => tags[i]?.parent !== undefined && bySelf.has(tags[i]!.parent!);
  const roots = indices.filter((i) => !hasParent(i));
  const ranked = prefixesFirst(roots, tags, files);
  const order = ranked === undefined ? indices : [...ranked, ...indices.filter(hasParent)];
  return placedAfterParents(order, tags, bySelf);
}

/** Families of more files than this keep scan order: ranking reads each file once per other file. */
const MAX_RANKED = 8;

/**
 * Files tied by their heads, ordered so that a file comes after every file that is a prefix of it
 * (`ForkTag.lastEntry`: it holds that one's last entry, and that one does not hold its own); else in
 * the order given. Undefined when there is nothing to rank: one file, a file that cannot say its
 * last entry, or more than MAX_RANKED files.
 */
function prefixesFirst(indices: readonly number[], tags: ReadonlyArray<ForkTag | undefined>, files: readonly string[]): number[] | undefined {
  if (indices.length < 2 || indices.length > MAX_RANKED || !indices.every((i) => tags[i]?.lastEntry !== undefined)) return undefined;
  const needles = new Map(indices.map((i) => [i, tags[i]!.lastEntry!()]));
  const held = new Map<string, boolean>(); // each file read once per other file's needle
  const holdsLastOf = (holder: number, of: number) => {
    const needle = needles.get(of);
    if (needle === undefined) return false;
    const key = `${holder} ${of}`;
    let answer = held.get(key);
    if (answer === undefined) held.set(key, (answer = holds(files[holder]!, Buffer.from(needle))));
    return answer;
  };
  const prefixOf = (a: number, b: number) => holdsLastOf(b, a) && !holdsLastOf(a, b);
  // A prefix of a prefix is a prefix: ranking by how many prefixes a file has puts every one before it.
  const prefixes = new Map(indices.map((b) => [b, indices.filter((a) => a !== b && prefixOf(a, b)).length]));
  return [...indices].sort((a, b) => prefixes.get(a)! - prefixes.get(b)!);
}

/** The indices in the order given, each moved after its parent (a cycle placed as met). */
function placedAfterParents(indices: readonly number[], tags: ReadonlyArray<ForkTag | undefined>, bySelf: ReadonlyMap<string, number>): number[] {
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
