/**
 * Builds OpenClaw SQLite transcript stores (inputs.md §2a) for tests, with sql.js (the library
 * looplens reads them with): `transcript_events` rows inserted in the order given (so tests can put
 * rowid order and seq order apart), JSON kept as text or zstd-compressed, and a write-ahead log made
 * from two states of one database, as a Gateway in WAL mode leaves it.
 *
 * zstd: Node 20's zlib has no zstd encoder, so blobs are zstd frames of raw (stored) blocks: valid
 * frames that any decoder must accept; the decoding of compressed blocks is fzstd's own business.
 */
import { writeFileSync } from "node:fs";
import { loadSqlJs, type SqlDatabase } from "../../src/adapters/openclaw/sqliteStore.js";

export interface StoreRow {
  readonly session: string;
  readonly seq: number;
  /** The JSON text, or null. */
  readonly json?: string | null;
  /** Compressed JSON (see zstdFrame), or null. */
  readonly zstd?: Uint8Array | null;
  readonly createdAt?: number;
}

export interface StoreSpec {
  readonly rows: readonly StoreRow[];
  /** Without an event_zstd column (older schema). */
  readonly withoutZstd?: boolean;
  /** session_windows rows: [session_id, session_key]. */
  readonly windows?: ReadonlyArray<readonly [string, string]>;
}

type Database = SqlDatabase & { run(sql: string, values?: unknown[]): void; export(): Uint8Array };

async function newDatabase(): Promise<Database> {
  const { Database } = await loadSqlJs();
  return new Database() as Database;
}

/** Fills `db` as a store; the same statements as the writer would run. */
export function fillStore(db: Database, spec: StoreSpec): void {
  const zstd = spec.withoutZstd ? "" : ", event_zstd BLOB";
  db.run(`CREATE TABLE transcript_events (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT${zstd}, created_at INTEGER NOT NULL)`);
  db.run("CREATE UNIQUE INDEX transcript_events_session_seq ON transcript_events (session_id, seq)");
  db.run("CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT, opened_at INTEGER)");
  insertRows(db, spec.rows, !spec.withoutZstd);
  for (const [id, key] of spec.windows ?? []) db.run("INSERT INTO session_windows VALUES (?, ?, 0)", [id, key]);
}

export function insertRows(db: Database, rows: readonly StoreRow[], withZstd = true): void {
  for (const row of rows) {
    const values: unknown[] = [row.session, row.seq, row.json ?? null, row.createdAt ?? row.seq];
    if (withZstd) values.push(row.zstd ?? null);
    db.run(`INSERT INTO transcript_events (session_id, seq, event_json, created_at${withZstd ? ", event_zstd" : ""}) VALUES (?, ?, ?, ?${withZstd ? ", ?" : ""})`, values);
  }
}

/** Writes a store built from `spec` to `path`. */
export async function writeStore(path: string, spec: StoreSpec): Promise<void> {
  const db = await newDatabase();
  fillStore(db, spec);
  writeFileSync(path, db.export());
  db.close();
}

/** Writes an SQLite database that is not a store (other tables only). */
export async function writeOtherDatabase(path: string, sql: string): Promise<void> {
  const db = await newDatabase();
  db.run(sql);
  writeFileSync(path, db.export());
  db.close();
}

/** Rows of a transcript, one per line, in seq order from 1; every `zstdEvery`-th row compressed. */
export function rowsOfTranscript(session: string, text: string, zstdEvery = 0): StoreRow[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line, i) => (zstdEvery > 0 && i % zstdEvery === zstdEvery - 1 ? { session, seq: i + 1, zstd: zstdFrame(line) } : { session, seq: i + 1, json: line }));
}

/** A zstd frame holding `text` in raw blocks (see the module comment). */
export function zstdFrame(text: string | Uint8Array): Uint8Array {
  const data = typeof text === "string" ? Buffer.from(text) : Buffer.from(text);
  // Magic, then a frame header: single segment, 4-byte content size, no checksum.
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0]), Buffer.alloc(4)];
  parts[1]!.writeUInt32LE(data.length);
  const MAX_BLOCK = 128 * 1024;
  let at = 0;
  do {
    const size = Math.min(MAX_BLOCK, data.length - at);
    const last = at + size >= data.length ? 1 : 0;
    const header = (size << 3) | last; // block type 0: raw
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), data.subarray(at, at + size));
    at += size;
  } while (at < data.length);
  return Buffer.concat(parts);
}

/**
 * A database in WAL mode whose log holds what `later` changed against `earlier`: `earlier`'s bytes
 * (marked WAL mode) as the file, and `<file>-wal` with the changed pages of `later` as one committed
 * transaction, followed by `uncommitted` pages of a transaction still open (frames without commit).
 * Checksums are little-endian (magic 0x377f0682), as SQLite writes them on x86.
 */
export function walStore(earlier: Uint8Array, later: Uint8Array, uncommitted: readonly Uint8Array[] = []): { db: Buffer; wal: Buffer } {
  const db = Buffer.from(earlier);
  db[18] = 2;
  db[19] = 2;
  const pageSize = db.readUInt16BE(16) === 1 ? 65536 : db.readUInt16BE(16);
  const next = Buffer.from(later);
  const pages = next.length / pageSize;
  const changed: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const a = db.subarray((p - 1) * pageSize, p * pageSize);
    const b = next.subarray((p - 1) * pageSize, p * pageSize);
    // Page 1 always differs (bytes 18-19): the log's copy of it keeps WAL mode, as SQLite's does.
    if (p === 1 || !a.equals(b)) changed.push(p);
  }
  const header = Buffer.alloc(32);
  header.writeUInt32BE(0x377f0682, 0);
  header.writeUInt32BE(3007000, 4);
  header.writeUInt32BE(pageSize, 8);
  header.writeUInt32BE(1, 12);
  header.writeUInt32BE(0x1234abcd, 16);
  header.writeUInt32BE(0x5678ef01, 20);
  let sum = walChecksum(header.subarray(0, 24), [0, 0]);
  header.writeUInt32BE(sum[0], 24);
  header.writeUInt32BE(sum[1], 28);
  const frames: Buffer[] = [header];
  const frame = (page: number, data: Buffer, commitPages: number) => {
    const head = Buffer.alloc(24);
    head.writeUInt32BE(page, 0);
    head.writeUInt32BE(commitPages, 4);
    header.copy(head, 8, 16, 24); // salts
    sum = walChecksum(data, walChecksum(head.subarray(0, 8), sum));
    head.writeUInt32BE(sum[0], 16);
    head.writeUInt32BE(sum[1], 20);
    frames.push(head, data);
  };
  changed.forEach((p, i) => {
    const data = Buffer.from(next.subarray((p - 1) * pageSize, p * pageSize));
    if (p === 1) data[18] = data[19] = 2;
    frame(p, data, i === changed.length - 1 ? pages : 0);
  });
  uncommitted.forEach((data, i) => frame(i + 1, Buffer.from(data), 0));
  return { db, wal: Buffer.concat(frames) };
}

function walChecksum(bytes: Buffer, [s1, s2]: readonly number[]): [number, number] {
  let a = s1!;
  let b = s2!;
  for (let i = 0; i < bytes.length; i += 8) {
    a = (a + bytes.readUInt32LE(i) + b) >>> 0;
    b = (b + bytes.readUInt32LE(i + 4) + a) >>> 0;
  }
  return [a, b];
}

/** Two states of one store for walStore: `first` rows, then `first` + `more`. */
export async function storeStates(first: StoreSpec, more: readonly StoreRow[]): Promise<{ earlier: Uint8Array; later: Uint8Array }> {
  const db = await newDatabase();
  fillStore(db, first);
  const earlier = db.export();
  insertRows(db, more, !first.withoutZstd);
  const later = db.export();
  db.close();
  return { earlier, later };
}
