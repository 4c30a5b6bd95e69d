/**
 * Runs a person can recognise (issue 34 §4), end to end on an OpenClaw state laid out as the runtime
 * writes it (transcript, session store): each run's start, end, prompt, channel, model and outcome
 * in analyze's json and headers and in `looplens runs` in every format; prompts as hostile text;
 * `--no-prompts`; no header line wider than the terminal.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/reporters/textFit.js";
import { runMain } from "../helpers/cli.js";
import { TranscriptBuilder } from "../helpers/openclawTranscript.js";
import { tempDir } from "../helpers/tempDir.js";

const SESSION = "0ff7b343-fcdb-4bc2-8504-ccc296c7e85b";
const OTHER = "5e1c0a2b-7d4e-4f10-9a3b-2c8d6e0f1a47";
const ESC = "\u001b";
/** What the runtime puts before what the user typed, then a prompt with escape sequences, breaks and length. */
const HOSTILE =
  'Sender (untrusted metadata):\n```json\n{\n  "label": "telegram",\n  "id": "12345"\n}\n```\n\n[Wed 2026-05-01 17:00 GMT+8] ' +
  `fix the ${ESC}[31mfailing${ESC}[0m test\r\nin ${ESC}]8;;https://evil.example${ESC}\\parser.ts${ESC}]8;;${ESC}\\ ${"and then some more words ".repeat(40)}`;

/** A state directory: one session with a looping run and a quiet one, its store naming the channel; one session the store does not know. */
function state(): string {
  const dir = tempDir();
  const sessions = join(dir, "agents", "main", "sessions");
  mkdirSync(sessions, { recursive: true });
  const t = new TranscriptBuilder(SESSION, Date.parse("2026-05-01T09:00:00.000Z"));
  t.modelChange();
  t.user(HOSTILE);
  for (let i = 0; i < 12; i++) {
    const id = `call-${i}`;
    t.calls([{ id, name: "exec", args: { command: "npm test" } }]);
    t.result({ id, name: "exec" }, { kind: "result", text: "1 failing", details: { status: "completed", exitCode: 1, aggregated: "1 failing" } });
  }
  t.assistantText("I could not fix it.");
  t.user("[OpenClaw heartbeat poll]");
  t.assistantText("HEARTBEAT_OK");
  writeFileSync(join(sessions, `${SESSION}.jsonl`), t.text());
  const other = new TranscriptBuilder(OTHER, Date.parse("2026-05-02T10:00:00.000Z"));
  other.user("what is on my calendar");
  other.assistantText("Nothing today.");
  writeFileSync(join(sessions, `${OTHER}.jsonl`), other.text());
  const store = {
    "agent:main:telegram:direct:12345": { sessionId: SESSION, chatType: "direct", lastChannel: "telegram", updatedAt: 1 },
    "agent:main:cron:51c5d0f0-ebd5-41d6-91f0-e2f3e61a0a80": { sessionId: "not-here", updatedAt: 2 },
  };
  writeFileSync(join(sessions, "sessions.json"), JSON.stringify(store));
  return dir;
}

const noControls = (text: string) => expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);

describe("runs a person can recognise", () => {
  const dir = state();

  it("json: each run's start, end, prompt (clean, one line), channel, model and outcome; null where not recorded", async () => {
    const result = await runMain(["analyze", dir, "--all", "-f", "json"]);
    expect(result.status).toBe(0);
    const runs = (JSON.parse(result.stdout) as { runs: Array<Record<string, unknown>> }).runs;
    expect(runs.map((run) => run.run)).toEqual([`${SESSION}#1`, `${SESSION}#2`, `${OTHER}#1`]);
    const [looping, heartbeat, other] = runs;
    // The builder's clock: the header at 09:00:00, then one second an entry; the user message is entry 2.
    expect(looping).toMatchObject({ startedAt: "2026-05-01T09:00:02.000Z", endedAt: "2026-05-01T09:00:27.000Z", channel: "telegram direct", model: "gpt-5", outcome: { kind: "stopped", reason: "stop" } });
    const prompt = looping!.prompt as string;
    // Escape sequences go whole (the colour, the hyperlink and its address), line breaks become one space.
    expect(prompt.startsWith("fix the failing test in parser.ts and then some")).toBe(true);
    expect(prompt).not.toContain("evil.example");
    noControls(prompt);
    expect(prompt).not.toContain("untrusted metadata");
    expect(prompt.length).toBeLessThanOrEqual(400);
    expect(heartbeat).toMatchObject({ prompt: "[OpenClaw heartbeat poll]", channel: "telegram direct", startedAt: "2026-05-01T09:00:28.000Z", endedAt: "2026-05-01T09:00:29.000Z" });
    // A session the store does not name has no channel; its model was never changed: the replies name it.
    expect(other).toMatchObject({ prompt: "what is on my calendar", channel: null, model: "gpt-5", outcome: { kind: "stopped", reason: "stop" } });
  });

  it("--no-prompts: no prompt in json, table or markdown; the rest stays", async () => {
    const json = await runMain(["analyze", dir, "--all", "-f", "json", "--no-prompts"]);
    const runs = (JSON.parse(json.stdout) as { runs: Array<Record<string, unknown>> }).runs;
    expect(runs.every((run) => run.prompt === null && run.model === "gpt-5")).toBe(true);
    for (const args of [["analyze", "--all"], ["analyze", "--all", "-f", "markdown"], ["analyze", "--all", "-f", "html"], ["runs"], ["runs", "-f", "markdown"], ["runs", "-f", "ndjson"]]) {
      const out = (await runMain([...args, dir, "--no-prompts"])).stdout;
      expect(out, args.join(" ")).not.toContain("calendar");
      expect(out, args.join(" ")).not.toContain("heartbeat");
      expect(out, args.join(" ")).not.toContain("parser.ts");
    }
  });

  for (const width of [100, 80, 50]) {
    it(`the table's run headers fit ${width} columns, the session cut to 8 characters, the prompt on one clean line`, async () => {
      const result = await runMain(["analyze", dir, "--all"], { stdoutIsTTY: true, columns: width });
      const lines = result.stdout.split("\n");
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      noControls(result.stdout);
      const header = lines.find((line) => line.startsWith(`run ${SESSION}#1`))!;
      if (width >= 80) expect(header).toContain("session 0ff7b343");
      expect(header).not.toContain(`session ${SESSION}`);
      const index = lines.indexOf(header);
      const block = lines.slice(index, index + 7).join("\n");
      expect(block).toContain("prompt: fix the failing test in");
      expect(block).toMatch(/2026-05-0\d \d\d:\d\d:\d\d · 25s/);
    });
  }

  it("runs: one line per run in the table, none wider than the terminal", async () => {
    for (const width of [120, 80, 60]) {
      const narrow = await runMain(["runs", dir], { stdoutIsTTY: true, columns: width });
      for (const line of narrow.stdout.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(narrow.stdout.split("\n").filter((line) => /^2026-/.test(line))).toHaveLength(3);
    }
    const result = await runMain(["runs", dir], { stdoutIsTTY: true, columns: 200 });
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^start +took +run +agent +channel +model +calls +worst finding +tokens +cost +prompt$/);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(200);
    const rows = lines.filter((line) => /^2026-/.test(line));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/25s +0ff7b343…#1 +main +telegram direct +gpt-5 +12 +warning generic_repeat +17k +– +fix the/);
    expect(rows[2]).toMatch(/5e1c0a2b…#1 +main +– +gpt-5 +0 +– +1.3k +– +what is on my calendar$/);
    expect(result.stdout).toContain("3 runs, 12 calls in 2 files");
  });

  it("runs: json, ndjson and markdown hold the same runs; the usual filters apply", async () => {
    const json = JSON.parse((await runMain(["runs", dir, "-f", "json"])).stdout) as { runs: Array<Record<string, unknown>>; summary: { runs: number } };
    const ndjson = (await runMain(["runs", dir, "-f", "ndjson"])).stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ndjson).toEqual(json.runs);
    expect(json.summary.runs).toBe(3);
    expect(json.runs[0]).toMatchObject({ run: `${SESSION}#1`, agent: "main", calls: 12, channel: "telegram direct", durationMs: 25_000, worst: { level: "warning", detector: "generic_repeat", call: 11 } });
    // What the run's turns used, as json writes a sum; no money recorded: `cost` null, never 0.
    expect(json.runs[0]).toMatchObject({ usage: { turns: expect.any(Number), total: expect.any(Number) }, cost: null });
    expect(json.runs[2]!.usage).toMatchObject({ total: expect.any(Number) });
    const markdown = (await runMain(["runs", dir, "-f", "markdown"])).stdout;
    noControls(markdown);
    noControls((await runMain(["runs", dir])).stdout);
    expect(markdown).toContain("| start | took | run | agent | channel | model | calls | worst finding | tokens | cost | prompt |");
    expect(markdown.split("\n").filter((line) => line.startsWith("| 2026-"))).toHaveLength(3);
    const top = JSON.parse((await runMain(["runs", dir, "-f", "json", "--top", "1"])).stdout) as { runs: Array<Record<string, unknown>> };
    expect(top.runs.map((run) => run.run)).toEqual([`${SESSION}#1`]);
    const since = JSON.parse((await runMain(["runs", dir, "-f", "json", "--since", "2026-05-02"])).stdout) as { runs: Array<Record<string, unknown>> };
    expect(since.runs.map((run) => run.run)).toEqual([`${OTHER}#1`]);
    const session = JSON.parse((await runMain(["runs", dir, "-f", "json", "--session", OTHER])).stdout) as { runs: unknown[] };
    expect(session.runs).toHaveLength(1);
  });

  it("runs --help shows an example", async () => {
    const help = await runMain(["runs", "--help"]);
    expect(help.stdout).toContain("looplens runs --since 2h --agent main");
    expect(help.stdout).toContain("--no-prompts");
  });
});
