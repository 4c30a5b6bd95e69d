/**
 * What tells a changed file (fileStamps.ts), and the one edit the cache is blind to, exactly: a
 * same-size edit in the middle of a file over 128 KiB that leaves both its times as they were (which
 * only a file system that cannot tell the two writes apart does; simulated by putting the new times
 * into the stored stamp). The same edit at either end is seen (the ends are hashed), and any edit
 * that moves a time is seen (a rewrite with the modification time put back still moves the ctime).
 */
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadByteHasher, type ByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { ENDS_BYTES, isRacy, stampPath, stampUnit, stillStamped, unitPaths, unitStampedAs, type FileStamp } from "../../../src/pipeline/cache/fileStamps.js";
import { tempDir } from "../../helpers/tempDir.js";

let dir: string;
let hasher: ByteHasher;
beforeAll(async () => {
  dir = tempDir("looplens-stamps-");
  hasher = await loadByteHasher();
});

const SIZE = 3 * ENDS_BYTES;

function bigFile(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.alloc(SIZE, 0x61));
  return path;
}

/** A same-size edit at `at` with both times put back as far as a user can (utimes); returns the stamp as a coarse clock would keep it. */
function editKeepingTimes(path: string, at: number, stored: FileStamp): FileStamp {
  const bytes = readFileSync(path);
  const { atime, mtime } = statSync(path);
  bytes[at] = 0x62;
  writeFileSync(path, bytes);
  utimesSync(path, atime, mtime);
  const now = statSync(path, { bigint: true });
  return { ...stored, mtimeNs: String(now.mtimeNs), ctimeNs: String(now.ctimeNs) };
}

const racyStamp = (path: string) => stampPath(path, hasher, 10n ** 18n) as FileStamp;

describe("file stamps", () => {
  it("tell a file as it was from one appended to, truncated, replaced or gone", () => {
    const path = bigFile("plain.jsonl");
    const stamp = stampPath(path, hasher, 0n);
    expect(stamp?.ends).toBeUndefined(); // not racy: told by its times alone
    expect(stillStamped(path, stamp, hasher)).toBe(true);
    writeFileSync(path, Buffer.alloc(SIZE + 1, 0x61));
    expect(stillStamped(path, stamp, hasher)).toBe(false);
    rmSync(path);
    expect(stillStamped(path, stamp, hasher)).toBe(false);
    expect(stillStamped(path, null, hasher)).toBe(true); // a store's absent write-ahead log, still absent
  });

  it("see a same-size rewrite whose modification time was put back: its status-change time moved", async () => {
    const path = bigFile("rewritten.jsonl");
    const stamp = stampPath(path, hasher, 0n)!;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the next tick of the file system's clock
    const bytes = readFileSync(path);
    bytes[SIZE / 2] = 0x62;
    writeFileSync(path, bytes);
    // As if the modification time had been put back to the nanosecond (utimes keeps microseconds at best).
    const putBack = { ...stamp, mtimeNs: String(statSync(path, { bigint: true }).mtimeNs) };
    expect(stillStamped(path, putBack, hasher)).toBe(false);
    expect(stillStamped(path, { ...putBack, ctimeNs: String(statSync(path, { bigint: true }).ctimeNs) }, hasher)).toBe(true);
  });

  it("are blind to a same-size edit between the 64 KiB ends when neither time moved, and only there", () => {
    for (const [at, seen] of [
      [0, true],
      [ENDS_BYTES - 1, true],
      [ENDS_BYTES, false],
      [SIZE / 2, false],
      [SIZE - ENDS_BYTES - 1, false],
      [SIZE - ENDS_BYTES, true],
      [SIZE - 1, true],
    ] as const) {
      const path = bigFile(`blind-${at}.jsonl`);
      const stored = editKeepingTimes(path, at, racyStamp(path));
      expect(stillStamped(path, stored, hasher), `an edit at byte ${at}`).toBe(!seen);
    }
  });

  it("hash the whole of a file up to 128 KiB", () => {
    const path = join(dir, "small.jsonl");
    writeFileSync(path, Buffer.alloc(2 * ENDS_BYTES, 0x61));
    const stored = editKeepingTimes(path, ENDS_BYTES, racyStamp(path));
    expect(stillStamped(path, stored, hasher)).toBe(false);
  });

  it("are racy (hashed) for a status change within the window, or a clock without sub-seconds", () => {
    const now = 1_800_000_000_000_000_000n;
    expect(isRacy(now - 1_000_000_000n, now)).toBe(true);
    expect(isRacy(now - 4_000_000_001n, now)).toBe(false);
    expect(isRacy(now - 10_000_000_000n - (now % 1_000_000_000n), now)).toBe(true); // whole seconds: a coarse clock
  });

  it("stamp a SQLite store session by its database and write-ahead log, and never standard input", () => {
    const db = join(dir, "agent.sqlite");
    writeFileSync(db, "SQLite format 3\u0000");
    expect(unitPaths([`${db}#session-1`])).toEqual([db, `${db}-wal`]);
    expect(unitPaths(["-"])).toBeUndefined();
    // A file whose name holds a `#` is itself; a path without one is taken as it is, existing or not (no stat).
    writeFileSync(join(dir, "a#b.jsonl"), "{}\n");
    expect(unitPaths([join(dir, "a#b.jsonl"), join(dir, "gone.jsonl")])).toEqual([join(dir, "a#b.jsonl"), join(dir, "gone.jsonl")]);
    const stamps = stampUnit([`${db}#session-1`], hasher);
    expect(stamps?.stamps[1]).toBeNull();
    writeFileSync(`${db}-wal`, "x");
    expect(stillStamped(`${db}-wal`, stamps!.stamps[1]!, hasher)).toBe(false);
  });

  it("judges a unit against stamps taken earlier as against its files now: times, sizes, and a racy stamp's ends", () => {
    const a = join(dir, "then-a.jsonl");
    const b = join(dir, "then-b.jsonl");
    writeFileSync(a, "{}\n");
    writeFileSync(b, "{}\n");
    const trusted = stampUnit([a, b], hasher, 0n)!; // no stamp racy: times alone tell
    expect(unitStampedAs(trusted, stampUnit([a, b], hasher, 0n)!, hasher)).toBe(true);
    expect(unitStampedAs(trusted, stampUnit([b, a], hasher, 0n)!, hasher)).toBe(false); // other paths
    expect(unitStampedAs(trusted, stampUnit([a], hasher, 0n)!, hasher)).toBe(false);
    writeFileSync(b, "{}\n{}\n");
    expect(unitStampedAs(trusted, stampUnit([a, b], hasher, 0n)!, hasher)).toBe(false); // grown
    // A racy stored stamp against a stamp without ends: the file's ends are hashed now.
    const racy = stampUnit([a], hasher, 10n ** 15n)!;
    expect(racy.stamps[0]?.ends).toBeDefined();
    const now = stampUnit([a], hasher, 0n)!;
    expect(unitStampedAs(racy, now, hasher)).toBe(true);
    const stored = racy.stamps[0] as FileStamp;
    expect(unitStampedAs({ paths: [a], stamps: [{ ...stored, ends: "0:0" }] }, now, hasher)).toBe(false);
  });
});
