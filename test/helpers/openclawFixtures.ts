/**
 * The OpenClaw fixtures under fixtures/openclaw/, as code: `openclaw.fixtures.test.ts` checks that the
 * committed files are exactly what this writes (UPDATE_FIXTURES=1 rewrites them), so each fixture's
 * story stays readable here while the files stay plain transcripts a user can open.
 */
import { TranscriptBuilder, type ToolCallSpec, type ToolOutcomeSpec } from "./openclawTranscript.js";
import { TrajectoryBuilder, type Conversation } from "./openclawTrajectoryBuilder.js";
import { writeStory, type Story } from "./runtimeSidecar.js";

export interface FixtureFile {
  /** Path relative to the project root. */
  readonly path: string;
  readonly text: string;
}

const SESSIONS = "fixtures/openclaw/agents";

/** One call and its result, as its own assistant message. */
function step(t: TranscriptBuilder, call: ToolCallSpec, outcome: ToolOutcomeSpec, thinking?: string): void {
  t.calls([call], thinking);
  t.result(call, outcome);
}

/**
 * A background build polled until the live runtime vetoed the 21st identical poll; the model polls
 * once more (vetoed again) and gives up.
 */
function pollWithVeto(): FixtureFile {
  const t = new TranscriptBuilder("7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51");
  t.bootstrap("run-build-poll");
  t.user("Build the release bundle and tell me when it is done.");
  t.modelChange();
  step(
    t,
    { id: "call_exec_1", name: "exec", args: { command: "npm run build:release", background: true } },
    { kind: "result", text: "Command still running (session proc-7, pid 4242).", details: { status: "running", sessionId: "proc-7", pid: 4242, tail: "" } },
  );
  const poll = { name: "process", args: { action: "poll", sessionId: "proc-7" } };
  const still: ToolOutcomeSpec = {
    kind: "result",
    text: "(no new output)\n\nProcess still running.",
    details: { status: "running", sessionId: "proc-7", aggregated: "vite v6.2.0 building for production...\ntransforming (812) src/app.tsx" },
  };
  for (let i = 1; i <= 20; i++) {
    step(t, { id: `call_poll_${i}`, ...poll }, still, i % 5 === 0 ? "Still building; check again." : undefined);
    if (i === 10) t.label();
  }
  step(t, { id: "call_poll_21", ...poll }, { kind: "veto" });
  step(t, { id: "call_poll_22", ...poll }, { kind: "veto" });
  t.assistantText("The release build is still running after 22 checks; I stopped polling. Ask me to check again later.");
  return { path: `${SESSIONS}/main/sessions/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl`, text: t.text() };
}

/**
 * A failing test run repeated across a compaction: the third identical failure after it aborts the
 * run. The next run is healthy; the last one has no bootstrap entry and is named by its prompt error.
 */
function compactionLoop(): FixtureFile {
  const t = new TranscriptBuilder("2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d");
  const test = { name: "exec", args: { command: "npm test -- auth.spec.ts" } };
  const failing: ToolOutcomeSpec = {
    kind: "result",
    text: "FAIL src/auth.spec.ts\n  ✕ rejects expired tokens (12 ms)\n\nTests: 1 failed, 23 passed",
    details: { status: "failed", exitCode: 1, durationMs: 4180, aggregated: "FAIL src/auth.spec.ts\n  ✕ rejects expired tokens (12 ms)\n\nTests: 1 failed, 23 passed" },
    isError: true,
  };
  t.bootstrap("run-fix-auth");
  t.user("The auth tests fail since this morning. Fix them.");
  step(t, { id: "call_1", name: "read", args: { path: "src/auth.spec.ts" } }, { kind: "result", text: "import { verify } from './auth';\n…" });
  step(t, { id: "call_2", ...test }, failing);
  step(t, { id: "call_3", name: "edit", args: { path: "src/auth.ts", oldText: "exp <", newText: "exp <=" } }, { kind: "result", text: "Edited src/auth.ts", details: { diff: "-exp <\n+exp <=" } });
  step(t, { id: "call_4", ...test }, failing);
  t.compaction();
  for (let i = 5; i <= 8; i++) step(t, { id: `call_${i}`, ...test }, failing, i === 5 ? "Run the tests again to see where we are." : undefined);
  t.assistantText("The test still fails; I could not find the cause.");

  t.bootstrap("run-docs");
  t.user("Add the new flag to the README.");
  step(t, { id: "call_9", name: "read", args: { path: "README.md" } }, { kind: "result", text: "# app\n…" });
  step(t, { id: "call_10", name: "edit", args: { path: "README.md", oldText: "## Flags", newText: "## Flags\n- `--strict`" } }, { kind: "result", text: "Edited README.md" });
  t.assistantText("Done.");

  t.user("Summarise the whole repository history.");
  step(t, { id: "call_11", name: "exec", args: { command: "git log --stat" } }, { kind: "result", text: "commit 1a2b3c…", details: { status: "completed", exitCode: 0, aggregated: "commit 1a2b3c…" } });
  t.promptError("run-history", "Context overflow: prompt too large for the model.");
  return { path: `${SESSIONS}/main/sessions/2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d.jsonl`, text: t.text() };
}

/**
 * A status page fetched 12 times on a branch the user abandoned (edited their message and retried);
 * the active branch deploys cleanly. Only --all-branches sees the repeats.
 */
function branches(): FixtureFile {
  const t = new TranscriptBuilder("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
  t.bootstrap("run-deploy");
  t.user("Deploy the api to staging once the status page is green.");
  step(t, { id: "call_cfg", name: "read", args: { path: "deploy/staging.yaml" } }, { kind: "result", text: "replicas: 2\nimage: api:1.42" });
  const fork = t.leafId;
  const fetch = { name: "web_fetch", args: { url: "https://status.example.com/api/v2/status.json" } };
  for (let i = 1; i <= 12; i++) {
    step(t, { id: `call_fetch_${i}`, ...fetch }, { kind: "result", text: '{"status":{"indicator":"major"}}', details: { status: 200, contentType: "application/json" } });
  }
  t.branchFrom(fork);
  t.modelChange();
  step(t, { id: "call_apply", name: "exec", args: { command: "kubectl apply -f deploy/staging.yaml" } }, {
    kind: "result",
    text: "deployment.apps/api configured",
    details: { status: "completed", exitCode: 0, aggregated: "deployment.apps/api configured" },
  });
  step(t, { id: "call_rollout", name: "exec", args: { command: "kubectl rollout status deploy/api" } }, {
    kind: "result",
    text: 'deployment "api" successfully rolled out',
    details: { status: "completed", exitCode: 0, aggregated: 'deployment "api" successfully rolled out' },
  });
  t.assistantText("Deployed api:1.42 to staging.");
  return { path: `${SESSIONS}/ops/sessions/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl`, text: t.text() };
}

/**
 * Two files read in parallel, over and over: each assistant message calls read(a) and read(b); some
 * results come back out of order. Replayed one by one this is a ping-pong that the runtime vetoed at
 * the 20th call.
 */
function parallelCalls(): FixtureFile {
  const t = new TranscriptBuilder("4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8");
  t.bootstrap("run-compare");
  t.user("Make config/a.json and config/b.json match.");
  const a = { name: "read", args: { path: "config/a.json" } };
  const b = { name: "read", args: { path: "config/b.json" } };
  for (let i = 1; i <= 10; i++) {
    const callA = { id: `call_a_${i}`, ...a };
    const callB = { id: `call_b_${i}`, ...b };
    t.calls([callA, callB], i === 1 ? "Read both files side by side." : undefined);
    const resultA: ToolOutcomeSpec = { kind: "result", text: '{"retries": 3}' };
    const resultB: ToolOutcomeSpec = i === 10 ? { kind: "veto" } : { kind: "result", text: '{"retries": 5}' };
    if (i % 3 === 0) {
      t.result(callB, resultB);
      t.result(callA, resultA);
    } else {
      t.result(callA, resultA);
      t.result(callB, resultB);
    }
  }
  t.assistantText("I keep reading the same two files; stopping here.");
  return { path: `${SESSIONS}/main/sessions/4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8.jsonl`, text: t.text() };
}

/** A legacy trajectory sidecar: the model keeps calling a browser tool this agent does not have. */
function trajectorySidecar(): FixtureFile {
  const sessionId = "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e";
  const t = new TrajectoryBuilder(sessionId, "agent:main:telegram:direct:4711");
  const run = "run-browse";
  t.runtime(run, "session.started", { trigger: "user", agentId: "main", toolCount: 14 });
  t.runtime(run, "trace.metadata", { harness: "embedded" });
  t.runtime(run, "prompt.submitted", { prompt: "Open the pricing page and read me the plans." });
  for (let i = 1; i <= 11; i++) {
    const toolCallId = `call_browser_${i}`;
    t.runtime(run, "tool.call", { toolCallId, name: "browser", args: { action: "open", url: "https://example.com/pricing" } });
    if (i <= 10) {
      t.runtime(run, "tool.result", {
        toolCallId,
        name: "browser",
        success: false,
        result: { content: [{ type: "text", text: "Tool browser not found" }], details: {} },
      });
    } else {
      t.runtime(run, "tool.result", {
        toolCallId,
        name: "browser",
        success: false,
        result: {
          content: [{ type: "text", text: "CRITICAL: attempted unavailable tool browser 10 times. Session execution blocked by loop detection." }],
          details: { status: "blocked", deniedReason: "tool-loop" },
        },
      });
    }
  }
  t.runtime(run, "model.completed", { stopReason: "stop", compactionCount: 0 });
  t.runtime(run, "session.ended", { status: "success", stopReason: "stop" });
  return { path: `${SESSIONS}/main/sessions/${sessionId}.trajectory.jsonl`, text: t.text() };
}

/**
 * An exported bundle's events.jsonl: runtime events (with runId) and the exporter's transcript copies
 * of the same calls; the context overflowed, the transcript's compaction entry sits between the two
 * attempts of the run, and the failing command repeats three times after it.
 */
function trajectoryBundle(): FixtureFile {
  const sessionId = "d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f7a";
  const t = new TrajectoryBuilder(sessionId, "agent:coder:main");
  const run = "run-migrate";
  const migrate = { command: "npm run db:migrate" };
  const failed = {
    content: [{ type: "text", text: "error: relation \"users\" already exists" }],
    details: { status: "failed", exitCode: 1, durationMs: 930, aggregated: "error: relation \"users\" already exists" },
  };
  let entry = 0;
  const entryId = () => (++entry).toString(16).padStart(8, "0");
  const attempt = (calls: number, from: number) => {
    t.runtime(run, "session.started", { trigger: "user", agentId: "coder" });
    for (let i = from; i < from + calls; i++) {
      const toolCallId = `call_migrate_${i}`;
      const assistant = entryId();
      t.transcript("assistant.message", assistant, { message: { role: "assistant", content: [{ type: "toolCall", id: toolCallId, name: "exec", arguments: migrate }] } });
      t.transcript("tool.call", assistant, { toolCallId, name: "exec", arguments: migrate, assistantEntryId: assistant, blockIndex: 0 });
      t.runtime(run, "tool.call", { toolCallId, name: "exec", args: migrate });
      t.runtime(run, "tool.result", { toolCallId, name: "exec", success: false, result: failed });
      t.transcript("tool.result", entryId(), { message: { role: "toolResult", toolCallId, toolName: "exec", ...failed, isError: true } });
    }
  };
  t.transcript("session.custom", entryId(), { customType: "openclaw:bootstrap-context:full", data: { runId: run, sessionId } });
  t.transcript("user.message", entryId(), { message: { role: "user", content: [{ type: "text", text: "Run the pending migrations." }] } });
  attempt(2, 1);
  t.runtime(run, "model.completed", { promptError: "context overflow", compactionCount: 0 });
  t.runtime(run, "session.ended", { status: "error" });
  t.transcript("session.compaction", entryId(), { summary: "Migrations fail with an existing relation.", firstKeptEntryId: "00000003", tokensBefore: 196000, fromHook: false });
  attempt(3, 3);
  t.runtime(run, "session.ended", { status: "aborted" });
  return { path: "fixtures/openclaw/trajectory-exports/openclaw-trajectory-d4e5f6a7-2026-05-02T14-05-00/events.jsonl", text: t.text() };
}

/**
 * A 2026.5 runtime sidecar, with no tool events: the calls are only in each run's model.completed
 * messagesSnapshot. A nightly build is started in the background (beside a read of a config file
 * that is not there) and polled without progress 14 times: the default config warns from the 11th
 * poll on. Asked again in the next run, the agent polls 3 more times before the build finishes
 * (no warning: detection looks at the records of the same run only).
 */
export function nightlyBuildStory(): Story {
  const poll = { name: "process", args: { action: "poll", sessionId: "proc-3" } };
  const running = {
    kind: "result",
    text: "(no new output)\n\nProcess still running.",
    details: { status: "running", sessionId: "proc-3", aggregated: "[nightly] bundling 1482 modules..." },
  } as const;
  let n = 0;
  const polls = (c: Conversation, count: number) => {
    for (let i = 0; i < count; i++) {
      const call = { id: `call_poll_${++n}`, ...poll };
      c.calls([call], n % 5 === 0 ? "Still building; checking again." : undefined);
      c.result(call, running);
    }
  };
  return {
    sessionId: "c5d6e7f8-a9b0-4c1d-8e2f-3a4b5c6d7e8f",
    sessionKey: "agent:main:discord:channel:1187",
    agentId: "main",
    version: "2026.5.2",
    runs: [
      {
        runId: "run-nightly-build",
        prompt: "Start the nightly build and tell me when it finishes.",
        work: (c) => {
          const start = { id: "call_exec_1", name: "exec", args: { command: "npm run build:nightly", background: true } };
          const config = { id: "call_read_1", name: "read", args: { path: "build/config.json" } };
          c.calls([start, config], "Starting the build and checking its config.");
          c.result(start, { kind: "result", text: "Command still running (session proc-3, pid 5150).", details: { status: "running", sessionId: "proc-3", pid: 5150, tail: "" } });
          c.result(config, { kind: "error", text: "ENOENT: no such file or directory, access '/home/u/ws/build/config.json'" });
          const other = { id: "call_read_2", name: "read", args: { path: "build.config.json" } };
          c.calls([other]);
          c.result(other, { kind: "result", text: '{ "target": "es2022", "minify": true }' });
          polls(c, 14);
          c.assistantText("The build is still running after 14 checks; I stopped polling for now.");
        },
      },
      {
        runId: "run-nightly-status",
        prompt: "Is the nightly build done now?",
        work: (c) => {
          polls(c, 2);
          const last = { id: `call_poll_${++n}`, ...poll };
          c.calls([last]);
          c.result(last, { kind: "result", text: "Process exited with code 0.", details: { status: "completed", exitCode: 0, sessionId: "proc-3", aggregated: "[nightly] done in 412s" } });
          c.assistantText("The nightly build finished successfully.");
        },
      },
    ],
  };
}

function runtimeSidecar(): FixtureFile {
  const story = nightlyBuildStory();
  return { path: `${SESSIONS}/main/sessions/${story.sessionId}.trajectory.jsonl`, text: writeStory(story).sidecar };
}

export function openclawFixtures(): FixtureFile[] {
  return [pollWithVeto(), compactionLoop(), branches(), parallelCalls(), trajectorySidecar(), trajectoryBundle(), runtimeSidecar()];
}
