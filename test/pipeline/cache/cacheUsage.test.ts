/**
 * The size bound (cacheUsage.ts): least recently used entries go first, down to 80% of the bound;
 * only runs that wrote scan; a writer's leftover temporary files go once old; `clear` removes only
 * what the cache made.
 */
import { readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { CacheSetup } from "../../../src/pipeline/cache/cacheSetup.js";
import { clearCache, evict, readUsage, recordRun, scanEntries } from "../../../src/pipeline/cache/cacheUsage.js";
import { makeFolder } from "../../../src/pipeline/cache/entryFile.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
beforeEach(() => {
  dir = tempDir("looplens-usage-");
});

const setup = (maxBytes: number): CacheSetup => ({ dir, maxBytes, build: "test", write: true });

/** Entry `name` of `bytes` bytes, last used `ageMs` ago. */
function entry(name: string, bytes: number, ageMs: number, now: number): void {
  const folder = join(dir, "entries", name.slice(0, 2));
  makeFolder(folder);
  const path = join(folder, name);
  writeFileSync(path, Buffer.alloc(bytes));
  const when = new Date(now - ageMs);
  utimesSync(path, when, when);
}

const names = () => scanEntries(dir).entries.map((e) => e.path.split("/").pop()).sort();

describe("the cache's size bound", () => {
  it("evicts the least recently used entries first, down to the target", () => {
    const now = Date.now();
    for (const [name, age] of [["aa01.ndjson", 5000], ["bb02.ndjson", 1000], ["cc03.ndjson", 9000], ["dd04.ndjson", 3000]] as const) entry(name, 100, age, now);
    expect(evict(dir, 250, now)).toEqual({ bytes: 200, entries: 2, removed: 2 });
    expect(names()).toEqual(["bb02.ndjson", "dd04.ndjson"]);
  });

  it("is kept by the runs that write: a scan when the estimate passes the bound, to 80% of it", () => {
    const now = Date.now();
    for (let i = 0; i < 10; i++) entry(`e${i}.ndjson`, 100, (10 - i) * 1000, now);
    recordRun(setup(10_000), "analyze", { hits: 3, misses: 10, entries: 10, bytes: 1000 }, true, now);
    expect(readUsage(dir)).toMatchObject({ bytes: 1000, hits: 3, misses: 10 });
    // A run that only read never scans, whatever the estimate.
    recordRun(setup(500), "analyze", { hits: 10, misses: 0, entries: 0, bytes: 0 }, true, now);
    expect(names()).toHaveLength(10);
    recordRun(setup(500), "analyze", { hits: 0, misses: 1, entries: 1, bytes: 100 }, true, now);
    expect(names()).toEqual(["e6.ndjson", "e7.ndjson", "e8.ndjson", "e9.ndjson"]);
    expect(readUsage(dir)).toMatchObject({ bytes: 400, hits: 13, misses: 11, last: { command: "analyze", hits: 0, misses: 1 } });
  });

  it("removes a dead writer's temporary files once they are an hour old", () => {
    const now = Date.now();
    entry("aa.ndjson.1-0-0-x.tmp", 10, 2 * 3_600_000, now);
    entry("ab.ndjson.2-0-0-y.tmp", 10, 1000, now);
    evict(dir, 1000, now);
    expect(scanEntries(dir).temps.map((t) => t.path.split("/").pop())).toEqual(["ab.ndjson.2-0-0-y.tmp"]);
  });

  it("clear removes the entries and the counts, and nothing else of the folder", () => {
    entry("aa.ndjson", 10, 0, Date.now());
    writeFileSync(join(dir, "mine.txt"), "the user's own file");
    recordRun(setup(1000), "analyze", { hits: 1, misses: 0, entries: 0, bytes: 0 }, true);
    expect(clearCache(dir)).toEqual({ entries: 1, bytes: 10 });
    expect(readdirSync(dir)).toEqual(["mine.txt"]);
  });
});
