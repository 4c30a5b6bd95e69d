import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandPaths } from "../../../src/adapters/discovery.js";
import { unusableReason } from "../../../src/adapters/unusableInput.js";
import { InputError, type LineProblem } from "../../../src/adapters/io/lineSource.js";
import {
  STORE_ROW_PROBLEM_PREFIX,
  isSqliteFile,
  releaseStores,
  storeSessionKey,
  storeSessionSource,
  storeSessions,
  type StoreLineProblem,
} from "../../../src/adapters/openclaw/sqliteStore.js";
import { rowsOfTranscript, storeStates, walStore, writeOtherDatabase, writeStore, zstdFrame, type StoreRow } from "../../helpers/sqliteStoreBuilder.js";
import { requireProgram } from "../../helpers/systemProgram.js";
import { tempDir } from "../../helpers/tempDir.js";

const storeDir = () => tempDir("looplens-store-");
const line = (session: string, seq: number) => JSON.stringify({ type: "message", id: `${session}-${seq}`, parentId: null, n: seq, text: "é ✓" });

async function linesOf(dbPath: string, session: string): Promise<Array<{ text: string; lineNo: number; terminated: boolean; problem?: LineProblem }>> {
  const out: Array<{ text: string; lineNo: number; terminated: boolean; problem?: LineProblem }> = [];
  const source = await storeSessionSource(dbPath, session);
  await source.forEachLine((text, lineNo, terminated, problem) => void out.push(problem ? { text, lineNo, terminated, problem } : { text, lineNo, terminated }));
  return out;
}

/** Two sessions, rows inserted in reverse seq order (rowid order is the opposite of seq order), some compressed. */
function twoSessions(): StoreRow[] {
  const rows: StoreRow[] = [];
  for (let seq = 1; seq <= 6; seq++) rows.push({ session: "s-b", seq, createdAt: 2000 + seq, ...(seq % 3 === 0 ? { zstd: zstdFrame(line("s-b", seq)) } : { json: line("s-b", seq) }) });
  for (let seq = 1; seq <= 4; seq++) rows.push({ session: "s-a", seq, createdAt: 1000 + seq, ...(seq === 2 ? { zstd: zstdFrame(line("s-a", seq)) } : { json: line("s-a", seq) }) });
  return rows.reverse();
}

afterEach(() => releaseStores());

describe("SQLite transcript store", () => {
  it("a folder scan opens only files named as stores; a path given by name is a store by its magic", async () => {
    const dir = storeDir();
    await writeStore(join(dir, "a.sqlite"), { rows: twoSessions() });
    await writeStore(join(dir, "b.jsonl"), { rows: twoSessions() }); // a store renamed as a line file
    await writeStore(join(dir, "c.db"), { rows: twoSessions() }); // not an input by its name
    expect(await expandPaths([dir])).toEqual([join(dir, "a.sqlite#s-a"), join(dir, "a.sqlite#s-b"), join(dir, "b.jsonl")]);
    expect(await expandPaths([join(dir, "b.jsonl"), join(dir, "c.db")])).toEqual([join(dir, "b.jsonl#s-a"), join(dir, "b.jsonl#s-b"), join(dir, "c.db#s-a"), join(dir, "c.db#s-b")]);
    expect(await expandPaths([dir], { expandStores: false })).toEqual([join(dir, "a.sqlite"), join(dir, "b.jsonl")]);
    // Read as a line file, the renamed store is one unusable file that says how to read it.
    expect(await unusableReason(join(dir, "b.jsonl"), [])).toMatch(/^a SQLite database \(a folder scan reads only \*\.sqlite files as transcript stores: name the file to read it as one\); skipped$/);
  });

  it("recognises SQLite files by their magic", async () => {
    const dir = storeDir();
    await writeStore(join(dir, "a.sqlite"), { rows: twoSessions() });
    writeFileSync(join(dir, "b.jsonl"), `${line("x", 1)}\n`);
    expect(await isSqliteFile(join(dir, "a.sqlite"))).toBe(true);
    expect(await isSqliteFile(join(dir, "b.jsonl"))).toBe(false);
    expect(await isSqliteFile(join(dir, "missing.sqlite"))).toBe(false);
    expect(await isSqliteFile(dir)).toBe(false);
  });

  it("lists sessions by their first row and reads each in seq order, zstd rows decoded", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: twoSessions() });
    // Both start at seq 1: s-a's first row was created first.
    expect(await storeSessions(dbPath)).toEqual(["s-a", "s-b"]);
    const b = await linesOf(dbPath, "s-b");
    expect(b).toEqual([1, 2, 3, 4, 5, 6].map((seq) => ({ text: line("s-b", seq), lineNo: seq, terminated: true })));
    expect((await linesOf(dbPath, "s-a")).map((l) => l.text)).toEqual([1, 2, 3, 4].map((seq) => line("s-a", seq)));
  });

  it("names the source <db>#<session> and sizes it by the stored bytes, which onBytes counts too", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    const rows = twoSessions();
    await writeStore(dbPath, { rows });
    const source = await storeSessionSource(dbPath, "s-b");
    expect(source.file).toBe(`${dbPath}#s-b`);
    const stored = rows.filter((r) => r.session === "s-b").reduce((sum, r) => sum + (r.json !== undefined ? Buffer.byteLength(r.json!) : r.zstd!.length), 0);
    expect(source.size).toBe(stored);
    let counted = 0;
    await source.forEachLine(() => undefined, { onBytes: (bytes) => void (counted += bytes) });
    expect(counted).toBe(stored);
  });

  it("hands the same lines undecoded to a raw handler, and stops when a handler returns false", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: twoSessions() });
    const source = await storeSessionSource(dbPath, "s-b");
    const raw: string[] = [];
    await source.forEachRawLine!((bytes, start, end, lineNo, terminated) => void raw.push(`${lineNo}${terminated}:${bytes.toString("utf8", start, end)}`));
    expect(raw).toEqual([1, 2, 3, 4, 5, 6].map((seq) => `${seq}true:${line("s-b", seq)}`));
    const seen: number[] = [];
    await source.forEachLine((_text, lineNo) => (seen.push(lineNo), lineNo < 2));
    expect(seen).toEqual([1, 2]);
  });

  it("reads a store without an event_zstd column", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    await writeStore(dbPath, { withoutZstd: true, rows: [3, 1, 2].map((seq) => ({ session: "old", seq, json: line("old", seq) })) });
    expect((await linesOf(dbPath, "old")).map((l) => l.text)).toEqual([1, 2, 3].map((seq) => line("old", seq)));
  });

  it("hands rows without JSON and corrupt zstd blobs over as bad lines that say why", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    const corrupt = zstdFrame(line("s", 3)).subarray(0, 12);
    await writeStore(dbPath, { rows: [{ session: "s", seq: 1, json: line("s", 1) }, { session: "s", seq: 2 }, { session: "s", seq: 3, zstd: corrupt }] });
    const lines = await linesOf(dbPath, "s");
    expect(lines.map((l) => l.lineNo)).toEqual([1, 2, 3]);
    for (const bad of lines.slice(1)) {
      expect(bad.text.startsWith(STORE_ROW_PROBLEM_PREFIX)).toBe(true);
      expect(() => JSON.parse(bad.text)).toThrow();
    }
    expect((lines[1]!.problem as StoreLineProblem).unreadable).toBe("seq 2: event_json and event_zstd are both NULL");
    expect((lines[2]!.problem as StoreLineProblem).unreadable).toMatch(/^seq 3: event_zstd is not valid zstd data/);
  });

  it("gives the session key from session_windows, when there is one", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: twoSessions(), windows: [["s-a", "agent:ops:main"]] });
    expect(await storeSessionKey(dbPath, "s-a")).toBe("agent:ops:main");
    expect(await storeSessionKey(dbPath, "s-b")).toBeUndefined();
  });

  it("errors name the database: not SQLite, not a store, a table without the columns it needs", async () => {
    const dir = storeDir();
    const notSqlite = join(dir, "notes.sqlite");
    writeFileSync(notSqlite, "just text, long enough to be more than a header's hundred bytes ".repeat(3));
    const other = join(dir, "other.sqlite");
    await writeOtherDatabase(other, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    const odd = join(dir, "odd.sqlite");
    await writeOtherDatabase(odd, "CREATE TABLE transcript_events (session_id TEXT, body TEXT)");
    const cases: Array<[string, RegExp]> = [
      [notSqlite, /notes\.sqlite: not an SQLite database/],
      [other, /other\.sqlite: not an OpenClaw transcript store \(no transcript_events table\)/],
      [odd, /odd\.sqlite: table transcript_events cannot be read: no seq, no event_json or event_zstd column/],
      [join(dir, "missing.sqlite"), /cannot read .*missing\.sqlite: no such file or directory/],
    ];
    for (const [path, message] of cases) {
      const error = await storeSessions(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("a damaged database is an InputError naming it", async () => {
    const dbPath = join(storeDir(), "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: twoSessions() });
    const bytes = readFileSync(dbPath);
    bytes.fill(0xa5, 100, bytes.length); // header kept, every page garbage
    writeFileSync(dbPath, bytes);
    const error = await storeSessions(dbPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`cannot read ${dbPath}: `);
  });

  it("leaves the database untouched: same bytes and mtime, no file created beside it", async () => {
    const dir = storeDir();
    const dbPath = join(dir, "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: twoSessions() });
    const before = { bytes: readFileSync(dbPath), mtime: statSync(dbPath).mtimeMs };
    for (const session of await storeSessions(dbPath)) await linesOf(dbPath, session);
    await releaseStores();
    expect(readFileSync(dbPath).equals(before.bytes)).toBe(true);
    expect(statSync(dbPath).mtimeMs).toBe(before.mtime);
    expect(readdirSync(dir)).toEqual(["openclaw-agent.sqlite"]);
  });

  it("reads the committed transactions of a write-ahead log, not one still open", async () => {
    const dir = storeDir();
    const dbPath = join(dir, "openclaw-agent.sqlite");
    const first: StoreRow[] = [1, 2].map((seq) => ({ session: "live", seq, json: line("live", seq) }));
    const more: StoreRow[] = [{ session: "live", seq: 3, zstd: zstdFrame(line("live", 3)) }, { session: "new", seq: 1, json: line("new", 1) }];
    const { earlier, later } = await storeStates({ rows: first }, more);
    // The open transaction's frames carry garbage pages: they must not be applied.
    const { db, wal } = walStore(earlier, later, [Buffer.alloc(4096, 0x5a)]);
    writeFileSync(dbPath, db);
    writeFileSync(`${dbPath}-wal`, wal);
    expect(await storeSessions(dbPath)).toEqual(["live", "new"]);
    expect((await linesOf(dbPath, "live")).map((l) => l.text)).toEqual([1, 2, 3].map((seq) => line("live", seq)));
    expect(readFileSync(`${dbPath}-wal`).equals(wal)).toBe(true);
  });
});

const sqlite3 = requireProgram("sqlite3", { for: "the SQLite store test beside a native writer" });

sqlite3.describe("SQLite transcript store beside a native writer (sqlite3 CLI)", () => {
  it("is read while another connection holds a write transaction open, in WAL and rollback mode", async () => {
    for (const mode of ["wal", "delete"]) {
      const dir = join(storeDir(), "agents", "main", "agent");
      mkdirSync(dir, { recursive: true });
      const dbPath = join(dir, "openclaw-agent.sqlite");
      await writeStore(dbPath, { rows: [1, 2].map((seq) => ({ session: "s", seq, json: line("s", seq) })) });
      const writer = spawn(sqlite3.path!, [dbPath], { stdio: ["pipe", "pipe", "inherit"] });
      const ready = new Promise<void>((resolve) => writer.stdout.on("data", (chunk: Buffer) => chunk.includes("ready") && resolve()));
      // Committed: seq 3. Then an exclusive transaction left open (rollback mode: readers through
      // SQLite's locks would be refused) with seq 4 not committed.
      const commit = `INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('s', 3, '${line("s", 3)}', 3);`;
      const open = `BEGIN EXCLUSIVE; INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('s', 4, '{}', 4);`;
      writer.stdin.write(`PRAGMA journal_mode=${mode};\nPRAGMA wal_autocheckpoint=0;\n${commit}\n${open}\n.print ready\n`);
      await ready;
      try {
        await releaseStores();
        expect((await linesOf(dbPath, "s")).map((l) => l.text)).toEqual([1, 2, 3].map((seq) => line("s", seq)));
      } finally {
        writer.stdin.end("ROLLBACK;\n");
        await new Promise((resolve) => writer.on("exit", resolve));
      }
    }
  });
});
