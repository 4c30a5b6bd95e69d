/**
 * What an entry keeps to resume from (resumeEntry.ts): a point only for a file that ended with a
 * whole line and is not compressed, with its size and a hash of all its bytes; and which stamps keep
 * one at all (one file, of at least the minimum size).
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadByteHasher, type ByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { stampUnit } from "../../../src/pipeline/cache/fileStamps.js";
import { hashPrefix, keepsResume, keptResume } from "../../../src/pipeline/cache/resumeEntry.js";
import type { ResumePoint } from "../../../src/pipeline/cache/resumeUnit.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
let hasher: ByteHasher;
beforeAll(async () => {
  dir = tempDir("looplens-resume-entry-");
  hasher = await loadByteHasher();
});

const POINT: ResumePoint = { state: "", names: [], lines: 2, handedOut: 0, format: "events", agentsResolved: [] };

function file(name: string, bytes: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe("a resume point in an entry", () => {
  it("keeps the size and a hash of every byte of a file of whole lines", () => {
    const a = file("a.jsonl", '{"type":"run_start","run":"r"}\n{"type":"run_start","run":"s"}\n');
    const kept = keptResume(POINT, stampUnit([a], hasher)!, hasher);
    expect(kept?.size).toBe(62);
    // A byte changed anywhere changes the hash (it is of all the bytes, not of the ends).
    const b = file("b.jsonl", '{"type":"run_start","run":"q"}\n{"type":"run_start","run":"s"}\n');
    expect(keptResume(POINT, stampUnit([b], hasher)!, hasher)?.prefix).not.toBe(kept?.prefix);
  });

  it("keeps none for a file whose last line is cut off, or a compressed one", () => {
    const cut = file("cut.jsonl", '{"type":"run_start","run":"r"}\n{"type":"run_st');
    expect(keptResume(POINT, stampUnit([cut], hasher)!, hasher)).toBeUndefined();
    // (A newline after the stream: the check is of the compression, not of the last byte.)
    const gz = file("z.jsonl.gz", Buffer.concat([gzipSync('{"type":"run_start","run":"r"}\n'), Buffer.from("\n")]));
    expect(keptResume(POINT, stampUnit([gz], hasher)!, hasher)).toBeUndefined();
  });

  it("goes on from the old prefix's hash as if the grown file were hashed whole", () => {
    // Random lines over more than one read (1 MiB), grown several times; other hashes taken between
    // (entries, keys) must not disturb the kept state.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const lines = (n: number) => Array.from({ length: n }, () => `{"text":"${"x".repeat(Math.floor(random() * 3000))}"}\n`).join("");
    const path = file("grown.jsonl", lines(500));
    let prefix = hashPrefix(path, Number(stampUnit([path], hasher)!.stamps[0]!.size), hasher);
    for (let step = 0; step < 5; step++) {
      appendFileSync(path, step === 3 ? '{"cut":' : lines(Math.floor(random() * 400)));
      const size = Number(stampUnit([path], hasher)!.stamps[0]!.size);
      hasher.hash(Buffer.from(`between ${step}`));
      const continued = hashPrefix(path, size, hasher, prefix);
      const whole = hashPrefix(path, size, hasher);
      expect({ ...continued, stream: undefined }).toEqual({ ...whole, stream: undefined });
      expect(continued.wholeLines).toBe(step !== 3);
      prefix = continued;
    }
    // From no usable prefix (too short to vouch for the file's compression) it hashes from the start.
    const gz = file("short.jsonl.gz", Buffer.concat([gzipSync("{}\n".repeat(50)), Buffer.from("\n")]));
    const size = Number(stampUnit([gz], hasher)!.stamps[0]!.size);
    expect(hashPrefix(gz, size, hasher, hashPrefix(gz, 2, hasher)).plain).toBe(false);
  });

  it("is kept for one file of at least the minimum size only", () => {
    const a = file("one.jsonl", "{}\n".repeat(100));
    expect(keepsResume(stampUnit([a], hasher), 300)).toBe(true);
    expect(keepsResume(stampUnit([a], hasher), 301)).toBe(false);
    expect(keepsResume(stampUnit([a, a], hasher), 0)).toBe(false);
    expect(keepsResume(undefined, 0)).toBe(false);
  });
});
