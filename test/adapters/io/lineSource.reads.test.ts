/**
 * Who reads a file how often (lineSource.ts, the table in its module comment): each input shape is
 * analysed on its own and in a folder of its kind, and every open of the file and every pass over
 * its lines is counted. A read added back (a second look at a head, a pass more) fails here.
 */
import { basename } from "node:path";
import { describe, expect, it, vi } from "vitest";

const opens = new Map<string, number>();
const passes = new Map<string, number>();
const count = (map: Map<string, number>, path: unknown) => {
  if (typeof path === "string") map.set(basename(path), (map.get(basename(path)) ?? 0) + 1);
};

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const openSync = ((path: unknown, ...rest: unknown[]) => {
    count(opens, path);
    return (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
  }) as typeof fs.openSync;
  const readFileSync = ((path: unknown, ...rest: unknown[]) => {
    count(opens, path);
    return (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  const createReadStream = ((path: unknown, ...rest: unknown[]) => {
    count(opens, path);
    return (fs.createReadStream as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.createReadStream;
  return { ...fs, default: { ...fs, openSync, readFileSync, createReadStream }, openSync, readFileSync, createReadStream };
});

vi.mock("../../../src/adapters/io/sources.js", async (importOriginal) => {
  const sources = await importOriginal<typeof import("../../../src/adapters/io/sources.js")>();
  return {
    ...sources,
    // Every pass over a file's lines (the sniff's, an adapter's) and every search of its bytes.
    async fileSource(...args: Parameters<typeof sources.fileSource>) {
      const source = await sources.fileSource(...args);
      const counted = <F extends (...a: never[]) => Promise<unknown>>(pass: F | undefined): F | undefined =>
        pass && ((async (...a: Parameters<F>) => (count(passes, args[0]), pass(...a))) as F);
      return {
        ...source,
        forEachLine: counted(source.forEachLine.bind(source))!,
        ...(source.forEachRawLine && { forEachRawLine: counted(source.forEachRawLine.bind(source)) }),
        ...(source.mayContain && { mayContain: counted(source.mayContain.bind(source)) }),
      };
    },
  };
});

const { loadXxhashDigest } = await import("../../../src/core/xxhashDigest.js");
const { analyzeInputs } = await import("../../../src/pipeline/analysis.js");
const { createConfigResolver } = await import("../../../src/pipeline/configResolution.js");

async function reads(paths: string[], file: string): Promise<{ opens: number; passes: number }> {
  opens.clear();
  passes.clear();
  const resolver = await createConfigResolver({});
  await analyzeInputs(paths, await loadXxhashDigest(), (agent, profile) => resolver.effectiveFor(agent, profile).config, {});
  return { opens: opens.get(basename(file)) ?? 0, passes: passes.get(basename(file)) ?? 0 };
}

const SESSIONS = "fixtures/openclaw/agents/main/sessions";
/** One file of each shape, and the folder it is met in with files of its kind. */
const SHAPES = {
  "OpenClaw session": [`${SESSIONS}/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl`, SESSIONS],
  "OpenClaw sidecar": [`${SESSIONS}/b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e.trajectory.jsonl`, SESSIONS],
  "Claude Code": ["fixtures/agents/claude-code/loop-v2.0.jsonl", "fixtures/agents/claude-code"],
  Codex: ["fixtures/agents/codex/parallel-0.146.jsonl", "fixtures/agents/codex"],
  Gemini: ["fixtures/agents/gemini/tmp/looplens-demo/chats/session-2026-04-29T21-39-a1b2c3d4.jsonl", "fixtures/agents/gemini/tmp/looplens-demo/chats"],
  OpenHands: ["fixtures/agents/openhands/v1-events.jsonl", "fixtures/agents/openhands"],
  events: ["fixtures/healthy.jsonl", "fixtures"],
  "Gateway log": ["fixtures/gateway/openclaw-2026-05-02.log", "fixtures/gateway"],
} as const;

describe("reads of a file, per shape", () => {
  it("named alone and met in a folder, each shape costs the opens and passes lineSource.ts states", async () => {
    const measured: Record<string, unknown> = {};
    for (const [shape, [file, folder]] of Object.entries(SHAPES)) {
      measured[shape] = { alone: await reads([file], file), inFolder: await reads([folder], file) };
    }
    // Opens: a file named alone is first looked at for a SQLite store's header (discovery.ts
    // `containerOf`); a Claude Code, Codex, Gemini, OpenHands or events file among others of its
    // kind is opened for its fork-tag head (kept: measured at ~1% of a folder's analysis at most,
    // lineSource.ts); then one open reads it (a small file whole, kept for every pass). Passes: the
    // sniff, then the adapter's over the kept bytes.
    const cost = (alone: number, inFolder: number, passes: number) => ({ alone: { opens: alone, passes }, inFolder: { opens: inFolder, passes } });
    expect(measured).toEqual({
      "OpenClaw session": cost(2, 1, 4),
      "OpenClaw sidecar": cost(2, 1, 3),
      "Claude Code": cost(2, 2, 2),
      Codex: cost(2, 2, 2),
      Gemini: cost(2, 2, 3),
      OpenHands: cost(2, 2, 3),
      events: cost(2, 2, 3),
      "Gateway log": cost(2, 1, 3),
    });
  });
});
