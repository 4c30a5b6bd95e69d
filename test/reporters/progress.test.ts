/** The progress bar: what one redraw shows, how often it redraws, and that pipes never see it. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { generate } from "../../bench/generate.mjs";
import { progressDisplay, PROGRESS_MIN_BYTES } from "../../src/commands/progressDisplay.js";
import type { Io } from "../../src/commands/common.js";
import { FIRST_DRAW_MS, ProgressMeter, REDRAW_MS, renderProgress } from "../../src/reporters/progress.js";
import { runCli } from "../helpers/cli.js";

describe("renderProgress", () => {
  it("shows percent, a bar, bytes of total, lines per second and the ETA", () => {
    const line = renderProgress({ bytes: 50e6, total: 200e6, lines: 20_000, elapsedMs: 2000 }, 80);
    expect(line).toBe(` 25% ${"█".repeat(8)}${"░".repeat(22)} 50/200 MB · 10k lines/s · ETA 6s`);
  });

  it("fits narrow terminals by dropping the bar, and never divides by zero", () => {
    const line = renderProgress({ bytes: 0, total: 9e6, lines: 0, elapsedMs: 0 }, 40);
    expect(line).toBe("  0% 0.0/9.0 MB · 0 lines/s · ETA –");
    expect(renderProgress({ bytes: 5e6, total: 9e6, lines: 10, elapsedMs: 100 }, 20).length).toBeLessThan(20);
  });

  it("reads minutes and hours in the ETA and never passes 100%", () => {
    expect(renderProgress({ bytes: 1e6, total: 200e6, lines: 5, elapsedMs: 1000 }, 100)).toContain("ETA 3m19s");
    expect(renderProgress({ bytes: 1e6, total: 9e9, lines: 5, elapsedMs: 1000 }, 100)).toContain("ETA 2h29m");
    expect(renderProgress({ bytes: 12e6, total: 10e6, lines: 5, elapsedMs: 1000 }, 100)).toMatch(/^100% █+ 12\/10 MB/);
  });
});

describe("ProgressMeter", () => {
  function meter() {
    let time = 0;
    const writes: string[] = [];
    const progress = new ProgressMeter(100e6, (text) => writes.push(text), () => time, 80);
    return { progress, writes, advance: (ms: number) => (time += ms) };
  }

  it("stays silent at first, then redraws in place at most every REDRAW_MS", () => {
    const { progress, writes, advance } = meter();
    progress.update(1e6, 100);
    advance(FIRST_DRAW_MS - 1);
    progress.update(1e6, 100);
    expect(writes).toEqual([]);
    advance(1);
    progress.update(1e6, 100);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\r\u001b\[K {2}3% .* 3\.0\/100 MB/);
    for (let i = 0; i < 10; i++) {
      advance(REDRAW_MS / 10 - 1);
      progress.update(1e6, 100);
    }
    expect(writes).toHaveLength(1);
    advance(10);
    progress.update(1e6, 100);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain("14/100 MB");
  });

  it("keeps its total: what it shows never passes the input's size, and never falls", () => {
    const { progress, writes, advance } = meter();
    advance(FIRST_DRAW_MS);
    progress.update(60e6, 10);
    advance(REDRAW_MS);
    progress.update(70e6, 10); // more than is left (a file that grew while read)
    expect(writes.at(-1)).toMatch(/100% .* 100\/100 MB/);
  });

  it("erases the bar when done, and writes nothing when it never drew", () => {
    const drawn = meter();
    drawn.advance(FIRST_DRAW_MS);
    drawn.progress.update(1e6, 1);
    drawn.progress.done();
    expect(drawn.writes.at(-1)).toBe("\r\u001b[K");
    const quick = meter();
    quick.progress.update(1e6, 1);
    quick.progress.done();
    expect(quick.writes).toEqual([]);
  });
});

describe("progressDisplay", () => {
  const io = (stderrIsTTY: boolean): Io => ({
    stdout: () => {},
    stderr: () => {},
    stdoutIsTTY: false,
    stdin: "pipe",
    stderrIsTTY,
    columns: undefined,
    env: {},
  });

  it("is on for a terminal and more than a few MB only; off on pipes, for json/ndjson and --quiet", () => {
    expect(progressDisplay(io(true), { format: "table" })?.(PROGRESS_MIN_BYTES)).toBeDefined();
    expect(progressDisplay(io(true), { format: "table" })?.(PROGRESS_MIN_BYTES - 1)).toBeUndefined();
    expect(progressDisplay(io(false), { format: "table" })).toBeUndefined();
    expect(progressDisplay(io(true), { format: "json" })).toBeUndefined();
    expect(progressDisplay(io(true), { format: "ndjson" })).toBeUndefined();
    expect(progressDisplay(io(true), { format: "table", quiet: true })).toBeUndefined();
  });

  it("writes nothing to a stderr that is not a terminal, even for a long read", () => {
    const dir = mkdtempSync(join(tmpdir(), "looplens-progress-"));
    try {
      generate({ dir, seed: 3, files: 1, fileMb: (PROGRESS_MIN_BYTES + 1e6) / 1e6, format: "events" });
      const result = runCli(["analyze", dir]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain("Summary");
      expect(result.stderr).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
