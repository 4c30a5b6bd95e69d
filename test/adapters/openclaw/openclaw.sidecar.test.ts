/**
 * Runtime trajectory sidecars of 2026.5 builds (inputs.md §3): no `tool.*` events, the calls and
 * results only inside each `model.completed.data.messagesSnapshot`, which repeats the whole
 * conversation so far. Each call must be replayed once, in order, followed by its own result, in the
 * run its `prompt.submitted` named; the same session read as a transcript finds the same loops.
 */
import { describe, expect, it } from "vitest";
import { scanTrajectory } from "../../../src/adapters/openclaw/trajectoryLines.js";
import { textSource } from "../../../src/adapters/io/sources.js";
import { ndjsonFindings, runCli, runMain } from "../../helpers/cli.js";
import { analyzePaths, verdicts, writeSessionFile } from "../../helpers/inProcess.js";
import { nightlyBuildStory } from "../../helpers/openclawFixtures.js";
import { Conversation, TrajectoryBuilder, writeAttempt } from "../../helpers/openclawTrajectoryBuilder.js";
import { expectedToolEvents, transcriptEventsText, writeStory, type Story } from "../../helpers/runtimeSidecar.js";

/**
 * Two files read side by side over and over (parallel calls, some results back out of order, the
 * 10th read of b vetoed by the live runtime), then a failing test run repeated with a thrown error
 * beside it: ping-pong, generic repeats and an error result, on an older build.
 */
function compareStory(): Story {
  const a = { name: "read", args: { path: "config/a.json" } };
  const b = { name: "read", args: { path: "config/b.json" } };
  const test = { name: "exec", args: { command: "npm test -- auth.spec.ts" } };
  const failing = { kind: "result", text: "Tests: 1 failed, 23 passed", details: { status: "failed", exitCode: 1, aggregated: "Tests: 1 failed, 23 passed" }, isError: true } as const;
  return {
    sessionId: "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d",
    sessionKey: "agent:ops:main",
    agentId: "ops",
    version: "2026.4.29",
    runs: [
      {
        runId: "run-compare",
        prompt: "Make config/a.json and config/b.json match.",
        work: (c) => {
          for (let i = 1; i <= 10; i++) {
            const [callA, callB] = [{ id: `call_a_${i}`, ...a }, { id: `call_b_${i}`, ...b }];
            c.calls([callA, callB], i === 1 ? "Reading both files side by side." : undefined);
            const results = [() => c.result(callA, { kind: "result", text: '{"retries": 3}' }), () => c.result(callB, i === 10 ? { kind: "veto" } : { kind: "result", text: '{"retries": 5}' })];
            (i % 3 === 0 ? results.reverse() : results).forEach((write) => write());
          }
          c.assistantText("I keep reading the same two files; stopping here.");
        },
      },
      {
        runId: "run-fix-tests",
        prompt: "The auth tests fail. Fix them.",
        work: (c) => {
          const missing = { id: "call_missing", name: "read", args: { path: "src/auth.old.ts" } };
          const first = { id: "call_test_0", ...test };
          c.calls([missing, first]);
          c.result(missing, { kind: "error", text: "ENOENT: no such file or directory, access 'src/auth.old.ts'" });
          c.result(first, failing);
          for (let i = 1; i <= 11; i++) {
            const call = { id: `call_test_${i}`, ...test };
            c.calls([call]);
            c.result(call, failing);
          }
          c.assistantText("The test still fails.");
        },
      },
    ],
  };
}

const STORIES = [nightlyBuildStory(), compareStory()];

function sidecarFile(story: Story, text: string): string {
  return writeSessionFile(text, `${story.sessionId}.trajectory.jsonl`, story.agentId);
}

/** Findings as ndjson through the real CLI, without where they were read (file, line). */
function cliFindings(path: string): Array<Record<string, unknown>> {
  const result = runCli(["analyze", path, "--format", "ndjson"]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return ndjsonFindings(result.stdout).map(({ file: _file, line: _line, ...finding }) => finding);
}

/** The lines of a sidecar with `edit` applied to every message of every snapshot. */
function editSnapshots(text: string, edit: (message: Record<string, unknown>) => Record<string, unknown>): string {
  return text.replace(/^.+$/gm, (line) => {
    const event = JSON.parse(line) as { type: string; data: { messagesSnapshot?: Array<Record<string, unknown>> } };
    if (event.type !== "model.completed" || !event.data.messagesSnapshot) return line;
    return JSON.stringify({ ...event, data: { ...event.data, messagesSnapshot: event.data.messagesSnapshot.map(edit) } });
  });
}

describe("runtime trajectory sidecars (calls in model.completed snapshots)", () => {
  for (const story of STORIES) {
    it(`${story.runs[0]!.runId}: each call once, in order, followed by its own result, in its prompt's run`, async () => {
      const written = writeStory(story);
      const events = await runMain(["events", sidecarFile(story, written.sidecar)]);
      expect(events.stderr).toBe("");
      const tools = events.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, string>)
        .filter((e) => e.type === "tool_call" || e.type === "tool_result")
        .map((e) => `${e.run} ${e.type === "tool_call" ? "call" : "result"} ${e.id}${e.type === "tool_call" ? ` ${e.tool}` : ""}`);
      expect(tools).toEqual(expectedToolEvents(written));
      expect(tools.length).toBeGreaterThan(2 * story.runs.length);
    });

    it(`${story.runs[0]!.runId}: the same session read as its transcript gives the same findings`, () => {
      const written = writeStory(story);
      const fromSidecar = cliFindings(sidecarFile(story, written.sidecar));
      const fromTranscript = cliFindings(writeSessionFile(written.transcript, `${story.sessionId}.jsonl`, story.agentId));
      expect(fromSidecar).toEqual(fromTranscript);
      expect(fromSidecar.length).toBeGreaterThan(0);
    });
  }

  it("snapshots repeating the conversation add nothing: calls per run as in the messages, line accounting exact", async () => {
    for (const story of STORIES) {
      const written = writeStory(story);
      const analysis = await analyzePaths([sidecarFile(story, written.sidecar)]);
      const callsOf = (messages: ReadonlyArray<Record<string, unknown>>) =>
        messages.flatMap((m) => (m.role === "assistant" ? (m.content as Array<{ type: string }>).filter((b) => b.type === "toolCall") : [])).length;
      expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual(written.runs.map((r) => [r.runId, callsOf(r.messages)]));
      // Per run: started, prompt, completed (it added calls), ended are used; metadata, compiled
      // context and artifacts are ignored.
      const lines = 7 * story.runs.length;
      expect(analysis.lines).toEqual({ read: lines, used: 4 * story.runs.length, ignored: 3 * story.runs.length, skipped: 0 });
      expect(analysis.diagnostics).toEqual([]);
    }
  });

  it("an attempt whose snapshot only repeats earlier ones is ignored, and changes nothing", async () => {
    const story = nightlyBuildStory();
    const once = await analyzePaths([sidecarFile(story, writeStory(story).sidecar)]);
    // The same story with a second, empty-handed attempt of the last run (the prompt retried).
    const retried: Story = { ...story, runs: [...story.runs, { ...story.runs.at(-1)!, work: () => {} }] };
    const twice = await analyzePaths([sidecarFile(story, writeStory(retried).sidecar)]);
    expect(verdicts(twice)).toEqual(verdicts(once));
    expect(twice.runs.map((r) => [r.run, r.calls])).toEqual(once.runs.map((r) => [r.run, r.calls]));
    // Its 7 lines: started, prompt, ended used; its completed (only copies) ignored with the others.
    expect(twice.lines).toEqual({ read: once.lines.read + 7, used: once.lines.used + 3, ignored: once.lines.ignored + 4, skipped: 0 });
  });

  it("messages without ids (and without timestamps) are told apart by content and count: same calls, same findings", async () => {
    const story = nightlyBuildStory();
    const written = writeStory(story);
    const withIds = await analyzePaths([sidecarFile(story, written.sidecar)]);
    const stripIds = (m: Record<string, unknown>): Record<string, unknown> => {
      const { toolCallId: _id, ...rest } = m;
      const content = Array.isArray(m.content) ? m.content.map(({ id: _blockId, ...block }: Record<string, unknown>) => block) : m.content;
      return { ...rest, content };
    };
    const noIds = await analyzePaths([sidecarFile(story, editSnapshots(written.sidecar, stripIds))]);
    const stripAll = (m: Record<string, unknown>) => {
      const { timestamp: _ts, ...rest } = stripIds(m);
      return rest;
    };
    const bare = await analyzePaths([sidecarFile(story, editSnapshots(written.sidecar, stripAll))]);
    for (const analysis of [noIds, bare]) {
      expect(analysis.runs.map((r) => [r.run, r.calls])).toEqual(withIds.runs.map((r) => [r.run, r.calls]));
      expect(verdicts(analysis)).toEqual(verdicts(withIds));
      expect(analysis.lines).toEqual(withIds.lines);
    }
    expect(verdicts(withIds).length).toBeGreaterThan(0);
  });

  it("the first pass reads the build version and the prompts' run ids", async () => {
    for (const story of STORIES) {
      const scan = await scanTrajectory(textSource("s.trajectory.jsonl", writeStory(story).sidecar), true);
      expect(scan.harnessVersion).toBe(story.version);
      expect(scan.runFacts?.prompts.map((p) => p.runId)).toEqual(story.runs.map((r) => r.runId));
      expect(scan.runFacts?.prompts.every((p) => p.ms !== undefined)).toBe(true);
      expect([scan.snapshotTools, scan.runtimeTools, scan.transcriptTools]).toEqual([true, false, false]);
    }
    // A build upgraded between runs: the first version; a bare string (legacy recorders) names no build.
    const t = new TrajectoryBuilder("s-2", "agent:main:main");
    t.runtime("r1", "trace.metadata", { harness: "embedded" });
    t.runtime("r1", "prompt.submitted", { prompt: "one" });
    t.runtime("r1", "prompt.submitted", { prompt: "one, on the fallback model" });
    t.runtime("r2", "trace.metadata", { harness: { version: "2026.5.2" } });
    t.runtime("r2", "prompt.submitted", { prompt: "two" });
    t.runtime("r3", "trace.metadata", { harness: { version: "2026.5.3" } });
    const scan = await scanTrajectory(textSource("s-2.trajectory.jsonl", t.text()), true);
    expect(scan.harnessVersion).toBe("2026.5.2");
    expect(scan.runFacts?.prompts.map((p) => p.runId)).toEqual(["r1", "r1", "r2"]);
    // Read alone, a sidecar names no transcript's runs: the pass does not gather what would.
    expect((await scanTrajectory(textSource("s-2.trajectory.jsonl", t.text()))).runFacts).toBeUndefined();
  });
});
