/**
 * `looplens events` keeps each event's original `file`/`line`, and the events adapter reads them
 * back: analysing the printed stream reports every finding where analysing the input itself does
 * (an abort at transcript line 18 must not come back at the events file's line 15).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BASE_FIXTURES, ndjsonFindings, runMain } from "../../helpers/cli.js";
import { toEvent } from "../../../src/adapters/events/canonicalEvents.js";
import { tempDir } from "../../helpers/tempDir.js";

/** One input of every format the fixtures hold (folders: every file of that format in them). */
const INPUTS = [
  ...BASE_FIXTURES.filter((file) => !file.includes("healthy")), // a fixture without findings proves nothing here
  "fixtures/openclaw/agents", // session transcripts and runtime trajectory sidecars
  "fixtures/openclaw/trajectory-exports",
  "fixtures/openclaw-store", // the SQLite transcript store: file is `<db>#<session>`
  "fixtures/gateway", // Gateway logs: live findings (and a transcript beside its log)
  "fixtures/agents/claude-code",
  "fixtures/agents/codex",
  "fixtures/agents/gemini",
  "fixtures/agents/openhands",
  "fixtures/config/two-agents.jsonl",
];

const located = (stdout: string) =>
  ndjsonFindings(stdout)
    .map((f) => [f.file, f.line, f.run, f.call, f.tool, f.detector, f.level, f.count].join(" "))
    .sort();

describe("events → analyze keeps the original locations", () => {
  it.each(INPUTS)("%s", async (input) => {
    const direct = await runMain(["analyze", "-f", "ndjson", input]);
    expect(direct.status).toBe(0);
    const printed = await runMain(["events", input]);
    expect(printed.status).toBe(0);
    const path = join(tempDir("looplens-origin-"), "printed.events.jsonl");
    writeFileSync(path, printed.stdout);
    const replayed = await runMain(["analyze", "-f", "ndjson", path]);
    expect(replayed.status).toBe(0);
    const findings = located(direct.stdout);
    expect(findings.length).toBeGreaterThan(0);
    expect(located(replayed.stdout)).toEqual(findings);
  });
});

describe("the events adapter's origin fields", () => {
  const call = { type: "tool_call", run: "r", tool: "read", args: {} };

  it("takes a recorded file and line, and the event's own place without them", () => {
    const recorded = toEvent({ ...call, file: "orig.jsonl", line: 18 }, "printed.jsonl", 15, undefined, "text");
    expect(recorded.ok && [recorded.event.file, recorded.event.line]).toEqual(["orig.jsonl", 18]);
    const own = toEvent(call, "printed.jsonl", 15, undefined, "text");
    expect(own.ok && [own.event.file, own.event.line, own.notice]).toEqual(["printed.jsonl", 15, undefined]);
  });

  it.each([
    [{ file: "orig.jsonl" }],
    [{ line: 18 }],
    [{ file: "", line: 18 }],
    [{ file: "orig.jsonl", line: 0 }],
    [{ file: "orig.jsonl", line: 1.5 }],
    [{ file: 7, line: 18 }],
  ])("keeps its own place, with a notice, for a location that is not one: %j", (origin) => {
    const parsed = toEvent({ ...call, ...origin }, "printed.jsonl", 15, undefined, "text");
    expect(parsed.ok && [parsed.event.file, parsed.event.line]).toEqual(["printed.jsonl", 15]);
    expect(parsed.ok && parsed.notice).toMatch(/not a location/);
  });

  it("reads the origin of live events too", () => {
    const live = { type: "live_marker", marker: "run_start", run: "r", file: "gw.log", line: 40 };
    const parsed = toEvent(live, "printed.jsonl", 3, undefined, "text");
    expect(parsed.ok && [parsed.event.file, parsed.event.line]).toEqual(["gw.log", 40]);
  });
});
