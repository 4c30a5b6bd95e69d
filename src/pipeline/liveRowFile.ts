/**
 * The file a live run book writes its oldest rows to (core/liveRowSpill.ts): one JSON line per
 * row, appended in batches, in the analysis's spill folder (runSpill.ts `withSpillFolder`), which is
 * removed when the command is done. A batch is named by its file and byte range, so the book of the
 * main thread reads a worker's batches as its own.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { LiveRowBatchRef, LiveRowStore } from "../core/liveRowSpill.js";
import type { LiveRowRecord } from "../core/liveRunTable.js";
import { SegmentReader } from "./spillFiles.js";

/** A record as a JSON array (a third of the bytes of an object, and quicker to write and parse). */
type RecordLine = [string, string, string | null, string | null, number, number, number, number, 0 | 1, 0 | 1, number | null];

function toLine(r: LiveRowRecord): RecordLine {
  return [r.run, r.file, r.agent, r.session, r.calls, r.compactions, r.armed, r.windowsClosed, r.started ? 1 : 0, r.ended ? 1 : 0, r.startedAt ?? null];
}

function fromLine([run, file, agent, session, calls, compactions, armed, windowsClosed, started, ended, startedAt]: RecordLine): LiveRowRecord {
  return { run, file, agent, session, calls, compactions, armed, windowsClosed, started: started === 1, ended: ended === 1, startedAt: startedAt ?? undefined };
}

/** Files made by this thread so far: each book has its own. */
let made = 0;

export class LiveRowFile implements LiveRowStore {
  private readonly path: string;
  private length = 0;

  constructor(dir: string) {
    this.path = join(dir, `live-${threadId}-${made++}.ndjson`);
  }

  write(records: readonly LiveRowRecord[]): LiveRowBatchRef {
    const bytes = Buffer.from(records.map((record) => `${JSON.stringify(toLine(record))}\n`).join(""));
    const start = this.length;
    // Opened for each batch: batches are thousands of rows apart, and no descriptor is left open.
    const fd = openSync(this.path, start === 0 ? "w" : "r+");
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, start + done);
    } finally {
      closeSync(fd);
    }
    this.length += bytes.length;
    return { path: this.path, start, end: this.length };
  }

  *read(batch: LiveRowBatchRef): Generator<LiveRowRecord> {
    const reader = new SegmentReader();
    try {
      for (const line of reader.lines({ path: String(batch.path), start: Number(batch.start), end: Number(batch.end) })) yield fromLine(JSON.parse(line) as RecordLine);
    } finally {
      reader.close();
    }
  }
}
