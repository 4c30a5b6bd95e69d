/**
 * A session's `transcript_events` rows handed over as lines, as a file source hands over its lines
 * (lineSource.ts): line numbers from 1 in seq order, every line terminated, undecoded bytes for a
 * raw handler, UTF-8 text (a BOM removed, invalid bytes flagged) for a text handler.
 *
 * A row that yields no JSON text (event_json and event_zstd both NULL, or a zstd blob that does not
 * decode) is still a line, so that the summary accounts for it: it is handed over as
 * an unreadable line (io/lineSource.ts `unreadableLine`), which every adapter skips as a bad line
 * with the reason; a text handler also gets `problem.unreadable` = the reason.
 */
import { decompress } from "fzstd";
import { currentLineLimit, LINE_HEAD_BYTES, TOO_LONG_LINE, unreadableLine, type LineHandler, type LineProblem, type RawLineHandler, type ReadOptions } from "../io/lineSource.js";
import { decodeLine, tooLongProblem } from "../io/decoding.js";
import { asStoreError } from "./sqliteImage.js";

/** The part of sql.js used here (its package has no types of its own). */
export interface SqlStatement {
  bind(values?: readonly unknown[]): boolean;
  step(): boolean;
  get(): unknown[];
  free(): boolean;
}
export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  close(): void;
}

/** What the reader needs of an open store. */
export interface StoreRows {
  readonly db: SqlDatabase;
  readonly hasJson: boolean;
  readonly hasZstd: boolean;
  readonly hasCreatedAt: boolean;
  readonly hasSessionKeys: boolean;
}

/** A row that holds no readable JSON: why (see the module comment). */
export interface StoreLineProblem extends LineProblem {
  readonly unreadable: string;
}

/** Yield to the event loop after this many bytes, as file reads do every few MB. */
const YIELD_BYTES = 4 << 20;

type Row = { bytes: Buffer; stored: number } | { unreadable: string; stored: number };

function rowOf(json: unknown, zstd: unknown, seq: unknown): Row {
  if (json instanceof Uint8Array) return { bytes: Buffer.from(json.buffer, json.byteOffset, json.byteLength), stored: json.byteLength };
  if (zstd instanceof Uint8Array) {
    try {
      const bytes = decompress(zstd);
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), stored: zstd.byteLength };
    } catch (error) {
      return { unreadable: `seq ${String(seq)}: event_zstd is not valid zstd data (${(error as Error)?.message ?? error})`, stored: zstd.byteLength };
    }
  }
  return { unreadable: `seq ${String(seq)}: event_json and event_zstd are both NULL`, stored: 0 };
}

export type RowHandler = { readonly raw: RawLineHandler } | { readonly text: LineHandler };

/** Hands one session's rows to `handler`, in seq order; stops when it returns false. */
export async function rowLines(store: StoreRows, dbPath: string, sessionId: string, handler: RowHandler, options: ReadOptions = {}): Promise<void> {
  const { onBytes, maxLineBytes = currentLineLimit() } = options;
  // CAST AS BLOB: the stored bytes as they are, so that invalid UTF-8 is flagged as in a file rather
  // than replaced unseen by the library's decoding.
  const json = store.hasJson ? "CAST(event_json AS BLOB)" : "NULL";
  const zstd = store.hasZstd ? "CAST(event_zstd AS BLOB)" : "NULL";
  const statement = store.db.prepare(`SELECT ${json}, ${zstd}, seq FROM transcript_events WHERE session_id = ? ORDER BY seq`);
  try {
    statement.bind([sessionId]);
    let sinceYield = 0;
    for (let lineNo = 1; statement.step(); lineNo++) {
      const [jsonValue, zstdValue, seq] = statement.get();
      const row = rowOf(jsonValue, zstdValue, seq);
      if (handOver(handler, row, lineNo, maxLineBytes) === false) return;
      onBytes?.(row.stored);
      sinceYield += row.stored;
      if (sinceYield >= YIELD_BYTES) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    throw asStoreError(dbPath, error);
  } finally {
    statement.free();
  }
}

function handOver(handler: RowHandler, row: Row, lineNo: number, maxLineBytes: number): boolean | void {
  if ("unreadable" in row) {
    const text = unreadableLine(`row of the transcript store: ${row.unreadable}`);
    if ("raw" in handler) {
      const bytes = Buffer.from(text);
      return handler.raw(bytes, 0, bytes.length, lineNo, true);
    }
    const problem: StoreLineProblem = { unreadable: row.unreadable };
    return handler.text(text, lineNo, true, problem);
  }
  const { bytes } = row;
  if (bytes.length > maxLineBytes) {
    const head = Math.min(bytes.length, LINE_HEAD_BYTES);
    return "raw" in handler ? handler.raw(bytes, 0, head, lineNo, true, bytes.length) : handler.text(TOO_LONG_LINE, lineNo, true, tooLongProblem(bytes.length, bytes, 0, head));
  }
  if ("raw" in handler) return handler.raw(bytes, 0, bytes.length, lineNo, true);
  const { text, problem } = decodeLine(bytes, 0, bytes.length);
  return handler.text(text, lineNo, true, problem);
}
