/**
 * Copied entries (agents.md A1, rule 7). `--fork-session` and older `--resume` write a new file that
 * starts with the entries of the session it continues, keeping their uuids and call ids; a rewind
 * leaves the abandoned branch in the file. Every executed call is replayed once, in file order:
 * - a `tool_use` whose id an earlier line of the unit carried is a copy (not replayed again);
 * - a `tool_result` for a call already answered is a copy;
 * - a prompt or compaction whose uuid, timestamp and content an earlier *file* of the unit had is a
 *   copy (it starts no run, arms nothing). Within one file a prompt always starts a run: Claude Code
 *   appends, it does not rewrite a file's own lines, and assembled fixtures reuse placeholder uuids
 *   and timestamps for different prompts.
 * Abandoned branches are not copies: their calls were executed, and are replayed. What an earlier
 * file of the unit held (a fork read after its parent: shared/forkFamilies.ts) is counted as a
 * duplicate, a repeat within one file as a copy.
 *
 * The state lives with the unit (the files read one after another as one history), so a fork read
 * in the same unit as its original replays only what it added.
 */
import type { UnitHistory } from "../adapter.js";
import type { IdSet } from "../shared/keySets.js";

export class CopyState {
  /** Call ids seen so far: the unit's own set (shared with the other transcript readers' rule). */
  readonly callIds: IdSet;
  /** Call ids whose result was replayed. */
  readonly answered = new Set<string>();
  /** Responses (`message.id`) whose turn was counted: a fork or copy of the session holds them again. */
  readonly turnIds = new Set<string>();
  /** The call ids of this file, and those it answered: an id held only by an earlier file is a duplicate, not a copy. */
  private fileCalls = new Set<string>();
  private fileAnswers = new Set<string>();
  /** Keys of the prompts and compactions of the unit's earlier files. */
  private readonly earlierKeys = new Set<string>();
  /** This file's, joined to the earlier ones once it is read through. */
  private fileKeys: string[] = [];

  /** Only a unit of several files has earlier files (and so duplicates) to tell. */
  private readonly severalFiles: boolean;

  constructor(unit: UnitHistory) {
    this.callIds = unit.callIds;
    this.severalFiles = unit.files.length > 1;
  }

  /** Whether an earlier file of the unit held this entry (and remember it for the next files). */
  isCopy(key: string): boolean {
    if (this.earlierKeys.has(key)) return true;
    this.fileKeys.push(key);
    return false;
  }

  /** A call of this file. */
  addCall(id: string): void {
    this.callIds.add(id);
    if (this.severalFiles) this.fileCalls.add(id);
  }

  /** A result of this file replayed. */
  addAnswer(id: string): void {
    this.answered.add(id);
    if (this.severalFiles) this.fileAnswers.add(id);
  }

  /** Whether calls (or results) already replayed were all held by earlier files: duplicates, else copies in this file. */
  fromEarlierFiles(ids: ReadonlyArray<string | undefined>, of: "calls" | "answers"): boolean {
    if (!this.severalFiles) return false;
    const here = of === "calls" ? this.fileCalls : this.fileAnswers;
    return ids.every((id) => id !== undefined && !here.has(id));
  }

  /** At the end of a file. */
  commit(): void {
    for (const key of this.fileKeys) this.earlierKeys.add(key);
    this.fileKeys = [];
    this.fileCalls = new Set();
    this.fileAnswers = new Set();
  }
}

const states = new WeakMap<UnitHistory, CopyState>();

export function copyStateFor(unit: UnitHistory): CopyState {
  let state = states.get(unit);
  if (state === undefined) {
    state = new CopyState(unit);
    states.set(unit, state);
  }
  return state;
}
