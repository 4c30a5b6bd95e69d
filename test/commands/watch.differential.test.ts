/**
 * The differential check of `looplens watch` (watch.md §1 "Exactness"): sessions of every input kind
 * are written in random chunks — lines cut anywhere, pauses, folders and files appearing, the live
 * transcript renamed to an archive and a new one started, a sidecar that names runs late, a Gateway
 * log's next day — while `watch --format ndjson` runs as a child process. Its findings, once the
 * announced run names and file renames are applied, must be exactly `analyze --format ndjson`'s on
 * the final files: 0 differences, for each seed.
 */
import { mkdirSync, readFileSync, appendFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { canonicalText, prng, randomSessions, transcriptText } from "../helpers/randomSessions.js";
import { nightlyBuildStory } from "../helpers/openclawFixtures.js";
import { writeStory } from "../helpers/runtimeSidecar.js";
import { isReady, jsonLines, killWatchChildren, sleep, startWatch, watchFolder, type WatchChild } from "../helpers/watchChild.js";

afterEach(killWatchChildren);

type Step =
  | { readonly kind: "write"; readonly file: string; readonly text: string }
  | { readonly kind: "pause"; readonly ms: number }
  /** Once the watch has printed a finding of `from` (so that the rename is one it must tell). */
  | { readonly kind: "rename"; readonly from: string; readonly to: string };

const fixture = (path: string) => readFileSync(path, "utf8");
/** Final files end with a newline: a watch holds a line until its newline (a last line without one is never read). */
const ended = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);

interface Planned {
  readonly file: string;
  readonly text: string;
  /** What happens once this file is written whole: another file is written after it, maybe after a rename. */
  readonly then?: { readonly rename?: { readonly to: string }; readonly next: Planned };
}

/** The files to write, by kind, each one's final content; some follow others (see `then`). */
function plannedFiles(seed: number): Planned[] {
  const sessions = randomSessions(seed, 3);
  const files: Planned[] = sessions.slice(0, 2).map((session) => ({ file: `agents/${session.agent}/sessions/${session.id}.jsonl`, text: ended(transcriptText(session)) }));
  files.push({ file: `events/${sessions[2]!.id}.jsonl`, text: canonicalText(sessions[2]!) });
  // A transcript whose runs are named only by the sidecar, written once the transcript is.
  const story = nightlyBuildStory();
  const written = writeStory(story);
  const unnamed = written.transcript.split("\n").filter((line) => !line.includes("bootstrap-context")).join("\n");
  const sidecar = { file: `agents/main/sessions/${story.sessionId}.trajectory.jsonl`, text: ended(written.sidecar) };
  files.push({ file: `agents/main/sessions/${story.sessionId}.jsonl`, text: ended(unnamed), then: { next: sidecar } });
  // A session's two lives: the first (a fixture with findings) archived as `.reset.<ts>` by a rename,
  // then a new live transcript of the same session, started at once. The two share entry ids (the
  // builder numbers entries as the fixture does): an entry is replayed once per session, from the
  // archive, which is read first (inputs.md §2), so the new life's findings begin past them.
  const id = "7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51";
  const live = `agents/main/sessions/${id}.jsonl`;
  const second = { ...randomSessions(seed + 1000, 1)[0]!, id };
  files.push({ file: live, text: fixture(`fixtures/openclaw/${live}`), then: { rename: { to: `${live}.reset.2026-05-01T12-00-00.000Z` }, next: { file: live, text: ended(transcriptText(second)) } } });
  files.push({ file: "claude/projects/-home-u-app/0b5c3d2e.jsonl", text: fixture("fixtures/agents/claude-code/loop-v2.0.jsonl") });
  files.push({ file: "claude/projects/-home-u-web/6a7b8c9d.jsonl", text: fixture("fixtures/agents/claude-code/ping-pong-v2.0.jsonl") });
  files.push({ file: "codex/sessions/2026/05/01/rollout-2026-05-01T10-00-00-019a0000-0000-7000-8000-000000000001.jsonl", text: fixture("fixtures/agents/codex/loop-0.47.jsonl") });
  files.push({ file: "codex/sessions/2026/05/02/rollout-2026-05-02T10-00-00-019a0000-0000-7000-8000-000000000002.jsonl", text: fixture("fixtures/agents/codex/ping-pong-0.146.jsonl") });
  files.push({ file: "gemini/tmp/demo/chats/session-2026-04-29T21-39-a1b2c3d4.jsonl", text: fixture("fixtures/agents/gemini/tmp/looplens-demo/chats/session-2026-04-29T21-39-a1b2c3d4.jsonl") });
  files.push({ file: "openhands/conversations/v1-events.jsonl", text: fixture("fixtures/agents/openhands/v1-events.jsonl") });
  files.push({ file: "openhands-eval/output.jsonl", text: fixture("fixtures/agents/openhands-eval/output.jsonl") });
  // A Gateway log, and the next day's file once it is done.
  const nextDay = { file: "gateway/openclaw-2026-05-03.log", text: ended(fixture("fixtures/gateway/openclaw-2026-05-03.log")) };
  // The text console form of a Gateway log: a line cut short there still reads as a record (a count cut from 12 to 1).
  files.push({ file: "console/gateway.log", text: ended(fixture("test/data/gateway/console-text.log")) });
  files.push({ file: "gateway/openclaw-2026-05-02.log", text: ended(fixture("fixtures/gateway/openclaw-2026-05-02.log")), then: { next: nextDay } });
  return files;
}

/** The length of `text`'s lines up to its last entry whose id `earlier` holds too. */
function sharedPrefix(earlier: string, text: string): number {
  const ids = new Set([...earlier.matchAll(/^\{"type":"[a-z_]+","id":"([^"]+)"/gm)].map((match) => match[1]));
  let end = 0;
  for (const match of text.matchAll(/^\{"type":"[a-z_]+","id":"([^"]+)".*\n/gm)) if (ids.has(match[1])) end = match.index + match[0].length;
  return end;
}

/** Chunks cut at random bytes, interleaved across files in random order, with pauses, renames in between. */
function writeSteps(seed: number): Step[] {
  const random = prng(seed * 7919 + 1);
  const queues = plannedFiles(seed).map((planned) => ({ planned, rest: planned.text }));
  const steps: Step[] = [];
  while (queues.length > 0) {
    const at = Math.floor(random() * queues.length);
    const queue = queues[at]!;
    const size = 1 + Math.floor(random() * (random() < 0.2 ? 6000 : 600));
    steps.push({ kind: "write", file: queue.planned.file, text: queue.rest.slice(0, size) });
    queue.rest = queue.rest.slice(size);
    if (queue.rest === "") {
      queues.splice(at, 1);
      const then = queue.planned.then;
      const next = then && { planned: then.next, rest: then.next.text };
      if (then?.rename && next) {
        // The new file started right after the rename, its entries that share ids with the archive in
        // one write: the watch learns of the rename and of a new file full of them at the same moment.
        const first = sharedPrefix(queue.planned.text, next.rest);
        steps.push({ kind: "rename", from: queue.planned.file, to: then.rename.to }, { kind: "write", file: next.planned.file, text: next.rest.slice(0, first) });
        next.rest = next.rest.slice(first);
      }
      if (next) queues.push(next);
    }
    if (random() < 0.3) steps.push({ kind: "pause", ms: random() < 0.1 ? 120 : Math.floor(random() * 15) });
  }
  return steps;
}

async function play(root: string, steps: readonly Step[], watch: WatchChild): Promise<void> {
  for (const step of steps) {
    if (step.kind === "pause") await sleep(step.ms);
    else if (step.kind === "rename") {
      const from = join(root, step.from);
      await watch.waitFor((line) => line.startsWith('{"run"') && JSON.parse(line).file === from, 20_000);
      renameSync(from, join(root, step.to));
    } else {
      mkdirSync(dirname(join(root, step.file)), { recursive: true });
      appendFileSync(join(root, step.file), step.text);
    }
  }
}

/**
 * A finding as compared. Gemini CLI writes a message again further down each time its tool calls
 * update, and the last copy is replayed: a call's finding is printed at the line of the copy that
 * was there when it was made (findingLedger.ts), so its line is left out of the comparison there.
 */
const comparable = (finding: Record<string, unknown>) => JSON.stringify(String(finding.file).includes("/gemini/") ? { ...finding, line: "(moves)" } : finding);

/** The watch's findings with its announcements applied to those printed before them, comparable (no observedAt). */
function watchedFindings(lines: readonly string[]): string[] {
  const findings: Array<Record<string, unknown>> = [];
  for (const line of jsonLines(lines)) {
    if (line.type === "run_named") {
      for (const finding of findings) if (finding.run === line.run && finding.file === line.file) Object.assign(finding, { run: line.name, agent: line.agent, session: line.session });
    } else if (line.type === "finding_revised") {
      for (const finding of findings) if (finding.run === null && finding.file === line.file && finding.line === line.line) Object.assign(finding, { run: line.run, agent: line.agent, session: line.session });
    } else if (line.type === "file_renamed") {
      for (const finding of findings) if (finding.file === line.from) finding.file = line.to;
    } else if (line.type === undefined) {
      const { observedAt, ...rest } = line;
      expect(typeof observedAt).toBe("string");
      findings.push(rest);
    }
  }
  return findings.map(comparable).sort();
}

function analyzed(root: string): string[] {
  const result = runCli(["analyze", root, "--format", "ndjson"]);
  expect(result.status).toBe(0);
  return jsonLines(result.stdout.split("\n")).map(comparable).sort();
}

/** Until the watch has caught up with the files (or the time is up): its findings, then analyze's. */
async function converged(root: string, lines: readonly string[]): Promise<{ watched: string[]; expected: string[] }> {
  const expected = analyzed(root);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const watched = watchedFindings(lines);
    if (JSON.stringify(watched) === JSON.stringify(expected) || Date.now() > deadline) return { watched, expected };
    await sleep(200);
  }
}

describe("watch --format ndjson against analyze on the final files", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: every input kind written in random chunks, 0 differences`, async () => {
      const root = watchFolder();
      const watch = startWatch([root, "--format", "ndjson"]);
      await watch.waitFor(isReady);
      await play(root, writeSteps(seed), watch);
      const { watched, expected } = await converged(root, watch.lines);
      const { code } = await watch.stop();
      expect(code).toBe(0);
      expect(watched).toEqual(expected);
      // A line counts at its newline: a line still being written is never read (nor reported cut off).
      expect(watch.stderr()).not.toMatch(/truncated last line/);
      // The check has teeth: every kind produced findings, and names and the rename were announced.
      expect(expected.length).toBeGreaterThan(60);
      const kinds = jsonLines(watch.lines).map((line) => line.type);
      expect(kinds).toContain("run_named");
      expect(kinds).toContain("file_renamed");
      expect(kinds.at(-1)).toBe("summary");
    }, 60_000);
  }
});
