/**
 * Tool-call history (spec: detection.md "History"): one list per session, trimmed to the newest
 * `historySize` records after every append. Detection and outcome matching only look at records of
 * the same run, but records of other runs of the session still take window slots, as in the runtime.
 */

export interface CallRecord {
  readonly tool: string;
  readonly argsHash: string;
  readonly callId?: string;
  readonly run: string;
  resultHash?: string;
  unknownTool?: string;
}

export class SessionHistory {
  private records: CallRecord[] = [];

  /**
   * Records of one run, oldest first (read-only). Usually every record is of that run (one run of
   * the session at a time): the list itself is returned then, not a filtered copy per call.
   */
  forRun(run: string): readonly CallRecord[] {
    const records = this.records;
    for (let i = 0; i < records.length; i++) {
      if (records[i]!.run !== run) return records.filter((record) => record.run === run);
    }
    return records;
  }

  append(record: CallRecord, historySize: number): void {
    const records = this.records;
    records.push(record);
    // Once the window is full every append drops one record: `shift` moves the array's start and
    // allocates nothing, where `splice` makes an array of what it removes.
    if (records.length === historySize + 1) records.shift();
    else if (records.length > historySize) records.splice(0, records.length - historySize);
  }

  /**
   * Attaches an outcome to the newest unanswered record of the run with the same call id (when the
   * outcome has one), tool and args hash; appends a new record carrying it when none matches.
   */
  attachOutcome(record: Required<Pick<CallRecord, "resultHash">> & CallRecord, historySize: number): void {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const candidate = this.records[i]!;
      if (candidate.run !== record.run) continue;
      if (record.callId !== undefined && candidate.callId !== record.callId) continue;
      if (candidate.tool !== record.tool || candidate.argsHash !== record.argsHash) continue;
      if (candidate.resultHash !== undefined) continue;
      candidate.resultHash = record.resultHash;
      if (record.unknownTool !== undefined) candidate.unknownTool = record.unknownTool;
      return;
    }
    this.append({ ...record }, historySize);
  }

  get size(): number {
    return this.records.length;
  }
}
