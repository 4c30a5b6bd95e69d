/**
 * The SQLite transcript store of newer OpenClaw builds (inputs.md §2a):
 * `agents/<agentId>/agent/openclaw-agent.sqlite`, one `transcript_events` row per transcript line,
 * each session's rows (by `seq`) read as one transcript named `<db path>#<session_id>`.
 *
 * Library: sql.js 1.17.0 (SQLite in WebAssembly, no install script, no native code), chosen by
 * measurement against node-sqlite3-wasm 0.8.60; Node 20 has no `node:sqlite` (22.5+), and
 * better-sqlite3 needs a compiler or a binary from outside the registry. On a store of 50 sessions,
 * 50k rows, 120 MB of JSON (10% of rows zstd), 153 MB file, rows in shuffled rowid order, listing the
 * sessions then reading each in seq order with zstd rows decoded (2 cores, shared):
 *   sql.js             open+list 181 ms, 77k rows/s, 184 MB/s, peak RSS 236 MB
 *   node-sqlite3-wasm  open+list 112 ms, 52k rows/s, 124 MB/s, peak RSS 110 MB
 * node-sqlite3-wasm reads pages from the file and so needs less memory, but it writes: every read
 * transaction creates and removes a `<db>.lock` directory beside the database (left behind when
 * looplens is killed, so that the next run is "busy"), and it cannot open a WAL-mode database
 * read-only, which is how a running Gateway keeps it. sql.js opens an in-memory image instead
 * (sqliteImage.ts: the file and its `-wal`, read with no lock and no write): memory is ~1.5x the
 * file while a store is open, and one store is kept open at a time (`releaseStores`).
 *
 * sql.js is loaded on first use: its 62 KB of JavaScript is bundled (scripts/bundle.mjs) but only
 * run then, and its 690 KB of WebAssembly is read then, so they cost nothing to runs that read no store.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError, type LineSource } from "../io/lineSource.js";
import { asStoreError, readDatabaseImage, SQLITE_MAGIC } from "./sqliteImage.js";
import { rowLines, type SqlDatabase, type StoreRows } from "./sqliteRows.js";

export type { SqlDatabase, StoreLineProblem } from "./sqliteRows.js";

interface SqlJs {
  Database: new (data?: Uint8Array) => SqlDatabase;
}

let sqlJs: Promise<SqlJs> | undefined;

/** sql.js, initialised once; its WebAssembly is handed over as bytes, so sql.js itself looks for no file. */
export function loadSqlJs(): Promise<SqlJs> {
  sqlJs ??= import("sql.js").then(async ({ default: init }) => (await init({ wasmBinary: readFileSync(sqlWasmPath()) })) as SqlJs);
  return sqlJs;
}

/**
 * sql-wasm.wasm: beside the bundle (dist/bundle/, where scripts/bundle.mjs copies it: an installed
 * package has no node_modules), else sql.js's own copy (src/ run by the tests, or dist/ unbundled).
 */
function sqlWasmPath(): string {
  const besideBundle = fileURLToPath(new URL("./sql-wasm.wasm", import.meta.url));
  return existsSync(besideBundle) ? besideBundle : createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm");
}

/** True when the file starts with the SQLite magic "SQLite format 3\0". */
export async function isSqliteFile(path: string): Promise<boolean> {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_MAGIC);
  } catch {
    return false; // a folder or an unreadable path is not a store; reading it says why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An open store: its database and what its tables turned out to hold. */
interface Store extends StoreRows {
  readonly path: string;
  /** Sources reading it right now: it is closed only when none is. */
  users: number;
  evicted: boolean;
}

const TABLE = "transcript_events";
/** The store most recently opened, by resolved path (one at a time: each holds its whole file). */
let current: { key: string; store: Promise<Store> } | undefined;

function columnsOf(db: SqlDatabase, table: string): Set<string> {
  const statement = db.prepare(`PRAGMA table_info(${table})`);
  const names = new Set<string>();
  try {
    while (statement.step()) names.add(String(statement.get()[1]).toLowerCase());
  } finally {
    statement.free();
  }
  return names;
}

async function openStore(dbPath: string): Promise<Store> {
  const { Database } = await loadSqlJs();
  const image = readDatabaseImage(dbPath);
  let db: SqlDatabase | undefined;
  try {
    db = new Database(image.bytes);
    const columns = columnsOf(db, TABLE);
    if (columns.size === 0) throw new InputError(`${dbPath}: not an OpenClaw transcript store (no ${TABLE} table)`);
    const missing = ["session_id", "seq"].filter((name) => !columns.has(name));
    if (!columns.has("event_json") && !columns.has("event_zstd")) missing.push("event_json or event_zstd");
    if (missing.length > 0) throw new InputError(`${dbPath}: table ${TABLE} cannot be read: no ${missing.join(", no ")} column`);
    const windows = columnsOf(db, "session_windows");
    return {
      path: dbPath,
      db,
      hasJson: columns.has("event_json"),
      hasZstd: columns.has("event_zstd"),
      hasCreatedAt: columns.has("created_at"),
      hasSessionKeys: windows.has("session_id") && windows.has("session_key"),
      users: 0,
      evicted: false,
    };
  } catch (error) {
    db?.close();
    throw asStoreError(dbPath, error);
  }
}

/** Runs `use` with the store open; a store replaced meanwhile by another one is closed after its last user. */
async function withStore<T>(dbPath: string, use: (store: Store) => Promise<T> | T): Promise<T> {
  const key = resolve(dbPath);
  if (current?.key !== key) {
    const previous = current;
    const opening = openStore(dbPath);
    current = { key, store: opening };
    opening.catch(() => current?.store === opening && (current = undefined));
    if (previous) void previous.store.then(evict, () => undefined);
  }
  const store = await current!.store;
  store.users++;
  try {
    return await use(store);
  } finally {
    store.users--;
    if (store.evicted && store.users === 0) store.db.close();
  }
}

function evict(store: Store): void {
  store.evicted = true;
  if (store.users === 0) store.db.close();
}

/** Closes the open store (its memory is freed); the next call opens it again. For callers done with a store. */
export async function releaseStores(): Promise<void> {
  const last = current;
  current = undefined;
  if (last) await last.store.then(evict, () => undefined);
}

/** Rows of a query, each as an array of column values. */
function* rowsOf(db: SqlDatabase, sql: string, values: readonly unknown[] = []): Generator<unknown[]> {
  const statement = db.prepare(sql);
  try {
    statement.bind(values);
    while (statement.step()) yield statement.get();
  } finally {
    statement.free();
  }
}

/** The session ids of a transcript store, in a stable order (first seq/created_at, then id); InputError naming the db if it is not a store. */
export async function storeSessions(dbPath: string): Promise<string[]> {
  return withStore(dbPath, ({ db, hasCreatedAt }) => {
    // seq may count per session or across the store: with per-session counts every session starts
    // at the same seq and its first row's created_at orders them; the id last keeps equal ones
    // stable. created_at is taken from one row per session: it is stored after the JSON, so reading
    // it from every row would walk every row's overflow pages (MIN(created_at) tripled the listing).
    const firstAt = hasCreatedAt ? `(SELECT created_at FROM ${TABLE} t WHERE t.session_id = g.session_id AND t.seq = g.first LIMIT 1), ` : "";
    const sessions = `SELECT session_id, MIN(seq) AS first FROM ${TABLE} WHERE session_id IS NOT NULL GROUP BY session_id`;
    const sql = `SELECT g.session_id FROM (${sessions}) g ORDER BY g.first, ${firstAt}g.session_id`;
    try {
      return Array.from(rowsOf(db, sql), (row) => String(row[0]));
    } catch (error) {
      throw asStoreError(dbPath, error);
    }
  });
}

/** The session key of a session from session_windows (`agent:<agentId>:…`), if any (for the agent id). */
export async function storeSessionKey(dbPath: string, sessionId: string): Promise<string | undefined> {
  return withStore(dbPath, ({ db, hasSessionKeys }) => {
    if (!hasSessionKeys) return undefined;
    const sql = "SELECT session_key FROM session_windows WHERE session_id = ? AND session_key IS NOT NULL LIMIT 1";
    try {
      for (const [key] of rowsOf(db, sql, [sessionId])) return typeof key === "string" ? key : undefined;
      return undefined;
    } catch (error) {
      throw asStoreError(dbPath, error);
    }
  });
}

/**
 * One session's rows as a LineSource: file = `${dbPath}#${sessionId}`, lines in seq order, each row's
 * JSON one line; `size` = the bytes stored for its rows (zstd rows counted compressed, as a file's
 * size is), which is also what `onBytes` reports. Each read runs the query again on the open store,
 * so that rows are never all in memory at once; two reads of one snapshot give the same lines.
 */
export async function storeSessionSource(dbPath: string, sessionId: string): Promise<LineSource> {
  const size = await withStore(dbPath, (store) => {
    const stored = [store.hasJson ? "LENGTH(CAST(event_json AS BLOB))" : "0", store.hasZstd ? "LENGTH(event_zstd)" : "0"];
    try {
      for (const [bytes] of rowsOf(store.db, `SELECT SUM(COALESCE(${stored.join(", 0) + COALESCE(")}, 0)) FROM ${TABLE} WHERE session_id = ?`, [sessionId])) {
        return typeof bytes === "number" ? bytes : 0;
      }
      return 0;
    } catch (error) {
      throw asStoreError(dbPath, error);
    }
  });
  const file = `${dbPath}#${sessionId}`;
  const lines = (handler: Parameters<typeof rowLines>[3], options: Parameters<typeof rowLines>[4]) =>
    withStore(dbPath, (store) => rowLines(store, dbPath, sessionId, handler, options));
  return {
    file,
    size,
    forEachRawLine: (handler, options) => lines({ raw: handler }, options),
    forEachLine: (handler, options) => lines({ text: handler }, options),
  };
}
