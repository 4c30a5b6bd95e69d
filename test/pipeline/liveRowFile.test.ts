/**
 * LiveRowFile (pipeline/liveRowFile.ts): the store a live run book writes its oldest rows to. Every
 * batch reads back exactly as written, whatever came after it, from a new file object too (the main
 * thread reads a worker's batches).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LiveRowRecord } from "../../src/core/liveRunTable.js";
import { LiveRowFile } from "../../src/pipeline/liveRowFile.js";

const dir = mkdtempSync(join(tmpdir(), "looplens-live-rows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(i: number): LiveRowRecord {
  return {
    run: i % 4 === 0 ? `run-${i}` : `ü-${i}\n"quoted"\u2028`,
    file: `/logs/openclaw-2026-05-0${1 + (i % 3)}.log`,
    agent: i % 2 === 0 ? null : "main",
    session: i % 3 === 0 ? null : `s${i}`,
    calls: i,
    compactions: i % 5,
    armed: i % 2,
    windowsClosed: i % 7,
    started: i % 2 === 0,
    ended: i % 3 !== 0,
    startedAt: i % 4 === 1 ? undefined : 1_777_680_000_000 + i + (i % 2 ? 0.5 : 0),
  };
}

describe("LiveRowFile", () => {
  it("reads each batch back as it was written, from another file object too", () => {
    const file = new LiveRowFile(dir);
    const batches = [0, 1, 500, 3].map((size, b) => Array.from({ length: size }, (_, i) => record(b * 1000 + i)));
    const refs = batches.map((records) => file.write(records));
    const other = new LiveRowFile(dir);
    batches.forEach((records, b) => {
      expect([...file.read(refs[b]!)]).toEqual(records);
      expect([...other.read(refs[b]!)]).toEqual(records);
    });
  });

  it("gives each book a file of its own", () => {
    const a = new LiveRowFile(dir).write([record(1)]);
    const b = new LiveRowFile(dir).write([record(2)]);
    expect(a.path).not.toBe(b.path);
  });
});
