/**
 * One OpenClaw session as a real 2026.5 install leaves it: its transcript, possibly split over the
 * files of several lives (archives `<sid>.jsonl.reset.<ts>`, the live `<sid>.jsonl`), and its runtime
 * trajectory sidecar, written from the same conversation on one clock. So, as the runtime writes them:
 * - a transcript entry's `timestamp` is its message's (`message.timestamp`, epoch ms), and each run's
 *   `openclaw:bootstrap-context:full` entry comes after its final reply;
 * - the sidecar's `prompt.submitted` is stamped a few ms before the user message it submits, and each
 *   `model.completed` snapshot holds the very messages the transcript holds (same timestamps).
 */
import type { PiMessage } from "./openclawTrajectoryBuilder.js";
import { Conversation, TrajectoryBuilder, writeAttempt } from "./openclawTrajectoryBuilder.js";
import type { Story } from "./runtimeSidecar.js";

/** How long before its user message a prompt is recorded (the runtime stamps the message as it takes the prompt). */
export const PROMPT_LEAD_MS = 3;

export interface PairedSessionOptions {
  /** Which runs (indices into `story.runs`) each transcript file holds, in the order the files are read. Default: one file, every run. */
  readonly lives?: ReadonlyArray<readonly number[]>;
  /** Which runs the sidecar recorded (default every run). */
  readonly sidecarRuns?: readonly number[];
  /** The transcript writes its runs' bootstrap entries (default true; older builds wrote none). */
  readonly bootstrap?: boolean;
}

export interface PairedSession {
  readonly sidecar: string;
  /** One text per entry of `lives`. */
  readonly transcripts: string[];
  /** Per run: its id and the messages it added (its prompt first). */
  readonly runs: ReadonlyArray<{ readonly runId: string; readonly messages: readonly PiMessage[] }>;
}

export function writePairedSession(story: Story, options: PairedSessionOptions = {}): PairedSession {
  const all = story.runs.map((_, i) => i);
  const recorded = new Set(options.sidecarRuns ?? all);
  const conversation = new Conversation();
  const sidecar = new TrajectoryBuilder(story.sessionId, story.sessionKey);
  const scratch = new TrajectoryBuilder(story.sessionId, story.sessionKey);
  const runs = story.runs.map(({ runId, prompt, work }, i) => {
    const from = conversation.messages.length;
    // A run the sidecar did not record still happened: its messages go to a builder thrown away.
    writeAttempt(recorded.has(i) ? sidecar : scratch, conversation, runId, { prompt, version: story.version, agentId: story.agentId, work });
    return { runId, messages: conversation.messages.slice(from) };
  });
  const transcripts = (options.lives ?? [all]).map((life) => transcriptOf(story.sessionId, life.map((i) => runs[i]!), options.bootstrap ?? true));
  return { sidecar: onTheConversationClock(sidecar.text(), runs), transcripts, runs };
}

/** A transcript file of these runs: header, then one entry per message, chained by parentId. */
function transcriptOf(sessionId: string, runs: PairedSession["runs"], bootstrap: boolean): string {
  const first = runs[0]?.messages[0]?.timestamp as number | undefined;
  const lines = [{ type: "session", version: 3, id: sessionId, timestamp: iso((first ?? Date.parse("2026-05-02T14:00:00Z")) - 1000), cwd: "/home/u/ws" }];
  let parent: string | null = null;
  let n = 0;
  const entry = (fields: Record<string, unknown>, time: number) => {
    const id = (0x1000 + ++n).toString(16).padStart(8, "0");
    lines.push({ ...fields, id, parentId: parent, timestamp: iso(time) } as never);
    parent = id;
  };
  for (const run of runs) {
    for (const message of run.messages) entry({ type: "message", message }, message.timestamp as number);
    const end = run.messages.at(-1)!.timestamp as number;
    if (bootstrap) entry({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { timestamp: end + 20, runId: run.runId, sessionId } }, end + 20);
  }
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/**
 * The sidecar's events re-stamped on the conversation's clock: each run's events just before its
 * prompt (the prompt PROMPT_LEAD_MS before the user message), its completion and end just after its
 * last message.
 */
function onTheConversationClock(text: string, runs: PairedSession["runs"]): string {
  const byRun = new Map(runs.map((run) => [run.runId, run.messages]));
  const seen = new Map<string, number>();
  return text.replace(/^.+$/gm, (line) => {
    const event = JSON.parse(line) as { runId: string; type: string; ts: string };
    const messages = byRun.get(event.runId)!;
    const start = (messages[0]!.timestamp as number) - PROMPT_LEAD_MS;
    const end = messages.at(-1)!.timestamp as number;
    const k = (seen.get(event.runId) ?? 0) + 1;
    seen.set(event.runId, k);
    // started, metadata, compiled, prompt: 3, 2, 1, 0 ms before the prompt; then completed, artifacts, ended after the end.
    const time = event.type === "prompt.submitted" ? start : k <= 3 ? start - (4 - k) : end + (k - 4);
    return JSON.stringify({ ...event, ts: iso(time) });
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
