/**
 * The cache's index (packIndex.ts): read back as written, ignored when damaged or of another format,
 * and merged again when another process replaced it between one's read and one's rename.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readIndex, updateIndex, hasPlace, INDEX_FILE, type IndexedEntry } from "../../../src/pipeline/cache/packIndex.js";
import { tempDir } from "../../helpers/tempDir.js";

const at = (pack: string, offset: number): IndexedEntry => ({ pack, offset, length: 10, usedMs: 1000 + offset });

describe("the cache's index", () => {
  it("is read back as written, and is empty when missing, damaged or of another format", () => {
    const dir = tempDir("looplens-index-");
    expect(readIndex(dir).size).toBe(0);
    updateIndex(dir, (entries) => entries.set("aa", at("1.pack", 0)).set("bb", at("1.pack", 10)), () => true);
    expect([...readIndex(dir)]).toEqual([["aa", at("1.pack", 0)], ["bb", at("1.pack", 10)]]);
    const text = readFileSync(join(dir, INDEX_FILE), "utf8");
    writeFileSync(join(dir, INDEX_FILE), text.slice(0, text.length - 5));
    expect(readIndex(dir).size).toBe(0);
    writeFileSync(join(dir, INDEX_FILE), text.replace('"format":1', '"format":99'));
    expect(readIndex(dir).size).toBe(0);
    // Rows that make no sense are left out, the others kept.
    writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ format: 1, entries: { aa: ["1.pack", -1, 10, 0], bb: ["1.pack", 0, 0, 0], cc: [1, 0, 10, 0], dd: ["1.pack", 0, 10, 0] } }));
    expect([...readIndex(dir).keys()]).toEqual(["dd"]);
  });

  it("keeps what another process added between a read and a rename (merged again)", () => {
    const dir = tempDir("looplens-index-");
    let rounds = 0;
    const mine = at("mine.pack", 0);
    // Another process renames its index (read before ours was written) over ours, once.
    const theirs = () => rounds === 1 && writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ format: 1, entries: { theirs: ["theirs.pack", 0, 10, 5] } }));
    const change = (entries: Map<string, IndexedEntry>) => void (rounds++, entries.set("mine", mine));
    updateIndex(dir, change, (entries) => hasPlace(entries, "mine", mine), theirs);
    expect(rounds).toBe(2);
    expect([...readIndex(dir).keys()].sort()).toEqual(["mine", "theirs"]);
  });
});
