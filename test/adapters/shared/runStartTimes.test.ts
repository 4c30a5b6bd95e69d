/**
 * Runs are dated by their first dated event (`startedAt`, for --since/--until): the adapters put the
 * time of the line that starts a run (a user message, a prompt, a turn) on its first event as `ts`.
 * Checked on each agent's fixture against the times its own lines record.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventTime } from "../../../src/core/eventTime.js";
import { analyzePaths } from "../../helpers/inProcess.js";

/** Every time a line of the file records at its top level (or in its `message`), normalised. */
function recordedTimes(file: string): Set<string> {
  const times = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value !== "string" && typeof value !== "number") return;
    const time = eventTime(value);
    if (time !== null) times.add(time);
  };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as Record<string, unknown>;
      add(value.timestamp);
      add((value.message as Record<string, unknown> | undefined)?.timestamp);
    } catch {
      // a bad line of the fixture: no time
    }
  }
  return times;
}

const FIXTURES = [
  "fixtures/openclaw/agents/main/sessions/2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d.jsonl",
  "fixtures/agents/claude-code/loop-v2.0.jsonl",
  "fixtures/agents/codex/loop-0.47.jsonl",
  "fixtures/agents/gemini/tmp/looplens-demo/chats/session-2026-04-30T09-12-e5f6a7b8.jsonl",
];

describe("runs carry the time of the line that started them", () => {
  it.each(FIXTURES)("%s", async (file) => {
    const { runs } = await analyzePaths([file]);
    const times = recordedTimes(file);
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
