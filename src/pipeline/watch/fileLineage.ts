/**
 * Which file is which over a watch (`looplens watch`): a finding is known by where it is (watch.md
 * §1 "Exactness"), and "where" must survive what the runtime does to its files. A lineage is one
 * file's history under a token that findings are keyed by (findingLedger.ts):
 * - renamed (the live transcript becomes `<sid>.jsonl.reset.<ts>`): same inode, same first bytes
 *   under a new path → the same lineage, and the rename is told (findings printed under the old
 *   path are now the archive's, as `analyze` on the final files names them);
 * - truncated, or rewritten in place (same inode, first bytes differ) → a new generation of the
 *   lineage: its content is read again as new, what was printed for the old content stands (said
 *   once);
 * - replaced by a new file under the same path: the same lineage when it starts with the same bytes
 *   (an atomic rewrite that kept the prefix); otherwise a new lineage (a new file), the old one
 *   kept by inode as a deleted one is, since it may only have been renamed;
 * - deleted → kept a while by inode, so that a rename seen as "gone" first and "appeared" later
 *   (two events, maybe two batches) is still matched.
 * Store sessions (`<db>#<session>`) are rows, not files: their path is their token.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createHash } from "node:crypto";

/** What a stat tells about a file. */
export interface FileStamp {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

export type LineageChange =
  | { readonly kind: "renamed"; readonly token: string; readonly from: string; readonly to: string }
  | { readonly kind: "rewritten"; readonly token: string; readonly path: string; readonly why: "truncated" | "rewritten" }
  | { readonly kind: "deleted"; readonly token: string; readonly path: string };

interface Lineage {
  readonly id: number;
  generation: number;
  path: string;
  stamp: FileStamp;
  /** A hash of the file's first `headLength` bytes (at most HEAD_BYTES), to tell a rename or a rewrite. */
  head: string;
  headLength: number;
  /** When it was seen gone (a rename may be seen later), or undefined while present. */
  goneAt: number | undefined;
}

/** Enough of a file's start to tell two files apart: a transcript's header line names its session. */
const HEAD_BYTES = 4096;

/** How long a gone file's inode is kept for a rename seen late. */
const GONE_GRACE_MS = 60_000;

export function stampOf(path: string): FileStamp | undefined {
  try {
    const info = statSync(path);
    return info.isFile() ? { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

export const sameStamp = (a: FileStamp | undefined, b: FileStamp | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** The hash of the first `length` bytes of a file, or undefined when it cannot be read (or is shorter now). */
const headHash = (path: string, length: number): string | undefined => rangeHash(path, 0, length);

/** The hash of a file's `length` bytes from `start`, or undefined when they cannot be read (or it is shorter now). */
export function rangeHash(path: string, start: number, length: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(length);
    let read = 0;
    for (let n = -1; n !== 0 && read < length; read += n) n = readSync(fd, buffer, read, length - read, start + read);
    return read < length ? undefined : createHash("sha1").update(buffer).digest("hex");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const inodeKey = (stamp: FileStamp) => `${stamp.dev}:${stamp.ino}`;

/**
 * Where the file that was at `path` went, if it is now an archive of it beside it (`<name>.reset.<ts>`,
 * `<name>.deleted.<ts>`, `<name>.bak-…`: the names OpenClaw archives a live transcript under).
 */
function archiveOf(path: string, old: FileStamp): string | undefined {
  const folder = dirname(path);
  const name = basename(path);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const other of names) {
    if (other === name || !other.startsWith(`${name}.`)) continue;
    const stamp = stampOf(join(folder, other));
    if (stamp !== undefined && inodeKey(stamp) === inodeKey(old)) return join(folder, other);
  }
  return undefined;
}

export class FileLineages {
  private readonly byPath = new Map<string, Lineage>();
  private readonly byInode = new Map<string, Lineage>();
  /** Lineages seen gone lately, by inode: a rename may be seen as two batches. */
  private readonly recentlyGone = new Map<string, Lineage>();
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** The token findings of `path` are keyed by (its lineage's, for a known file; the path itself otherwise). */
  tokenOf(path: string): string {
    const lineage = this.byPath.get(path);
    return lineage ? `${lineage.id}.${lineage.generation}` : `path:${path}`;
  }

  /** The current path of a token's file (a token of a renamed file names the new path). */
  pathOf(token: string): string | undefined {
    for (const lineage of this.byPath.values()) if (`${lineage.id}.${lineage.generation}` === token) return lineage.path;
    return undefined;
  }

  get size(): number {
    return this.byPath.size;
  }

  /**
   * Whether `path` now holds another file than the one its lineage knows there (another inode): a
   * file put in its place, as when the runtime archives the live transcript and starts a new one.
   */
  replacedAt(path: string, stamp: FileStamp): boolean {
    const lineage = this.byPath.get(path);
    return lineage !== undefined && inodeKey(lineage.stamp) !== inodeKey(stamp);
  }

  /**
   * Takes what stats say now about `paths` (undefined: gone, or not a file) and returns what
   * happened to them. Gone ones first, so that a rename inside one batch is matched.
   */
  update(stamps: ReadonlyMap<string, FileStamp | undefined>): LineageChange[] {
    const changes: LineageChange[] = [];
    for (const [path, stamp] of stamps) if (stamp === undefined) this.gone(path, changes);
    for (const [path, stamp] of stamps) if (stamp !== undefined) this.present(path, stamp, changes);
    this.forgetOldGone();
    return changes;
  }

  private gone(path: string, changes: LineageChange[]): void {
    const lineage = this.byPath.get(path);
    if (!lineage) return;
    this.byPath.delete(path);
    if (this.byInode.get(inodeKey(lineage.stamp)) === lineage) this.byInode.delete(inodeKey(lineage.stamp));
    lineage.goneAt = this.now();
    this.recentlyGone.set(inodeKey(lineage.stamp), lineage);
    changes.push({ kind: "deleted", token: this.token(lineage), path });
  }

  private present(path: string, stamp: FileStamp, changes: LineageChange[]): void {
    const known = this.byPath.get(path);
    if (known && inodeKey(known.stamp) === inodeKey(stamp)) return this.grew(known, stamp, changes);
    const moved = this.renamedFrom(path, stamp);
    if (moved) {
      if (known) this.byPath.delete(path);
      const from = moved.path;
      if (this.byPath.get(from) === moved) this.byPath.delete(from);
      // A "deleted" told for the old path in this batch is taken back: it was a rename.
      const told = changes.findIndex((change) => change.kind === "deleted" && change.path === from);
      if (told >= 0) changes.splice(told, 1);
      moved.path = path;
      moved.goneAt = undefined;
      this.recentlyGone.delete(inodeKey(stamp));
      this.byPath.set(path, moved);
      this.byInode.set(inodeKey(stamp), moved);
      changes.push({ kind: "renamed", token: this.token(moved), from, to: path });
      return this.grew(moved, stamp, changes);
    }
    if (known) {
      // Another file under a known path. The old one may have been renamed beside it (the runtime
      // archives the live transcript as `<name>.reset.<ts>` and starts a new one): that rename is
      // told now, before anything of the new file is, as a reader applies a rename to what was
      // printed before it. Otherwise the new file continues the lineage if it starts as the old
      // one did and is no shorter (an atomic rewrite that kept the content); else it is a new file,
      // and the old one is kept by inode, as a deleted one is (a rename seen later).
      const archived = archiveOf(path, known.stamp);
      if (archived === undefined && stamp.size >= known.stamp.size && headHash(path, known.headLength) === known.head) {
        this.byInode.delete(inodeKey(known.stamp));
        known.stamp = stamp;
        this.byInode.set(inodeKey(stamp), known);
        return this.refreshHead(known, stamp);
      }
      this.gone(path, []);
      if (archived !== undefined) this.present(archived, stampOf(archived)!, changes);
    }
    this.add(path, stamp);
  }

  /** The same file as before, changed: a shorter or differently starting one was rewritten. */
  private grew(lineage: Lineage, stamp: FileStamp, changes: LineageChange[]): void {
    const before = lineage.stamp;
    lineage.stamp = stamp;
    if (stamp.size === before.size && stamp.mtimeMs === before.mtimeMs) return;
    if (stamp.size < before.size) return this.rewrite(lineage, lineage.path, "truncated", changes);
    // An append leaves the first bytes alone; a file emptied and written again between two looks
    // grew too, but starts otherwise. Reading 4 KB is little beside the analysis that follows.
    if (headHash(lineage.path, lineage.headLength) !== lineage.head) return this.rewrite(lineage, lineage.path, "rewritten", changes);
    this.refreshHead(lineage, stamp);
  }

  private rewrite(lineage: Lineage, path: string, why: "truncated" | "rewritten", changes: LineageChange[]): void {
    lineage.generation++;
    // Hashed again even at the same length: the first bytes are the new content's (else each later look is another rewrite).
    lineage.head = "";
    this.refreshHead(lineage, lineage.stamp);
    changes.push({ kind: "rewritten", token: this.token(lineage), path, why });
  }

  private refreshHead(lineage: Lineage, stamp: FileStamp): void {
    const length = Math.min(stamp.size, HEAD_BYTES);
    if (length === lineage.headLength && lineage.head !== "") return;
    const head = headHash(lineage.path, length);
    if (head === undefined) return;
    lineage.head = head;
    lineage.headLength = length;
  }

  /** A known lineage this new path is: same inode, no longer at its own path, same first bytes. */
  private renamedFrom(path: string, stamp: FileStamp): Lineage | undefined {
    const candidate = this.byInode.get(inodeKey(stamp)) ?? this.recentlyGone.get(inodeKey(stamp));
    if (!candidate || candidate.path === path) return undefined;
    const stillThere = candidate.goneAt === undefined && inodeKey(stampOf(candidate.path) ?? { dev: -1, ino: -1, size: 0, mtimeMs: 0 }) === inodeKey(stamp);
    if (stillThere) return undefined; // a hard link: another name of the same file, read as analyze reads it
    return headHash(path, candidate.headLength) === candidate.head ? candidate : undefined;
  }

  private add(path: string, stamp: FileStamp): void {
    const lineage: Lineage = { id: this.nextId++, generation: 0, path, stamp, head: "", headLength: 0, goneAt: undefined };
    this.refreshHead(lineage, stamp);
    this.byPath.set(path, lineage);
    this.byInode.set(inodeKey(stamp), lineage);
  }

  private forgetOldGone(): void {
    if (this.recentlyGone.size === 0) return;
    const now = this.now();
    for (const [inode, lineage] of this.recentlyGone) if (now - lineage.goneAt! > GONE_GRACE_MS) this.recentlyGone.delete(inode);
  }

  private token(lineage: Lineage): string {
    return `${lineage.id}.${lineage.generation}`;
  }
}
