/**
 * Runs are dated by their first dated event (`startedAt`, for --since/--until): the adapters put the
 * time of the line that starts a run (a user message, a prompt, a turn) on its first event as `ts`.
 * Checked on each agent's fixture against the times its own lines record.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventTime } from "../../../src/core/eventTime.js";
import { analyzePaths } from "../../helpers/inProcess.js";
import { tempDir } from "../../helpers/tempDir.js";

/**
 * Every time a record of the file records at its top level (`timestamp`, a trajectory's `ts`) or in
 * its `message`, normalised. A `.json` file is one document: an array of records (OpenHands V0).
 * OpenHands writes times without a zone, which looplens reads as UTC (`zoneless`).
 */
function recordedTimes(file: string, zoneless = false): Set<string> {
  const times = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value !== "string" && typeof value !== "number") return;
    const time = eventTime(zoneless && typeof value === "string" ? `${value}Z` : value);
    if (time !== null) times.add(time);
  };
  const text = readFileSync(file, "utf8");
  const records = file.endsWith(".json") ? (JSON.parse(text) as unknown[]) : text.split("\n").filter((line) => line.trim() !== "").flatMap(parsedLine);
  for (const value of records as Array<Record<string, unknown>>) {
    add(value.timestamp);
    add(value.ts);
    add((value.message as Record<string, unknown> | undefined)?.timestamp);
  }
  return times;
}

function parsedLine(line: string): unknown[] {
  try {
    return [JSON.parse(line)];
  } catch {
    return []; // a bad line of the fixture: no time
  }
}

const FIXTURES = [
  "fixtures/openclaw/agents/main/sessions/2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d.jsonl",
  "fixtures/agents/claude-code/loop-v2.0.jsonl",
  "fixtures/agents/codex/loop-0.47.jsonl",
  "fixtures/agents/gemini/tmp/looplens-demo/chats/session-2026-04-30T09-12-e5f6a7b8.jsonl",
  // Trajectories: a legacy sidecar (`session.started`), a 2026.5 sidecar (`prompt.submitted`), and an
  // exported bundle whose transcript events are replayed (`user.message`).
  "fixtures/openclaw/agents/main/sessions/b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e.trajectory.jsonl",
  "fixtures/openclaw/agents/main/sessions/c5d6e7f8-a9b0-4c1d-8e2f-3a4b5c6d7e8f.trajectory.jsonl",
  "fixtures/openclaw/trajectory-exports/openclaw-trajectory-d4e5f6a7-2026-05-02T14-05-00/events.jsonl",
];

/** OpenHands: a V0 trajectory (its runs start at user messages) and a V1 stream. */
const OPENHANDS = ["fixtures/agents/openhands/v0-trajectory.json", "fixtures/agents/openhands/v1-copies-and-bad-lines.jsonl"];

describe("runs carry the time of the line that started them", () => {
  it.each([...FIXTURES.map((file) => [file, false] as const), ...OPENHANDS.map((file) => [file, true] as const)])("%s", async (file, zoneless) => {
    const { runs } = await analyzePaths([file]);
    const times = recordedTimes(file, zoneless);
    expect(runs.length).toBeGreaterThan(0);
    const dated = runs.filter((run) => run.startedAt !== null && run.startedAt !== undefined);
    expect(dated.length, runs.map((run) => `${run.run}: ${run.startedAt}`).join("\n")).toBeGreaterThan(0);
    for (const run of dated) expect(times.has(run.startedAt!), `${run.run}: ${run.startedAt}`).toBe(true);
    // Runs follow one another: their start times never go back.
    const starts = dated.map((run) => Date.parse(run.startedAt!));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("canonical events: the first dated event, in ISO form, whatever form ts takes", async () => {
    const { runs } = await analyzePaths(["fixtures/ping-pong.jsonl"]);
    expect(runs.map((run) => run.startedAt)).toEqual([null]);
    expect(eventTime("2026-05-01T10:00:00+02:00")).toBe("2026-05-01T08:00:00.000Z");
    expect(eventTime(1777629600000)).toBe("2026-05-01T10:00:00.000Z");
    expect(eventTime(1777629600)).toBe("2026-05-01T10:00:00.000Z");
    expect(eventTime("not a date")).toBeNull();
    expect(eventTime(undefined)).toBeNull();
  });
});

describe("a run that no dated line started", () => {
  it("Claude Code: a run before any prompt (a cut file) is dated by its first call's line", async () => {
    const lines = readFileSync("fixtures/agents/claude-code/loop-v2.0.jsonl", "utf8").trimEnd().split("\n");
    // Without its first prompt the file begins in the middle of a run.
    const cut = lines.filter((line, i) => i === 0 || !line.includes('"type": "user"') || i > lines.findIndex((l) => l.includes('"type": "user"')));
    expect(cut.length).toBe(lines.length - 1);
    const dir = tempDir("looplens-cut-");
    const file = join(dir, "cut.jsonl");
    writeFileSync(file, `${cut.join("\n")}\n`);
    const firstCall = cut.find((line) => line.includes('"type": "tool_use"'))!;
    const { runs } = await analyzePaths([file]);
    expect(runs[0]!.startedAt).toBe((JSON.parse(firstCall) as { timestamp: string }).timestamp);
    expect(runs.every((run) => typeof run.startedAt === "string")).toBe(true);
  });
});
