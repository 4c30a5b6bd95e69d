/**
 * The files of an OpenClaw state directory's `sessions/` folder (inputs.md §2), by name:
 * - `<sid>.jsonl`: the live transcript;
 * - `<sid>.jsonl.reset.<ISO-ts>`, `<sid>.jsonl.deleted.<ISO-ts>`: earlier lives of the session;
 * - `<sid>.checkpoint.<uuid>.jsonl`: a copy of a prefix of the live transcript;
 * - `<sid>.jsonl.bak-<n>-<ms>`: a backup, sharing most entries with the live transcript;
 * - `<sid>.trajectory.jsonl`: the runtime's trajectory sidecar (the same runs, with their run ids);
 * each optionally `.gz`/`.zst`. Cold archives (`sessions/cold/<sha256>.jsonl.zst`) name no session.
 *
 * The files of one session are one history: they are grouped into one input unit, read in the order
 * lives (by the time in their names), live transcript, copies (checkpoints, then backups), so that an
 * entry held by several of them is replayed once, and the sidecar last: a first pass over it names
 * the transcripts' runs before they are replayed, and it replays only the runs no transcript holds
 * (sidecarRuns.ts). A sidecar kept in another folder (the runtime can write trajectories elsewhere)
 * joins its session's transcripts when they lie in one folder that has no sidecar of its own.
 */
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export type SessionFileRole = "trajectory" | "life" | "live" | "checkpoint" | "backup";

export interface SessionFileName {
  readonly sessionId: string;
  readonly role: SessionFileRole;
  /** Orders files of the same role: the archive time, the backup's number and time. */
  readonly order: string;
}

const COMPRESSED = /\.(gz|zst)$/i;
const LIFE = /^(.+)\.jsonl\.(reset|deleted)\.(.+)$/;
const BACKUP = /^(.+)\.jsonl\.bak-(\d+)-(\d+)$/;
const CHECKPOINT = /^(.+)\.checkpoint\.([^.]+)\.jsonl$/;
const TRAJECTORY = /^(.+)\.trajectory\.jsonl$/;
const LIVE = /^(.+)\.jsonl$/;

/** What an OpenClaw session file's name says, or undefined for a name of no such file. */
export function sessionFileName(file: string): SessionFileName | undefined {
  if (file === "-" || file.includes("#")) return undefined;
  // Cold archives are named by a hash of their content, not by their session (the header says it).
  if (basename(dirname(file)) === "cold") return undefined;
  const name = basename(file).replace(COMPRESSED, "");
  let match: RegExpExecArray | null;
  if ((match = LIFE.exec(name))) return { sessionId: match[1]!, role: "life", order: match[3]! };
  if ((match = BACKUP.exec(name))) return { sessionId: match[1]!, role: "backup", order: `${match[2]!.padStart(12, "0")}-${match[3]!.padStart(16, "0")}` };
  if ((match = CHECKPOINT.exec(name))) return { sessionId: match[1]!, role: "checkpoint", order: match[2]! };
  if ((match = TRAJECTORY.exec(name))) return { sessionId: match[1]!, role: "trajectory", order: "" };
  if ((match = LIVE.exec(name))) return { sessionId: match[1]!, role: "live", order: "" };
  return undefined;
}

/** Names a folder scan reads besides `*.jsonl`/`*.ndjson`/`*.log`: the archives above. */
export const ARCHIVE_FILE = /\.jsonl\.(reset|deleted)\.[^/\\]+$|\.jsonl\.bak-\d+-\d+(\.(gz|zst))?$/i;

/** SQLite transcript stores (inputs.md §2a) as a folder scan finds them. */
export const STORE_FILE = /\.sqlite$/i;

const ROLE_RANK: Record<SessionFileRole, number> = { life: 0, live: 1, checkpoint: 2, backup: 3, trajectory: 4 };

/** Roles that only make sense beside the live transcript of the same session. */
const GROUPING_ROLES: ReadonlySet<SessionFileRole> = new Set(["trajectory", "life", "checkpoint", "backup"]);

/**
 * Groups input files into units read as one history: the files of one OpenClaw session (same
 * folder, same session id) when at least one of them has an OpenClaw-specific name (an archive, a
 * checkpoint, a backup, a sidecar) — two `x.jsonl` and `x.ndjson` event files are never joined.
 * Units keep the order of their first file; standard input and store sessions stay alone.
 */
export function groupSessionFiles(files: readonly string[]): string[][] {
  const units: string[][] = [];
  const byKey = new Map<string, SessionGroup>();
  for (const file of files) {
    const name = sessionFileName(file);
    if (name === undefined) {
      units.push([file]);
      continue;
    }
    const key = `${dirname(file)}\u0000${name.sessionId}`;
    const group = byKey.get(key);
    if (group) {
      group.unit.push(file);
      group.names.push(name);
      continue;
    }
    const unit = [file];
    byKey.set(key, { unit, names: [name] });
    units.push(unit);
  }
  const joined = joinSidecarsFromElsewhere([...byKey.values()]);
  for (const { unit, names } of byKey.values()) {
    if (unit.length < 2 || !names.some((name) => GROUPING_ROLES.has(name.role))) continue;
    const order = unit.map((file, i) => ({ file, name: names[i]!, i }));
    order.sort((a, b) => ROLE_RANK[a.name.role] - ROLE_RANK[b.name.role] || compare(a.name.order, b.name.order) || a.i - b.i);
    order.forEach((entry, i) => (unit[i] = entry.file));
  }
  return units.filter((unit) => !joined.has(unit));
}

interface SessionGroup {
  readonly unit: string[];
  readonly names: SessionFileName[];
}

const isTranscript = (name: SessionFileName) => name.role !== "trajectory";

/**
 * Moves each group of sidecars alone in their folder into the group of the same session elsewhere
 * that has transcripts and no sidecar, when exactly one such group exists (two would be a guess);
 * returns the units emptied so.
 */
function joinSidecarsFromElsewhere(groups: readonly SessionGroup[]): Set<string[]> {
  const joined = new Set<string[]>();
  const lonely = groups.filter((group) => !group.names.some(isTranscript));
  if (lonely.length === 0) return joined;
  const takers = new Map<string, SessionGroup[]>();
  for (const group of groups) {
    if (!group.names.some(isTranscript) || !group.names.every(isTranscript)) continue;
    const id = group.names[0]!.sessionId;
    takers.set(id, [...(takers.get(id) ?? []), group]);
  }
  for (const sidecars of lonely) {
    const candidates = takers.get(sidecars.names[0]!.sessionId);
    if (candidates?.length !== 1) continue;
    const [taker] = candidates;
    taker!.unit.push(...sidecars.unit);
    taker!.names.push(...sidecars.names);
    joined.add(sidecars.unit);
  }
  return joined;
}

/**
 * The session's sidecar when the unit holds it with at least one of the session's transcripts (it is
 * then read last and names their runs), else undefined.
 */
export function sidecarOfTranscripts(unit: readonly string[]): string | undefined {
  if (unit.length < 2) return undefined;
  const last = unit[unit.length - 1]!;
  if (sessionFileName(last)?.role !== "trajectory") return undefined;
  return unit.some((file) => isTranscriptFile(file)) ? last : undefined;
}

function isTranscriptFile(file: string): boolean {
  const name = sessionFileName(file);
  return name !== undefined && isTranscript(name);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The other files of `file`'s session in its folder (those a scan of the folder reads with it), for
 * a command given one file of a session (`looplens explain FILE:LINE`): its runs are then named and
 * numbered as `analyze` of the folder names them. None for a file that is no session file, or whose
 * folder cannot be listed.
 */
export async function sessionFilesBeside(file: string): Promise<string[]> {
  const name = sessionFileName(file);
  if (name === undefined) return [];
  let entries: string[];
  try {
    entries = await readdir(dirname(file));
  } catch {
    return [];
  }
  const own = basename(file);
  return entries
    .filter((entry) => entry !== own && sessionFileName(entry)?.sessionId === name.sessionId)
    .sort()
    .map((entry) => join(dirname(file), entry));
}
