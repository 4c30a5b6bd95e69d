/**
 * The pass over a large last transcript (lastFilePass.ts): a timestamp may repeat when it is not
 * above every earlier one of its kind; the call ids of results naming an unknown tool are the ones
 * to remember; what it read from the bytes is confirmed by the replay's parse.
 */
import { describe, expect, it } from "vitest";
import { textSource } from "../../../src/adapters/io/sources.js";
import { classifySessionLine } from "../../../src/adapters/openclaw/sessionEntries.js";
import { findLastFileFacts } from "../../../src/adapters/openclaw/lastFilePass.js";
import { messageTimestamp } from "../../../src/adapters/openclaw/repeatedTimes.js";

/** A message entry as OpenClaw writes it: `message.timestamp` last, so the pass reads it from the end. */
const message = (id: string, role: string, timestamp: unknown) =>
  JSON.stringify({ type: "message", id, parentId: null, timestamp: "2026-05-01T09:00:00.000Z", message: { role, content: [], timestamp } });
/** The same with the timestamp elsewhere: the pass parses it. */
const reordered = (id: string, role: string, timestamp: unknown) =>
  JSON.stringify({ type: "message", id, parentId: null, message: { timestamp, role, content: [] }, extra: 1 });

async function facts(lines: readonly string[]) {
  const source = textSource("t.jsonl", `${lines.join("\n")}\n`);
  return findLastFileFacts(source.forEachRawLine!.bind(source));
}

const pass = async (lines: readonly string[]) => (await facts(lines)).times;

/** The replay's side: every message entry's timestamp as parsed, in order. */
function replay(times: Awaited<ReturnType<typeof pass>>, lines: readonly string[]): boolean {
  lines.forEach((text, i) => {
    const parsed = classifySessionLine(text, true);
    if (parsed.kind === "entry" && parsed.type === "message") times.confirm(i + 1, messageTimestamp(parsed.value), parsed.form);
  });
  return times.confirmed();
}

describe("repeated message timestamps", () => {
  it("are those not above every earlier one: copies, and anything out of order", async () => {
    const lines = [
      '{"type":"session","version":3,"id":"s"}',
      message("a", "user", 10),
      message("b", "assistant", 20),
      '{"type":"model_change","id":"m","parentId":"b","timestamp":5}',
      reordered("c", "toolResult", 30),
      message("d", "assistant", 40),
      message("b2", "assistant", 20), // a rewritten copy of b
      reordered("x", "user", 15), // out of order, not a copy
      message("e", "user", "2026-05-01T10:00:00Z"),
      message("f", "user", "2026-05-01T09:00:00Z"), // strings compared among themselves
      message("g", "user", 50),
    ];
    const times = await pass(lines);
    expect([10, 20, 30, 40, 15, 50, 5].map((t) => times.mayRepeat(t, "text"))).toEqual([false, true, false, false, true, false, false]);
    expect(times.mayRepeat("2026-05-01T09:00:00Z", "text")).toBe(true);
    expect(times.mayRepeat("2026-05-01T10:00:00Z", "text")).toBe(false);
    expect(times.mayRepeat(undefined, "text")).toBe(false);
    expect(replay(times, lines)).toBe(true);
  });

  it("a number never repeats a string, nor the other way round", async () => {
    const times = await pass([message("a", "user", "9"), message("b", "user", 1), message("c", "user", "8"), message("d", "user", 2)]);
    expect([times.mayRepeat(1, "text"), times.mayRepeat(2, "text"), times.mayRepeat("8", "text"), times.mayRepeat("9", "text")]).toEqual([false, false, true, false]);
  });

  it("are confirmed only when the replay parses the same timestamps on the same lines", async () => {
    const lines = [message("a", "user", 10), message("b", "assistant", 20)];
    expect(replay(await pass(lines), lines)).toBe(true);
    // The replay saw another timestamp on a line.
    expect(replay(await pass(lines), [lines[0]!, message("b", "assistant", 21)])).toBe(false);
    // A line cut by a crash and continued by the next write ends like a message, but is no JSON.
    const cut = `${message("a", "user", 10).slice(0, 40)}${message("b", "assistant", 20)}`;
    const times = await pass([cut]);
    expect(times.mayRepeat(20, "text")).toBe(false);
    expect(replay(times, [cut])).toBe(false);
  });
});

describe("call ids of results naming an unknown tool", () => {
  const result = (id: string, text: string, isError: string) =>
    `{"type":"message","id":"r${id}","parentId":null,"message":{"role":"toolResult","toolCallId":"${id}","toolName":"browser","content":[{"type":"text","text":"${text}"}],${isError},"timestamp":1}}`;

  it("are the ones whose calls are remembered", async () => {
    const { rebuilt } = await facts([
      result("c1", "Unknown tool: browser", '"isError":true'),
      result("c2", "Tool browser not found", '"isError":true'),
      result("c3", "Unknown tool: browser", '"isError":false'), // not a failure: an ordinary result
      result("c4", "no such file", '"isError":true'),
    ]);
    expect(["c1", "c2", "c3", "c4"].map((id) => rebuilt.needed(id))).toEqual([true, true, false, false]);
    rebuilt.confirm("c1");
    expect(rebuilt.confirmed()).toBe(true);
  });

  it("are not confirmed when the replay meets one the pass did not read", async () => {
    // `"isError": true` with a space: the pass reads the line from its bytes and does not see a failure.
    const { rebuilt } = await facts([result("c5", "Unknown tool: browser", '"isError": true')]);
    expect(rebuilt.needed("c5")).toBe(false);
    rebuilt.confirm("c5");
    expect(rebuilt.confirmed()).toBe(false);
  });
});
