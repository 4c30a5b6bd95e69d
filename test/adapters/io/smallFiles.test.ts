/**
 * Small files are read whole into pooled buffers, given back when the reader releases the source
 * (sources.ts). A released buffer serves the next file: what each source reads must be its own
 * file's bytes, whatever was in the buffer before, and a source released twice must not hand its
 * buffer to two files at once.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fileSource, pooledSmallFile } from "../../../src/adapters/io/sources.js";
import type { LineSource } from "../../../src/adapters/io/lineSource.js";
import { tempDir } from "../../hostile/harness.js";

const tmp = tempDir();
const SMALL_FILE = 1 << 20; // sources.ts

async function linesOf(source: LineSource): Promise<string[]> {
  const lines: string[] = [];
  await source.forEachLine((text) => void lines.push(text));
  return lines;
}

describe("small files read into pooled buffers", () => {
  it("reads each file's own lines when the buffer of a released source is reused", async () => {
    const long = tmp.write("long.jsonl", `${"x".repeat(5000)}\n${"y".repeat(3000)}\n`);
    const short = tmp.write("short.jsonl", "a\nb\n");
    const first = await fileSource(long);
    expect(await linesOf(first)).toEqual(["x".repeat(5000), "y".repeat(3000)]);
    first.release?.();
    first.release?.(); // twice: still one buffer back in the pool
    const second = await fileSource(short);
    const third = await fileSource(long);
    expect(await linesOf(second)).toEqual(["a", "b"]);
    expect(await linesOf(third)).toEqual(["x".repeat(5000), "y".repeat(3000)]);
    // Read again after the other was opened: each source kept its own bytes.
    expect(await linesOf(second)).toEqual(["a", "b"]);
    expect(await second.mayContain!([Buffer.from("x")])).toBe(false);
    second.release?.();
    third.release?.();
  });

  it("reads a compressed small file and a file at the size limit", async () => {
    const gz = tmp.write("small.jsonl.gz", gzipSync("one\ntwo\n"));
    const source = await fileSource(gz);
    expect(await linesOf(source)).toEqual(["one", "two"]);
    source.release?.();
    const line = "z".repeat(SMALL_FILE - 1);
    const atLimit = tmp.write("limit.jsonl", `${line}\n`);
    const full = await fileSource(atLimit);
    expect(full.size).toBe(SMALL_FILE);
    expect((await linesOf(full))[0]!.length).toBe(SMALL_FILE - 1);
    full.release?.();
  });

  it("gives up on a file that grew past the limit since it was sized (fileSource then reads it whole)", async () => {
    const path = tmp.write("grown.jsonl", `${"g".repeat(SMALL_FILE + 10)}\n`);
    expect(pooledSmallFile(path)).toBeUndefined();
    const source = await fileSource(path);
    expect((await linesOf(source))[0]!.length).toBe(SMALL_FILE + 10);
    // The buffer it took went back: the next small file reads into it.
    const next = pooledSmallFile(tmp.write("after.jsonl", "ok\n"))!;
    expect(await linesOf(next)).toEqual(["ok"]);
    next.release?.();
  });
});
