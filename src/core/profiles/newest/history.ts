/**
 * The newest generation's tool-call history (generations.md §2): one list per session, trimmed to
 * the newest 30 records after every append. Unlike the default generation a loop veto is stored (as
 * a record with outcome kind `tool-loop-veto` and no hash), so vetoes can extend no-progress streaks.
 */
import type { OutcomeKind } from "../../hashing.js";

/** The fixed history size of the newest generation (numeric tuning was retired, OpenClaw #111382). */
export const NEWEST_HISTORY_SIZE = 30;

export interface NewestRecord {
  readonly tool: string;
  readonly argsHash: string;
  /** `write` calls with a path: the file they change (argument churn of writes, §6 b). */
  readonly mutationTarget?: string;
  readonly callId?: string;
  readonly run: string;
  resultHash?: string;
  outcomeKind?: OutcomeKind;
  failureIdentity?: string;
  noProgress?: boolean;
  unknownTool?: string;
}

/** What an outcome adds to its record. */
export type RecordedOutcome = Pick<NewestRecord, "resultHash" | "outcomeKind" | "failureIdentity" | "noProgress" | "unknownTool">;

const isAnswered = (record: NewestRecord) => record.resultHash !== undefined || record.outcomeKind !== undefined;

type MutableRecord = { -readonly [K in keyof NewestRecord]: NewestRecord[K] };

/**
 * A record with every field present, in one order (unset ones `undefined`): all records then share
 * one hidden class whatever their call and outcome set. Records that took fields as they came had a
 * dozen shapes, and the optimised verdict walks (measureNewest) were thrown away on a new one
 * ("wrong map" deoptimisation) and compiled again (bench, newest profile).
 */
export function newRecord(run: string, tool: string, argsHash: string, callId: string | undefined, mutationTarget: string | undefined): MutableRecord {
  return {
    tool,
    argsHash,
    mutationTarget,
    callId,
    run,
    resultHash: undefined,
    outcomeKind: undefined,
    failureIdentity: undefined,
    noProgress: undefined,
    unknownTool: undefined,
  };
}

export class NewestHistory {
  private records: NewestRecord[] = [];
  /** The run of the newest record, and how many records at the end are of it: mostly all of them. */
  private lastRun: string | undefined;
  private lastRunTail = 0;

  /** Whether every record is of this run (kept as records are appended: no walk per call). */
  private allOf(run: string): boolean {
    return run === this.lastRun && this.lastRunTail === this.records.length;
  }

  /** How many records are of this run (without making the list: most calls need only the count). */
  countFor(run: string): number {
    if (this.allOf(run)) return this.records.length;
    let count = 0;
    for (const record of this.records) if (record.run === run) count++;
    return count;
  }

  /** Records of one run, oldest first: the list itself when every record is of that run. */
  forRun(run: string): readonly NewestRecord[] {
    return this.allOf(run) ? this.records : this.records.filter((record) => record.run === run);
  }

  append(record: NewestRecord): void {
    this.records.push(record);
    if (record.run === this.lastRun) this.lastRunTail++;
    else {
      this.lastRun = record.run;
      this.lastRunTail = 1;
    }
    if (this.records.length > NEWEST_HISTORY_SIZE) {
      this.records.splice(0, this.records.length - NEWEST_HISTORY_SIZE);
      this.lastRunTail = Math.min(this.lastRunTail, this.records.length);
    }
  }

  /**
   * Attaches an outcome to the newest record of the run with the same call id (when the outcome has
   * one), tool and args hash that has neither a hash nor a kind yet; appends a new record when none
   * matches. An outcome with neither (an absent result) is not stored at all.
   */
  attachOutcome(run: string, call: Pick<NewestRecord, "tool" | "argsHash" | "callId" | "mutationTarget">, outcome: RecordedOutcome): void {
    if (outcome.resultHash === undefined && outcome.outcomeKind === undefined) return;
    for (let i = this.records.length - 1; i >= 0; i--) {
      const candidate = this.records[i]!;
      if (candidate.run !== run) continue;
      if (call.callId !== undefined && candidate.callId !== call.callId) continue;
      if (candidate.tool !== call.tool || candidate.argsHash !== call.argsHash || isAnswered(candidate)) continue;
      assignDefined(candidate, outcome);
      return;
    }
    const record = newRecord(run, call.tool, call.argsHash, call.callId, call.mutationTarget);
    assignDefined(record, outcome);
    this.append(record);
  }
}

/**
 * Sets the outcome's fields that are set on the record (absent ones must not overwrite); assigned one
 * by one, not through a copy: this runs once per outcome (bench/).
 */
function assignDefined(record: RecordedOutcome, outcome: RecordedOutcome): void {
  const fields = record as { -readonly [K in keyof RecordedOutcome]: RecordedOutcome[K] };
  if (outcome.resultHash !== undefined) fields.resultHash = outcome.resultHash;
  if (outcome.outcomeKind !== undefined) fields.outcomeKind = outcome.outcomeKind;
  if (outcome.failureIdentity !== undefined) fields.failureIdentity = outcome.failureIdentity;
  if (outcome.noProgress === true) fields.noProgress = true;
  if (outcome.unknownTool !== undefined) fields.unknownTool = outcome.unknownTool;
}
