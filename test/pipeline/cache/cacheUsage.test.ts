/**
 * The size bound (cacheUsage.ts): whole packs go in least-recently-used order (a pack as recent as
 * its most recently used entry), down to 80% of the bound; only runs that wrote touch the index;
 * packs no index names and temporary files go once an hour old; a folder of the layout before packs
 * goes; `clear` removes only what the cache made.
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { CacheSetup } from "../../../src/pipeline/cache/cacheSetup.js";
import { cacheContents, clearCache, evict, readUsage, recordRun } from "../../../src/pipeline/cache/cacheUsage.js";
import { makeFolder } from "../../../src/pipeline/cache/entryFile.js";
import { readIndex, type IndexedEntry } from "../../../src/pipeline/cache/packIndex.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
beforeEach(() => {
  dir = tempDir("looplens-usage-");
});

const setup = (maxBytes: number): CacheSetup => ({ dir, maxBytes, build: "test", write: true });
const HOUR = 3_600_000;

/** A pack (or other file of the packs' folder) of `bytes` bytes, written `ageMs` ago. */
function pack(name: string, bytes: number, ageMs: number, now: number): void {
  makeFolder(join(dir, "packs"));
  const path = join(dir, "packs", name);
  writeFileSync(path, Buffer.alloc(bytes));
  const when = new Date(now - ageMs);
  utimesSync(path, when, when);
}

/** Entries of a pack, the most recent used `ageMs` ago. */
const entriesOf = (name: string, count: number, ageMs: number, now: number): Array<[string, IndexedEntry]> =>
  Array.from({ length: count }, (_, i) => [`${name}-${i}`, { pack: name, offset: i * 10, length: 10, usedMs: now - ageMs - i * 1000 }]);

const packs = () => readdirSync(join(dir, "packs")).sort();
const run = (added: Array<[string, IndexedEntry]>, more: Partial<{ hits: number; misses: number; used: Map<string, number> }> = {}) => ({
  hits: 0,
  misses: added.length,
  added: new Map(added),
  used: new Map<string, number>(),
  ...more,
});

describe("the cache's size bound", () => {
  it("evicts whole packs, least recently used first, down to 80% of the bound, and their entries", () => {
    const now = Date.now();
    const entries = new Map<string, IndexedEntry>();
    for (const [name, age] of [["a.pack", 5000], ["b.pack", 1000], ["c.pack", 9000], ["d.pack", 3000]] as const) {
      pack(name, 100, age, now);
      for (const [key, entry] of entriesOf(name, 2, age, now)) entries.set(key, entry);
    }
    // An entry used lately keeps its pack: c's second entry is the most recent of all.
    entries.set("c.pack-1", { ...entries.get("c.pack-1")!, usedMs: now });
    expect(evict(dir, entries, 300, now).bytes).toBe(200);
    expect(packs()).toEqual(["b.pack", "c.pack"]);
    expect([...entries.keys()].sort()).toEqual(["b.pack-0", "b.pack-1", "c.pack-0", "c.pack-1"]);
  });

  it("is kept by the runs that write: their entries go into the index, and only they scan", () => {
    const now = Date.now();
    for (let i = 0; i < 10; i++) pack(`p${i}.pack`, 100, (10 - i) * 1000, now);
    recordRun(setup(10_000), "analyze", run(Array.from({ length: 10 }, (_, i) => entriesOf(`p${i}.pack`, 1, (10 - i) * 1000, now)[0]!), { hits: 3 }), true, now);
    expect(readIndex(dir).size).toBe(10);
    expect(readUsage(dir)).toMatchObject({ bytes: 1000, hits: 3, misses: 10 });
    // A run that only read never scans, whatever the bound.
    recordRun(setup(500), "analyze", run([], { hits: 10 }), true, now);
    expect(packs()).toHaveLength(10);
    pack("q.pack", 100, 0, now);
    recordRun(setup(500), "analyze", run(entriesOf("q.pack", 1, 0, now)), true, now);
    expect(packs()).toEqual(["p7.pack", "p8.pack", "p9.pack", "q.pack"]);
    expect(readIndex(dir).size).toBe(4);
    expect(readUsage(dir)).toMatchObject({ bytes: 400, hits: 13, misses: 11, last: { command: "analyze", hits: 0, misses: 1 } });
  });

  it("marks entries used again, so that their pack is kept before a pack written later", () => {
    const now = Date.now();
    pack("old.pack", 100, 3 * HOUR, now);
    pack("new.pack", 100, HOUR, now);
    recordRun(setup(10_000), "analyze", run([...entriesOf("old.pack", 1, 3 * HOUR, now), ...entriesOf("new.pack", 1, HOUR, now)]), true, now);
    recordRun(setup(10_000), "analyze", run([], { hits: 1, used: new Map([["old.pack-0", now]]) }), true, now);
    expect(readIndex(dir).get("old.pack-0")!.usedMs).toBe(now);
    pack("newest.pack", 100, 0, now);
    recordRun(setup(250), "analyze", run(entriesOf("newest.pack", 1, 0, now)), true, now);
    expect(packs()).toEqual(["newest.pack", "old.pack"]);
  });

  it("removes packs no index names once their writer ended or they are an hour old, temporary files once an hour old, and the layout before packs", () => {
    const now = Date.now();
    pack(`${process.pid}-0-1-old.pack`, 10, 2 * HOUR, now);
    // No process has this pid (the largest a pid can be on Linux is 2^22): its writer ended.
    pack(`${2 ** 22 + 7}-0-1-ended.pack`, 10, 1000, now);
    pack(`${process.pid}-1-1-running.pack`, 10, 1000, now);
    pack("x.pack.tmp", 10, 2 * HOUR, now);
    writeFileSync(join(dir, "index.json.1-abc.tmp"), "");
    utimesSync(join(dir, "index.json.1-abc.tmp"), new Date(now - 2 * HOUR), new Date(now - 2 * HOUR));
    writeFileSync(join(dir, "index.json.2-def.tmp"), "");
    mkdirSync(join(dir, "entries", "ab"), { recursive: true });
    writeFileSync(join(dir, "entries", "ab", "ab00000000000000.ndjson"), "an entry of the layout before\n");
    evict(dir, new Map(), 1000, now);
    expect(packs()).toEqual([`${process.pid}-1-1-running.pack`]);
    expect(readdirSync(dir).sort()).toEqual(["index.json.2-def.tmp", "packs"]);
  });

  it("removes the packs of ended runs whose entries were all written again before it evicts a live pack", () => {
    const now = Date.now();
    const ended = 2 ** 22 + 7;
    pack(`${ended}-0-1-live.pack`, 100, 10_000, now);
    // Four later runs, each writing its kept output again: the packs before the last are dead.
    for (let run = 1; run <= 4; run++) pack(`${ended}-0-${run + 1}-report.pack`, 100, 5000 - run * 1000, now);
    const live = entriesOf(`${ended}-0-1-live.pack`, 3, 10_000, now);
    recordRun(setup(400), "analyze", run([...live, ...entriesOf(`${ended}-0-5-report.pack`, 1, 1000, now)]), true, now);
    expect(packs()).toEqual([`${ended}-0-1-live.pack`, `${ended}-0-5-report.pack`]);
    expect(readIndex(dir).size).toBe(4);
  });

  it("clear removes the packs, the index and the counts, and nothing else of the folder", () => {
    const now = Date.now();
    pack("a.pack", 10, 0, now);
    recordRun(setup(1000), "analyze", run(entriesOf("a.pack", 1, 0, now), { hits: 1 }), true, now);
    mkdirSync(join(dir, "entries"));
    writeFileSync(join(dir, "mine.txt"), "the user's own file");
    expect(cacheContents(dir)).toMatchObject({ entries: 1, bytes: 10 });
    expect(clearCache(dir)).toEqual({ entries: 1, bytes: 10 });
    expect(readdirSync(dir)).toEqual(["mine.txt"]);
  });
});
