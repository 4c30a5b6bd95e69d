/**
 * A command's output spooled to the cache's packs folder as it is written (outputSpool.ts): read back
 * as the same bytes, in pieces of one buffer, and removed once kept or past its bound.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKS_FOLDER } from "../../../src/pipeline/cache/packFile.js";
import { OutputSpool } from "../../../src/pipeline/cache/outputSpool.js";
import { tempDir } from "../../helpers/tempDir.js";

const files = (dir: string) => readdirSync(join(dir, PACKS_FOLDER));

/** The spool's pieces, each copied before the next is read over it. */
function readBack(spool: OutputSpool): Buffer {
  const copies: Buffer[] = [];
  for (const piece of spool.pieces()) copies.push(Buffer.from(piece));
  return Buffer.concat(copies);
}

describe("an output spool", () => {
  it("gives back the bytes written, across its pieces, and leaves no file once removed", () => {
    const dir = tempDir("looplens-spool-");
    const spool = new OutputSpool(dir, 32 << 20);
    // Pieces larger than its buffer (1 MB), multi-byte characters, a lone surrogate (written as U+FFFD, as standard output does).
    const texts = ["{\n", "é".repeat(400_000), "😀 \ud800 x", "y".repeat(1_500_000), "", "}\n"];
    for (const text of texts) spool.write(text);
    expect(files(dir)).toHaveLength(1);
    expect(spool.holdsAll).toBe(true);
    expect(readBack(spool).equals(Buffer.from(texts.join("")))).toBe(true);
    expect(readBack(spool).equals(Buffer.from(texts.join("")))).toBe(true);
    spool.remove();
    expect(files(dir)).toEqual([]);
    expect(spool.holdsAll).toBe(false);
  });

  it("is dropped, its file removed, past its bound in bytes", () => {
    const dir = tempDir("looplens-spool-");
    const spool = new OutputSpool(dir, 1000);
    spool.write("é".repeat(500)); // 1,000 bytes: still held
    expect(spool.holdsAll).toBe(true);
    spool.write("x");
    expect(spool.holdsAll).toBe(false);
    expect(files(dir)).toEqual([]);
    spool.write("more");
    expect(files(dir)).toEqual([]);
    expect([...spool.pieces()]).toEqual([]);
  });

  it("is dropped when its folder cannot be made, and never throws", () => {
    const file = join(tempDir("looplens-spool-"), "a-file");
    writeFileSync(file, "");
    const spool = new OutputSpool(join(file, "cache"), 1 << 20);
    spool.write("text");
    expect(spool.holdsAll).toBe(false);
    expect(() => spool.remove()).not.toThrow();
  });
});
