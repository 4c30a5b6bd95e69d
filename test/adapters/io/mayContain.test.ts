/**
 * `LineSource.mayContain`: a search of the input's bytes that lets a pass be skipped when a rare
 * token is absent. It must never answer "absent" for bytes that are there: not across two reads of a
 * large file, not at its very start or end.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fileContains, fileSource, textSource } from "../../../src/adapters/io/sources.js";
import { tempDir } from "../../hostile/harness.js";

const tmp = tempDir();
const NEEDLE = Buffer.from("openclaw:prompt-error");
const READ = 1 << 18; // a plain file's read size (sources.ts)

function fileWith(name: string, size: number, at: number | undefined): string {
  const bytes = Buffer.alloc(size, 0x61);
  if (at !== undefined) NEEDLE.copy(bytes, at);
  return tmp.write(name, bytes);
}

describe("mayContain", () => {
  it("finds a token anywhere in a large file, across the boundary of two reads too", async () => {
    const size = 5 * READ + 123; // over the small-file size: read in chunks
    for (const at of [0, READ - 5, READ - NEEDLE.length, READ, 3 * READ - 1, size - NEEDLE.length]) {
      const source = await fileSource(fileWith(`at-${at}.jsonl`, size, at));
      expect(await source.mayContain!([Buffer.from("absent"), NEEDLE]), `at ${at}`).toBe(true);
    }
    expect(await (await fileSource(fileWith("none.jsonl", size, undefined))).mayContain!([NEEDLE])).toBe(false);
  });

  it("finds a needle longer than a read, across reads (fileContains: a searched-for line head comes from the input)", () => {
    const needle = Buffer.alloc(READ + 1000, 0x62);
    const bytes = Buffer.alloc(3 * READ, 0x61);
    needle.copy(bytes, READ - 10);
    const path = tmp.write("long-needle.jsonl", bytes);
    expect(fileContains(path, [needle])).toBe(true);
    expect(fileContains(path, [Buffer.concat([needle, Buffer.from("b")])])).toBe(false);
  });

  it("searches small files and text in memory", async () => {
    expect(await (await fileSource(fileWith("small.jsonl", 1000, 500))).mayContain!([NEEDLE])).toBe(true);
    expect(await (await fileSource(fileWith("small-none.jsonl", 1000, undefined))).mayContain!([NEEDLE])).toBe(false);
    expect(await textSource("t", "a\nopenclaw:prompt-error\n").mayContain!([NEEDLE])).toBe(true);
  });

  it("is not offered for compressed input, whose bytes on disk are not the lines'", async () => {
    const path = tmp.write("s.jsonl.gz", gzipSync(Buffer.from("openclaw:prompt-error\n")));
    expect((await fileSource(path)).mayContain).toBeUndefined();
  });
});
