// Regenerates fixtures/openclaw-store/agents/main/agent/openclaw-agent.sqlite (run from the project
// root): the SQLite transcript store of newer OpenClaw builds (inputs.md §2a) holding two sessions of
// fixtures/openclaw/, so that its findings can be checked against the same transcripts as .jsonl:
// 7f3e2a10… (a process poll loop) and 2c9d4b7e…. Rows are inserted interleaved and in reverse, so
// that rowid order is not seq order; every fourth row is zstd-compressed (event_json NULL), as later
// schemas store them. The zstd frames use raw blocks: Node 20 has no zstd encoder, and a frame of
// raw blocks is valid zstd that every decoder reads. The output is byte-for-byte reproducible.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const SQL = await require("sql.js")({ wasmBinary: readFileSync(require.resolve("sql.js/dist/sql-wasm.wasm")) });

const SESSIONS = ["7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51", "2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d"];
const OUT_DIR = "fixtures/openclaw-store/agents/main/agent";

function zstdFrame(text) {
  const data = Buffer.from(text);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0]), size]; // single segment, 4-byte content size
  for (let at = 0; at < data.length || at === 0; ) {
    const n = Math.min(128 * 1024, data.length - at);
    const header = (n << 3) | (at + n >= data.length ? 1 : 0); // raw block, last flag
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), data.subarray(at, at + n));
    at += n;
    if (n === 0) break;
  }
  return Buffer.concat(parts);
}

const db = new SQL.Database();
db.run(
  "CREATE TABLE transcript_events (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, event_zstd BLOB, created_at INTEGER NOT NULL)",
);
db.run("CREATE UNIQUE INDEX transcript_events_session_seq ON transcript_events (session_id, seq)");
db.run("CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT, opened_at INTEGER)");

const rows = SESSIONS.map((session, s) =>
  readFileSync(`fixtures/openclaw/agents/main/sessions/${session}.jsonl`, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line, i) => {
      const createdAt = Date.parse("2026-05-01T09:00:00.000Z") + s * 3_600_000 + i * 1000;
      return i % 4 === 3 ? [session, i + 1, null, zstdFrame(line), createdAt] : [session, i + 1, line, null, createdAt];
    }),
);
const interleaved = [];
for (let i = 0; i < Math.max(...rows.map((r) => r.length)); i++) for (const r of rows) if (i < r.length) interleaved.push(r[i]);
for (const row of interleaved.reverse()) db.run("INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, created_at) VALUES (?, ?, ?, ?, ?)", row);
SESSIONS.forEach((session, s) => db.run("INSERT INTO session_windows VALUES (?, ?, ?)", [session, `agent:main:session-${s + 1}`, s]));

mkdirSync(OUT_DIR, { recursive: true });
writeFileSync(`${OUT_DIR}/openclaw-agent.sqlite`, db.export());
db.close();
