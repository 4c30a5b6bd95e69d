/**
 * Small files are read into pooled buffers that a released source gives back (adapters/io/sources.ts):
 * a source must read its own file's lines on every pass, whatever other sources were opened or
 * released meanwhile, and nothing once released.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSource } from "../../../src/adapters/io/sources.js";
import type { LineSource } from "../../../src/adapters/io/lineSource.js";

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-sources-"));
  writeFileSync(file("a.jsonl"), '{"a":1}\n{"a":2}\n');
  writeFileSync(file("b.jsonl"), '{"b":"longer line than the first file has"}\n{"b":2}\n{"b":3}\n');
  writeFileSync(file("c.jsonl.gz"), gzipSync('{"c":1}\n'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lines(source: LineSource): Promise<string[]> {
  const out: string[] = [];
  await source.forEachLine((text) => void out.push(text));
  return out;
}

describe("small file sources", () => {
  it("read their own file on every pass while others are opened and released", async () => {
    const a = await fileSource(file("a.jsonl"));
    const b = await fileSource(file("b.jsonl"));
    expect(await lines(a)).toEqual(['{"a":1}', '{"a":2}']);
    b.release?.();
    const c = await fileSource(file("c.jsonl.gz")); // may take b's buffer
    expect(await lines(c)).toEqual(['{"c":1}']);
    expect(await lines(a)).toEqual(['{"a":1}', '{"a":2}']); // a's buffer was never given back
    a.release?.();
    c.release?.();
    const again = await fileSource(file("b.jsonl"));
    expect(await lines(again)).toEqual(['{"b":"longer line than the first file has"}', '{"b":2}', '{"b":3}']);
    again.release?.();
  });

  it("read nothing once released, not another file's bytes", async () => {
    const a = await fileSource(file("a.jsonl"));
    a.release?.();
    a.release?.(); // twice: the buffer must not go back to the pool twice
    const b = await fileSource(file("b.jsonl"));
    const c = await fileSource(file("a.jsonl"));
    expect(await lines(a)).toEqual([]);
    expect(await lines(b)).toEqual(['{"b":"longer line than the first file has"}', '{"b":2}', '{"b":3}']);
    expect(await lines(c)).toEqual(['{"a":1}', '{"a":2}']);
    b.release?.();
    c.release?.();
  });
});
