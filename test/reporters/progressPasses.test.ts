/**
 * The progress bar counts each input byte once, whatever the passes (pipeline/progress.ts): session
 * transcripts are read twice, a failed shortcut reads a unit again, and with two files the bar must
 * still only move forward and end at the input's size.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analyzeAll } from "../../src/pipeline/parallel.js";
import { InputProgress, startInputProgress, type StartProgress } from "../../src/pipeline/progress.js";
import { readEvents } from "../../src/pipeline/analysis.js";
import type { InputOptions } from "../../src/pipeline/reading.js";
import { sweepAll } from "../../src/pipeline/parallel.js";
import type { SweepGrid } from "../../src/pipeline/sweepUnits.js";
import { FIRST_DRAW_MS, ProgressMeter, REDRAW_MS } from "../../src/reporters/progress.js";
import { repeat, textResult, toJsonl } from "../helpers/events.js";
import { tempDir } from "../helpers/tempDir.js";

const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
const user = (id: string, parent: string | null) => JSON.stringify({ type: "message", id, parentId: parent, message: { role: "user", content: [{ type: "text", text: "go" }] } });
const toolCall = (id: string, parent: string, callId: string) =>
  JSON.stringify({ type: "message", id, parentId: parent, message: { role: "assistant", content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: "same" } }] } });
const toolResult = (id: string, parent: string, callId: string) =>
  JSON.stringify({ type: "message", id, parentId: parent, message: { role: "toolResult", toolCallId: callId, toolName: "read", content: [{ type: "text", text: "same" }], isError: false } });

/** A bootstrap entry naming the session's first run: a transcript that names no run takes one pass only. */
const bootstrap = (session: string) => JSON.stringify({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { runId: `run-${session}` }, id: "b", parentId: null });

/** A session transcript of `n` identical reads (two passes: names first, then replay). */
function transcript(session: string, n: number, extra: string[] = []): string {
  const lines = [header(session), bootstrap(session), user("u", "b")];
  let last = "u";
  for (let i = 0; i < n; i++) {
    lines.push(toolCall(`c${i}`, last, `k${i}`), toolResult(`r${i}`, `c${i}`, `k${i}`));
    last = `r${i}`;
  }
  return [...lines, ...extra.map((line) => line.replace("LAST", last)), ""].join("\n");
}

function folder(files: Record<string, string>): { dir: string; paths: string[]; size: number } {
  const dir = join(tempDir("looplens-passes-"), "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
  return { dir, paths, size: paths.reduce((sum, path) => sum + statSync(path).size, 0) };
}

/** A fake display: the total it was started with and every update, plus passes per file. */
function recorder() {
  const seen = { total: -1, bytes: [] as number[] };
  const start: StartProgress = (total) => {
    seen.total = total;
    return { update: (bytes) => void seen.bytes.push(bytes), done: () => {} };
  };
  return { seen, start };
}

const config = resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true } }]).config;

/** Cumulative fractions of the total, as the bar would show them. */
const fractions = (seen: { total: number; bytes: number[] }) => {
  let sum = 0;
  return seen.bytes.map((bytes) => (sum += bytes) / seen.total);
};

const ONE_POINT: SweepGrid = { passes: [{ points: [{ origin: "test", source: "--set", values: {} }] }], filters: {} };

/** Reads the input as sweep does, under one config. */
async function sweepRead(paths: readonly string[], options: InputOptions): Promise<void> {
  const progress = options.progress;
  await sweepAll(paths, await loadXxhashDigest(), {}, ONE_POINT, options, { LOOPLENS_WORKERS: "0" }, progress && { of: () => progress, update: () => {} });
}

describe("InputProgress", () => {
  it("counts a file read twice once, and a later pass only where it reaches further", () => {
    const reported: number[] = [];
    const progress = new InputProgress((bytes) => void reported.push(bytes));
    const first = progress.pass("a");
    first(40, 1);
    first(60, 1); // the whole file: 100 bytes
    const second = progress.pass("a");
    second(70, 1);
    second(30, 1);
    const other = progress.pass("b");
    other(10, 1);
    expect(reported.reduce((sum, b) => sum + b, 0)).toBe(110);
    expect(reported.every((bytes) => bytes >= 0)).toBe(true);
    const partial = progress.pass("c"); // a scan that stops early, then the full pass
    partial(5, 1);
    const full = progress.pass("c");
    full(20, 1);
    expect(reported.reduce((sum, b) => sum + b, 0)).toBe(130);
  });
});

describe("progress through the pipeline", () => {
  it("two transcripts (two passes each): the total is the input's size, the bar ends there and never falls", async () => {
    const { paths, size } = folder({ "s-1.jsonl": transcript("s-1", 40), "s-2.jsonl": transcript("s-2", 25) });
    const { seen, start } = recorder();
    await analyzeAll(paths, await loadXxhashDigest(), () => config, { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" }, start);
    expect(seen.total).toBe(size);
    const shown = fractions(seen);
    expect(shown.at(-1)).toBe(1);
    expect(shown.every((f, i) => f <= 1 && (i === 0 || f >= shown[i - 1]!))).toBe(true);
  });

  it("a unit read again after a failed shortcut (four passes) still counts its bytes once", async () => {
    // A role given twice: the first pass's byte scan sees an assistant message, the parse a user one.
    const lying = transcript("s-1", 12, ['{"type":"message","id":"Z","parentId":"LAST","message":{"role":"assistant","role":"user"}}']);
    const { paths, size } = folder({ "s-1.jsonl": lying, "s-2.jsonl": transcript("s-2", 8) });
    let passes = 0;
    const reported: number[] = [];
    const progress = new (class extends InputProgress {
      override pass(file: string) {
        if (file === paths[0]) passes++;
        return super.pass(file);
      }
    })((bytes) => void reported.push(bytes));
    await sweepRead(paths, { progress });
    expect(passes).toBeGreaterThanOrEqual(4);
    expect(reported.reduce((sum, b) => sum + b, 0)).toBe(size);
  });

  it("a transcript that names no run is read in one pass, and its bytes still count once", async () => {
    const unnamed = transcript("s-1", 20).replace(`${bootstrap("s-1")}\n`, "").replace('"parentId":"b"', '"parentId":null');
    const { paths, size } = folder({ "s-1.jsonl": unnamed, "s-2.jsonl": transcript("s-2", 8) });
    const passes = new Map<string, number>();
    const reported: number[] = [];
    const progress = new (class extends InputProgress {
      override pass(file: string) {
        passes.set(file, (passes.get(file) ?? 0) + 1);
        return super.pass(file);
      }
    })((bytes) => void reported.push(bytes));
    await sweepRead(paths, { progress });
    expect([passes.get(paths[0]!), passes.get(paths[1]!)]).toEqual([1, 2]);
    expect(reported.reduce((sum, b) => sum + b, 0)).toBe(size);
  });

  it("events and sweep's reading report progress too, each byte once", async () => {
    const lines = repeat(200, "r", "exec", { command: "make" }, textResult("same"));
    const { paths, size } = folder({ "a.jsonl": toJsonl(lines), "s-2.jsonl": transcript("s-2", 30) });
    for (const read of [
      (progress: InputProgress) => readEvents(paths, (t) => t, { progress }, () => {}),
      (progress: InputProgress) => sweepRead(paths, { progress }),
    ]) {
      const reported: number[] = [];
      await read(new InputProgress((bytes) => void reported.push(bytes)));
      expect(reported.reduce((sum, b) => sum + b, 0)).toBe(size);
    }
  });

  it("sweep --vary profile reads the input once per profile: the bar's total is the input's size that many times, and each read fills its share", async () => {
    const { paths, size } = folder({ "s-1.jsonl": transcript("s-1", 40), "s-2.jsonl": transcript("s-2", 30) });
    const { seen, start } = recorder();
    const shown = await startInputProgress(paths, start, 2);
    const point = { origin: "test", source: "--set" as const, values: {} };
    const grid: SweepGrid = { passes: [{ profile: "configurable", points: [point] }, { profile: "newest", points: [point] }], filters: {} };
    const filled: number[] = [];
    const of = (pass: number) => {
      filled[pass] = seen.bytes.reduce((sum, b) => sum + b, 0);
      return shown.pass(pass);
    };
    await sweepAll(paths, await loadXxhashDigest(), {}, grid, {}, { LOOPLENS_WORKERS: "0" }, { of, update: shown.update! });
    expect(seen.total).toBe(2 * size);
    expect(seen.bytes.reduce((sum, b) => sum + b, 0)).toBe(2 * size);
    // Units sweep their passes one after the other: the second pass of the first unit starts before the input is through.
    expect(filled.length).toBe(2);
  });

  it("the meter fed by two files read twice never shows more than their size, nor a smaller percentage", async () => {
    const { paths, size } = folder({ "s-1.jsonl": transcript("s-1", 300), "s-2.jsonl": transcript("s-2", 200) });
    let time = 0;
    const writes: string[] = [];
    const start: StartProgress = (total) => {
      const meter = new ProgressMeter(total, (text) => writes.push(text), () => (time += REDRAW_MS), 100);
      return { update: (bytes, lines) => meter.update(bytes, lines), done: () => {} };
    };
    await analyzeAll(paths, await loadXxhashDigest(), () => config, { config: {}, input: {} }, { LOOPLENS_WORKERS: "0" }, start);
    const shown = writes.map((text) => /(\d+)% .* ([\d.]+)\/([\d.]+) MB/.exec(text)!).map((m) => ({ percent: Number(m[1]), bytes: Number(m[2]), total: Number(m[3]) }));
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.every((s) => s.total === Number((size / 1e6).toFixed(1)) && s.bytes <= s.total)).toBe(true);
    expect(shown.every((s, i) => i === 0 || s.percent >= shown[i - 1]!.percent)).toBe(true);
  });
});
