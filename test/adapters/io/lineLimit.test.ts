/**
 * The line limit: a line over it is skipped while it streams in, never held past the limit — even a
 * small gzip that expands to one huge line — and the limit is a setting (`--max-line-bytes`,
 * `$LOOPLENS_MAX_LINE_BYTES`) named in the diagnostic.
 */
import { Readable } from "node:stream";
import { createGunzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../../../src/adapters/io/lineSplitter.js";
import { currentLineLimit, MAX_LINE_BYTES, setLineLimit, tooLongReason } from "../../../src/adapters/io/lineSource.js";
import { runCli, runMain } from "../../helpers/cli.js";
import { tempDir } from "../../hostile/harness.js";

const tmp = tempDir();
const LIMIT = 64 * 1024;
/** Over LIMIT, under the default limit (MAX_LINE_BYTES): the next run reads it. */
const HUGE = 24 * 2 ** 20;

/** A gzip of three lines, the second one `HUGE` bytes long: ~25 KB on disk. */
/** The huge line's first 64 bytes, as the diagnostic quotes them. */
const BOMB_HEAD = JSON.stringify(`{"x":"${"a".repeat(58)}…`);
const bomb = () => gzipSync(Buffer.concat([Buffer.from('{"type":"run_start","run":"r"}\n{"x":"'), Buffer.alloc(HUGE - 8, 0x61), Buffer.from('"}\n{"type":"run_end","run":"r"}\n')]));

describe("an over-long line in a stream", () => {
  it("is dropped as it arrives: the splitter never holds more than the limit, and reading goes on", async () => {
    const seen: Array<{ line: number; bytes: number; tooLong?: number }> = [];
    const splitter = new LineSplitter((_buf, start, end, line, _terminated, tooLong) => void seen.push({ line, bytes: end - start, ...(tooLong !== undefined && { tooLong }) }), LIMIT);
    let mostHeld = 0;
    let chunks = 0;
    for await (const chunk of Readable.from([bomb()]).pipe(createGunzip())) {
      splitter.push(chunk as Buffer);
      mostHeld = Math.max(mostHeld, splitter.held);
      chunks++;
    }
    splitter.end();
    expect(chunks).toBeGreaterThan(100); // it did stream, in many pieces
    expect(mostHeld).toBeLessThanOrEqual(LIMIT);
    expect(seen).toEqual([
      { line: 1, bytes: 30 },
      { line: 2, bytes: 64, tooLong: HUGE }, // its first 64 bytes, for the diagnostic
      { line: 3, bytes: 28 },
    ]);
  });

  it("the diagnostic names the limit in force", () => {
    try {
      expect(tooLongReason(5000)).toBe("line too long (5000 bytes, over the 32 MiB limit); not read (--max-line-bytes raises the limit)");
      setLineLimit(1024);
      expect(currentLineLimit()).toBe(1024);
      expect(tooLongReason(5000)).toBe("line too long (5000 bytes, over the 1024-byte limit); not read (--max-line-bytes raises the limit)");
      setLineLimit(2 * 2 ** 20);
      expect(tooLongReason(undefined)).toBe("line too long (over the 2 MiB limit); not read (--max-line-bytes raises the limit)");
    } finally {
      setLineLimit(undefined);
    }
    expect(currentLineLimit()).toBe(MAX_LINE_BYTES);
  });
});

describe("--max-line-bytes", () => {
  const path = tmp.write("bomb.jsonl.gz", bomb());

  it("skips the gzip's huge line with one diagnostic, reads the rest, and the next run is back at the default", async () => {
    const result = await runMain(["analyze", "--max-line-bytes", String(LIMIT), "--format", "json", path]);
    expect(result.stderr).toBe(`${path}:2: line too long (${HUGE} bytes, over the ${LIMIT}-byte limit; it begins ${BOMB_HEAD}); not read (--max-line-bytes raises the limit)\n`);
    expect((JSON.parse(result.stdout) as { summary: { lines: object } }).summary.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
    expect(HUGE).toBeLessThan(MAX_LINE_BYTES);
    const again = await runMain(["analyze", "--format", "json", path]);
    expect(again.stderr).not.toContain("too long");
    expect((JSON.parse(again.stdout) as { summary: { lines: { read: number } } }).summary.lines.read).toBe(3);
  });

  it("is refused when it is not a number of bytes", async () => {
    for (const bad of ["0", "-5", "1k", String(2 ** 30)]) {
      const result = await runMain(["analyze", "--max-line-bytes", bad, path]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("--max-line-bytes");
    }
  });

  it("$LOOPLENS_MAX_LINE_BYTES sets it too (the built CLI)", () => {
    const result = runCli(["analyze", "--format", "json", path], { env: { LOOPLENS_MAX_LINE_BYTES: "1000" } });
    expect(result.stderr).toBe(`${path}:2: line too long (${HUGE} bytes, over the 1000-byte limit; it begins ${BOMB_HEAD}); not read (--max-line-bytes raises the limit)\n`);
  });
});
