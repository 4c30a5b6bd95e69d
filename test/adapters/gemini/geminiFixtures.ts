/**
 * The Gemini CLI fixtures of fixtures/agents/gemini/, laid out as `~/.gemini/tmp/<projectId>/chats/`
 * is, written by GeminiRecording in the shapes of the real files. gemini.fixtures.test.ts checks
 * that the committed files are these (UPDATE_FIXTURES=1 rewrites them).
 */
import { GeminiRecording, type CallSpec } from "./geminiRecording.js";

export interface GeminiFixture {
  readonly path: string;
  readonly text: string;
}

const DIR = "fixtures/agents/gemini/tmp";
const MAIN_ID = "a1b2c3d4-0e1f-4a2b-9c3d-4e5f6a7b8c9d";

const shell = (n: number, command: string, output: string): CallSpec => ({
  id: `run_shell_command-${1777500000000 + n}-${n.toString(16).padStart(6, "0")}`,
  name: "run_shell_command",
  args: { command, description: `Runs ${command}` },
  outcome: { kind: "result", output: `Output: ${output}\nProcess Group PGID: ${40000 + n * 7}` },
});
const readFile = (n: number, path: string, output: string): CallSpec => ({ id: `read_file-${1777500100000 + n}-${n}`, name: "read_file", args: { file_path: path }, outcome: { kind: "result", output } });

/** The JSONL schema's shape (v0.40): a shell call, then a loop of identical reads re-appended as they ran, then parallel calls. */
function mainSession(): GeminiFixture {
  const g = new GeminiRecording(MAIN_ID);
  g.user("Say hello and list files.");
  g.gemini([shell(1, "ls -F", "README.md\nsrc/")], 2);
  g.gemini([]);
  g.user("Why does the config not load?");
  for (let i = 0; i < 12; i++) g.gemini([readFile(i, "/repo/config.yaml", "port: 8080")], i % 3);
  g.user("Check the three modules.");
  g.gemini([readFile(20, "/repo/src/a.ts", "export const a = 1;"), readFile(21, "/repo/src/b.ts", "export const b = 2;"), shell(22, "npm test", "3 passed")], 1);
  g.gemini([]);
  return { path: `${DIR}/looplens-demo/chats/session-2026-04-29T21-39-a1b2c3d4.jsonl`, text: g.jsonl() };
}

/** Errors, Gemini's own unknown-tool message, a rewind, a compression, an info line, a call left running. */
function troubledSession(): GeminiFixture {
  const g = new GeminiRecording("e5f6a7b8-1a2b-4c3d-8e9f-0a1b2c3d4e5f");
  g.user("Fix the failing edit.");
  const edit = (n: number): CallSpec => ({ id: `replace-${1777600000000 + n}-${n}`, name: "replace", args: { file_path: "/repo/app.ts", old_string: "foo()", new_string: "bar()" }, outcome: { kind: "error", error: "Failed to edit, 0 occurrences found for old_string in /repo/app.ts." } });
  for (let i = 0; i < 4; i++) g.gemini([edit(i)]);
  const retry = g.user("Try the browser instead.");
  const browse = (n: number): CallSpec => ({ id: `web_browse-${1777600100000 + n}-${n}`, name: "web_browse", args: { url: "https://example.test" }, outcome: { kind: "error", error: 'Tool "web_browse" not found in registry. Tools must use the exact names that are registered. Did you mean "web_fetch"?' } });
  for (let i = 0; i < 11; i++) g.gemini([browse(i)]);
  g.rewindTo(retry);
  g.info("Conversation rewound.");
  g.user("Run the tests.");
  for (let i = 0; i < 3; i++) g.gemini([shell(100 + i, "npm test", "1 failed\nExit Code: 1")]);
  g.compress();
  for (let i = 3; i < 6; i++) g.gemini([shell(100 + i, "npm test", "1 failed\nExit Code: 1")]);
  g.gemini([{ id: "run_shell_command-1777600200000-cancel", name: "run_shell_command", args: { command: "rm -rf build" }, outcome: { kind: "cancelled" } }]);
  g.gemini([{ id: "run_shell_command-1777600300000-running", name: "run_shell_command", args: { command: "npm run watch" }, outcome: { kind: "pending", status: "executing" } }]);
  return { path: `${DIR}/looplens-demo/chats/session-2026-04-30T09-12-e5f6a7b8.jsonl`, text: g.jsonl() };
}

/** A sub-agent of the main session (`chats/<parentSessionId>/<sid>.jsonl`) that ping-pongs between two reads. */
function subAgent(): GeminiFixture {
  const g = new GeminiRecording("5e6f7a8b-2c3d-4e5f-9a0b-1c2d3e4f5a6b", "subagent");
  g.user("Investigate where the port is set.");
  for (let i = 0; i < 14; i++) {
    g.gemini([i % 2 === 0 ? readFile(200 + i, "/repo/config.yaml", "port: 8080") : { id: `search_file_content-${300 + i}`, name: "search_file_content", args: { pattern: "PORT" }, outcome: { kind: "result", output: "No matches found" } }]);
  }
  return { path: `${DIR}/looplens-demo/chats/${MAIN_ID}/5e6f7a8b-2c3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl`, text: g.jsonl() };
}

/** The legacy single-document `.json` (REAL 2025-10 shape): several turns of writes and edits, one failed edit. */
function legacySession(): GeminiFixture {
  const g = new GeminiRecording("0b23371a-ce2e-4b1c-81a0-44af5d94d9ce");
  g.user("Build a small timer page in plain HTML, CSS and JS.");
  const write = (n: number, file: string): CallSpec => ({ id: `write_file-${1761077079637 + n}-${n}`, name: "write_file", args: { file_path: `/site/${file}`, content: `/* ${file} */` }, outcome: { kind: "result", output: `Successfully created and wrote to new file: /site/${file}.` } });
  const replace = (n: number, ok: boolean): CallSpec => ({
    id: `replace-${1761077145229 + n}-${n}`,
    name: "replace",
    args: { file_path: "/site/script.js", old_string: `step ${n}`, new_string: `step ${n + 1}`, instruction: "Advance the step." },
    outcome: ok ? { kind: "result", output: "Successfully modified file: /site/script.js (1 replacements)." } : { kind: "error", error: "A secondary check by an LLM determined that no changes were necessary to fulfill the instruction." },
  });
  g.gemini([write(0, "index.html"), write(1, "style.css"), write(2, "script.js")]);
  g.gemini([]);
  g.user("Add a pause button.");
  g.gemini([replace(0, true)]);
  g.gemini([replace(1, true)]);
  g.user("Thanks!");
  g.gemini([]);
  g.user("Add a progress bar.");
  for (let i = 2; i < 6; i++) g.gemini([replace(i, true)]);
  g.gemini([replace(6, false)]);
  g.gemini([]);
  return { path: `${DIR}/looplens-legacy/chats/session-2025-10-21T20-04-0b23371a.json`, text: g.legacy() };
}

/** Bad lines among good ones: not JSON, not an object, not a Gemini record, a cut-off last line. */
function badLines(): GeminiFixture {
  const g = new GeminiRecording("badbad00-0000-4000-8000-000000000000");
  g.user("List the files.");
  g.raw("this line is not JSON");
  g.gemini([shell(500, "ls", "a\nb")]);
  g.raw('["an", "array"]');
  g.raw(JSON.stringify({ note: "no type, $set, $rewindTo or sessionId" }));
  g.user("Again.");
  g.gemini([shell(501, "ls", "a\nb")]);
  return { path: `${DIR}/looplens-demo/chats/session-2026-05-01T10-00-badbad00.jsonl`, text: g.jsonl() + '{"id":"g-cut","timestamp":"2026-05-01T10:00:09.000Z","type":"gemini","toolCalls":[{"id":"x"' };
}

export function geminiFixtures(): GeminiFixture[] {
  return [mainSession(), troubledSession(), subAgent(), legacySession(), badLines()];
}
