// docs/outputs.md's picture of `--format html` (docs/report.png): writes the demo session
// docs/demo/session.jsonl (three runs that loop in three ways, one that does not), renders its
// report with the built CLI and photographs the page in headless Chromium (scripts/browser.mjs).
//
//   npm run build && node scripts/screenshot.mjs [out.png]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchBrowser } from "./browser.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? join(root, "docs/report.png");
const input = join(root, "docs/demo/session.jsonl");

function demoSession() {
  const lines = [];
  let n = 0;
  const text = (value) => ({ content: [{ type: "text", text: value }], details: {} });
  function run(run, session, steps) {
    const who = { run, session, agent: "main" };
    lines.push({ type: "run_start", ...who });
    for (const step of steps) {
      if (step === "compaction") {
        lines.push({ type: "compaction", ...who });
        continue;
      }
      const [tool, args, outcome] = step;
      const id = `c${++n}`;
      lines.push({ type: "tool_call", ...who, id, tool, args });
      lines.push({ type: "tool_result", ...who, id, tool, ...(outcome.error ? { error: outcome.error } : { result: outcome }) });
    }
    lines.push({ type: "run_end", ...who });
  }
  const times = (count, step) => Array.from({ length: count }, () => step);

  // A build started in the background, then polled with nothing new coming back.
  run("fix-build", "s-build", [
    ["read", { path: "package.json" }, text('{ "name": "api" }')],
    ["read", { path: "src/server.ts" }, text("export function start() {}")],
    ["edit", { path: "src/server.ts", edits: 1 }, text("1 edit applied")],
    ["exec", { command: "npm run build", background: true }, { content: [{ type: "text", text: "started" }], details: { status: "running", commandId: "build-42" } }],
    ...times(22, ["command_status", { commandId: "build-42" }, { content: [{ type: "text", text: "status: running" }], details: { status: "running", commandId: "build-42" } }]),
    ["exec", { command: "kill %1" }, text("killed")],
  ]);
  // A missing file read again and again, on through a compaction: the guard aborts.
  const missing = ["read", { path: "/ws/ROADMAP.md" }, { error: "ENOENT: no such file or directory, open '/ws/ROADMAP.md'" }];
  run("summarize-roadmap", "s-docs", [["web_search", { query: "project roadmap" }, text("3 results")], ["read", { path: "/ws/README.md" }, text("# api")], missing, missing, missing, "compaction", missing, missing, missing]);
  // Two calls alternating, the same answers each time.
  const test = ["exec", { command: "npm test" }, { error: "1 failing: auth.test.ts" }];
  const look = ["read", { path: "src/auth.test.ts" }, text("it('logs in', ...)")];
  run("flaky-test", "s-test", [["edit", { path: "src/auth.ts", edits: 2 }, text("2 edits applied")], ...times(8, [test, look]).flat()]);
  // A run that does its work and ends.
  run("triage-issue", "s-triage", [
    ["web_search", { query: "error EADDRINUSE" }, text("5 results")],
    ["read", { path: "src/server.ts" }, text("listen(3000)")],
    ["edit", { path: "src/server.ts", edits: 1 }, text("1 edit applied")],
    ["exec", { command: "npm test" }, text("12 passing")],
  ]);
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

mkdirSync(dirname(input), { recursive: true });
writeFileSync(input, demoSession());
// Relative path: the report names the file as a user would have typed it.
const html = execFileSync(process.execPath, [join(root, "bin/looplens"), "analyze", "docs/demo/session.jsonl", "--format", "html"], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
const dir = mkdtempSync(join(tmpdir(), "looplens-screenshot-"));
const page = join(dir, "report.html");
writeFileSync(page, html);
const browser = await launchBrowser();
try {
  const tab = await browser.newPage({ width: 1100, height: 900 });
  await tab.goto(pathToFileURL(page).href);
  writeFileSync(out, await tab.screenshot());
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
