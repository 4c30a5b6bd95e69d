/**
 * One OpenClaw session written the two ways the runtime keeps it: as its 2026.5 trajectory sidecar
 * (calls only inside `model.completed.data.messagesSnapshot`) and as its session transcript (one
 * entry per message). Both are written from the same in-memory conversation, so what differs
 * between their replays is the adapters, not the writers.
 */
import { TranscriptBuilder } from "./openclawTranscript.js";
import { Conversation, TrajectoryBuilder, writeAttempt, type PiMessage } from "./openclawTrajectoryBuilder.js";

export interface StoryRun {
  readonly runId: string;
  readonly prompt: string;
  readonly work: (conversation: Conversation) => void;
}

export interface Story {
  readonly sessionId: string;
  readonly sessionKey: string;
  readonly agentId: string;
  readonly version: string;
  readonly runs: readonly StoryRun[];
}

export interface WrittenStory {
  readonly sidecar: string;
  readonly transcript: string;
  /** The messages each run added to the conversation (its prompt first). */
  readonly runs: ReadonlyArray<{ readonly runId: string; readonly messages: readonly PiMessage[] }>;
}

export function writeStory(story: Story): WrittenStory {
  const conversation = new Conversation();
  const sidecar = new TrajectoryBuilder(story.sessionId, story.sessionKey);
  const runs = story.runs.map(({ runId, prompt, work }) => {
    const from = conversation.messages.length;
    writeAttempt(sidecar, conversation, runId, { prompt, version: story.version, agentId: story.agentId, work });
    return { runId, messages: conversation.messages.slice(from) };
  });
  // Each run's bootstrap entry before its prompt: the runs get the sidecar's run ids.
  const transcript = new TranscriptBuilder(story.sessionId);
  for (const run of runs) {
    transcript.bootstrap(run.runId);
    for (const message of run.messages) transcript.entry("message", { message });
  }
  return { sidecar: sidecar.text(), transcript: transcript.text(), runs };
}

/** What replay must see, restated from the messages: per run, each call followed by its own result. */
export function expectedToolEvents(written: WrittenStory): string[] {
  return written.runs.flatMap(({ runId, messages }) => {
    const resultOf = (id: unknown) => messages.find((m) => m.role === "toolResult" && m.toolCallId === id);
    return messages
      .filter((m) => m.role === "assistant")
      .flatMap((m) => (m.content as Array<Record<string, unknown>>).filter((block) => block.type === "toolCall"))
      .flatMap((block) => [`${runId} call ${block.id} ${block.name}`, ...(resultOf(block.id) ? [`${runId} result ${block.id}`] : [])]);
  });
}

/**
 * The transcript events an `export-trajectory` bundle adds to the sidecar's runtime events: every
 * transcript entry as an event without runId (`source:"transcript"`), its tool calls one
 * `tool.call` each.
 */
export function transcriptEventsText(story: Story, written: WrittenStory): string {
  const t = new TrajectoryBuilder(story.sessionId, story.sessionKey);
  let entry = 0;
  const entryId = () => (++entry).toString(16).padStart(8, "0");
  for (const run of written.runs) {
    t.transcript("session.custom", entryId(), { customType: "openclaw:bootstrap-context:full", data: { runId: run.runId, sessionId: story.sessionId } });
    for (const message of run.messages) {
      const id = entryId();
      if (message.role === "user") t.transcript("user.message", id, { message });
      else if (message.role === "toolResult") t.transcript("tool.result", id, { message });
      else {
        t.transcript("assistant.message", id, { message });
        (message.content as Array<Record<string, unknown>>)
          .filter((block) => block.type === "toolCall")
          .forEach((block, blockIndex) => t.transcript("tool.call", id, { toolCallId: block.id, name: block.name, arguments: block.arguments, assistantEntryId: id, blockIndex }));
      }
    }
  }
  return t.text();
}
