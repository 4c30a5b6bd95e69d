/**
 * The bundled store (scripts/generate-store-fixture.mjs) holds two transcripts of fixtures/openclaw/:
 * read through the session adapter, each store session must give exactly what its .jsonl gives.
 */
import { afterAll, describe, expect, it } from "vitest";
import { UnitHistory, LineTally, type AdapterOptions } from "../../../src/adapters/adapter.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import type { LineSource } from "../../../src/adapters/io/lineSource.js";
import { openclawSessionAdapter } from "../../../src/adapters/openclaw/session.js";
import { releaseStores, storeSessionKey, storeSessionSource, storeSessions } from "../../../src/adapters/openclaw/sqliteStore.js";
import type { LoopEvent } from "../../../src/core/events.js";
import type { EventLine } from "../../helpers/events.js";
import { findingsOf } from "../../helpers/replay.js";
import { rowsOfTranscript, writeStore } from "../../helpers/sqliteStoreBuilder.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tempDir.js";

const STORE = "fixtures/openclaw-store/agents/main/agent/openclaw-agent.sqlite";
const transcript = (session: string) => `fixtures/openclaw/agents/main/sessions/${session}.jsonl`;

async function readThrough(source: LineSource, options: AdapterOptions) {
  const events: LoopEvent[] = [];
  const tally = new LineTally();
  await openclawSessionAdapter.read(source, { tally,
    unit: new UnitHistory([source.file], false), options, emit: (event) => (events.push(event as LoopEvent), { used: true }) });
  return { events: events.map(({ file: _f, ...event }) => event), counts: tally.counts, diagnostics: tally.diagnostics.map(({ file: _f, ...d }) => d), files: new Set(events.map((e) => e.file)) };
}

afterAll(() => releaseStores());

describe("the bundled SQLite store through the session adapter", () => {
  it("lists its two sessions, with their keys", async () => {
    const sessions = await storeSessions(STORE);
    expect(sessions).toEqual(["7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51", "2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d"]);
    expect(await Promise.all(sessions.map((s) => storeSessionKey(STORE, s)))).toEqual(["agent:main:session-1", "agent:main:session-2"]);
  });

  for (const options of [{}, { canReadAgain: true, bytePayloads: true, closeRuns: true }] as AdapterOptions[]) {
    it(`gives each session's events, line counts and findings as its .jsonl does (${JSON.stringify(options)})`, async () => {
      let findings = 0;
      for (const session of await storeSessions(STORE)) {
        const fromStore = await readThrough(await storeSessionSource(STORE, session), options);
        const fromFile = await readThrough(await fileSource(transcript(session)), options);
        expect(fromStore.files).toEqual(new Set([`${STORE}#${session}`]));
        expect(fromStore.events).toEqual(fromFile.events);
        expect(fromStore.counts).toEqual(fromFile.counts);
        expect(fromStore.diagnostics).toEqual(fromFile.diagnostics);
        const storeFindings = findingsOf(fromStore.events as unknown as EventLine[]);
        expect(storeFindings).toEqual(findingsOf(fromFile.events as unknown as EventLine[]));
        findings += storeFindings.length;
      }
      // The poll loop of 7f3e2a10… is found: the comparison is not between two empty lists.
      expect(findings).toBeGreaterThan(0);
    });
  }

  it("a row without JSON is one skipped line at its seq; the rest of the session is read", async () => {
    const session = "7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51";
    const rows = rowsOfTranscript(session, readFileSync(transcript(session), "utf8"), 3);
    const dbPath = join(tempDir("looplens-store-"), "openclaw-agent.sqlite");
    await writeStore(dbPath, { rows: rows.map((row) => (row.seq === 5 ? { session, seq: 5 } : row)) });
    const fromFile = await readThrough(await fileSource(transcript(session)), {});
    const fromStore = await readThrough(await storeSessionSource(dbPath, session), {});
    expect(fromStore.counts.read).toBe(fromFile.counts.read);
    expect(fromStore.counts.skipped).toBe(fromFile.counts.skipped + 1);
    expect(fromStore.diagnostics.filter((d) => d.line === 5)).toHaveLength(1);
    expect(fromStore.events.some((e) => e.type === "tool_call")).toBe(true);
  });
});
