/**
 * Terminal safety: every string from the input (tool names, run ids, sessions, agents, file names,
 * messages, diagnostics, notices, error messages) is stripped of control characters and escape
 * sequences before it reaches a terminal; json/ndjson keep it as data (escaped, same value).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sanitize } from "../../src/reporters/sanitize.js";
import { TERMINAL_ATTACKS } from "./arbitraries.js";
import { runMain, tempDir, TERMINAL_UNSAFE } from "./harness.js";

const tmp = tempDir();

/** A looping run whose every name is an attack, so that it shows up in every part of the report. */
function hostileTranscript(attack: string): string {
  const lines: object[] = [{ type: "run_start", run: `run${attack}`, session: `sess${attack}`, agent: `agent${attack}` }];
  for (let i = 0; i < 25; i++) {
    lines.push({ type: "tool_call", run: `run${attack}`, id: `c${i}`, tool: `tool${attack}`, args: { q: attack } });
    lines.push({ type: "tool_result", run: `run${attack}`, id: `c${i}`, error: `Unknown tool: x${attack}` });
  }
  lines.push({ type: `bogus${attack}`, run: `run${attack}` }, { type: "tool_result", run: `run${attack}`, id: `none${attack}`, result: {} });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function expectTerminalSafe(text: string, what: string): void {
  const match = TERMINAL_UNSAFE.exec(text);
  expect(match, `${what}: ${JSON.stringify(match?.[0])} at ${match?.index}: ${JSON.stringify(text.slice(Math.max(0, (match?.index ?? 0) - 30), (match?.index ?? 0) + 30))}`).toBeNull();
}

describe("sanitize", () => {
  it.each([
    ["ESC[2J clear screen", "a\u001b[2J\u001b[Hb", "ab"],
    ["OSC 8 hyperlink", "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\", "click"],
    ["OSC 52 clipboard write (BEL)", "x\u001b]52;c;ZXZpbA==\u0007y", "xy"],
    ["OSC unterminated", "x\u001b]0;title", "x"],
    ["C1 CSI", "\u009b31mred\u009b0m", "red"],
    ["C1 OSC 52", "x\u009d52;c;ZXZpbA==\u009cy", "xy"],
    ["DCS", "x\u001bP1$r\u001b\\y", "xy"],
    ["charset and reset escapes", "a\u001b(Bb\u001bcc\u001b7", "abc"],
    ["bidi override", "\u202egnp.exe", "gnp.exe"],
    ["bidi isolates and marks", "a\u2066b\u2069c\u200fd\u061c", "abcd"],
    ["carriage return overwrite", "safe\rEVIL", "safe EVIL"],
    ["backspaces", "abc\b\b\bXYZ", "abcXYZ"],
    ["newlines and tabs", "a\nb\tc\u2028d\u0085e", "a b c d e"],
    ["NUL and DEL", "a\u0000b\u007fc", "abc"],
    ["plain text is untouched", "exec: ls -la — ✓ ünïcödé", "exec: ls -la — ✓ ünïcödé"],
  ])("%s", (_what, input, expected) => {
    expect(sanitize(input)).toBe(expected);
    expectTerminalSafe(sanitize(input), "sanitized");
  });
});

describe("what reaches the terminal", () => {
  it.each(TERMINAL_ATTACKS.map((a) => [JSON.stringify(a), a]))("%s in every name: table, stderr, json, ndjson, markdown and github", async (_name, attack) => {
    const file = join(tmp.dir, `file${attack.replace(/\//g, "_")}.jsonl`);
    writeFileSync(file, hostileTranscript(attack));
    for (const flags of [[], ["--all", "--verbose"]]) {
      const table = await runMain(["analyze", file, ...flags]);
      expect(table.status).toBe(0);
      expect(table.stdout).toMatch(/unknown_tool_repeat/);
      expectTerminalSafe(table.stdout, "table");
      expectTerminalSafe(table.stderr, "stderr");
      expect(table.stderr.split("\n").filter(Boolean)).toHaveLength(2); // the bogus type and the orphan result
    }
    const json = await runMain(["analyze", file, "--format", "json"]);
    expectTerminalSafe(json.stdout, "json");
    const doc = JSON.parse(json.stdout) as { runs: Array<{ run: string; session: string; agent: string; file: string; findings: Array<{ tool: string }> }> };
    expect(doc.runs[0]).toMatchObject({ run: `run${attack}`.trim(), session: `sess${attack}`, agent: `agent${attack}`, file });
    expect(doc.runs[0]!.findings[0]!.tool).toBe(`tool${attack}`);
    const ndjson = await runMain(["analyze", file, "--format", "ndjson"]);
    expectTerminalSafe(ndjson.stdout, "ndjson");
    expect((JSON.parse(ndjson.stdout.split("\n")[0]!) as { tool: string }).tool).toBe(`tool${attack}`);
    for (const format of ["markdown", "github"]) {
      const out = await runMain(["analyze", file, "--format", format, "--all", "--verbose"]);
      expect(out.stdout).toMatch(/unknown_tool_repeat/);
      expectTerminalSafe(out.stdout, format);
    }
    const events = await runMain(["events", file]);
    expectTerminalSafe(events.stdout, "events");
    expect((JSON.parse(events.stdout.split("\n")[1]!) as { args: { q: string } }).args.q).toBe(attack);
  });

  it.each(TERMINAL_ATTACKS.map((a) => [JSON.stringify(a), a]))("%s in a Gateway log: live runs and findings in every format", async (_name, attack) => {
    const tslog = (subsystem: string, message: string) =>
      JSON.stringify({ "0": JSON.stringify({ subsystem }), "1": message, _meta: { logLevelName: "INFO", date: "2026-05-03T10:00:00.000Z" } });
    const run = `run${attack.replace(/\s/g, "")}`;
    const tool = `tool${attack.replace(/\s/g, "")}`;
    const log = [
      tslog("agent/embedded", `embedded run start: runId=${run}`),
      tslog("agent/embedded", `embedded run tool start: runId=${run} tool=${tool} toolCallId=t1`),
      tslog("agents/loop-detection", `Loop warning: ${tool} called 10 times with identical arguments`),
      tslog("agents/loop-detection", `Critical generic loop detected: ${tool} repeated 20 times`),
      tslog("agent/embedded", `embedded run done: runId=${run}`),
      tslog("agents/loop-detection", `Loop warning: ${tool} called 11 times with identical arguments`),
      tslog(`odd${attack}`, `Loop warning: ${tool} called ten times`),
    ].join("\n");
    const file = tmp.write("gateway.log", `${log}\n`);
    for (const format of ["table", "markdown", "github", "json", "ndjson"]) {
      const out = await runMain(["analyze", file, "--format", format, "--all"]);
      expect(out.status).toBe(0);
      expect(out.stdout).toMatch(/generic_repeat/);
      expectTerminalSafe(out.stdout, format);
      expectTerminalSafe(out.stderr, `stderr of ${format}`);
    }
    expectTerminalSafe((await runMain(["events", file])).stdout, "events");
  });

  it("with colour on, the only escape sequences are looplens' own colours", async () => {
    const file = tmp.write("colour.jsonl", hostileTranscript(TERMINAL_ATTACKS.join("")));
    const result = await runMain(["analyze", file], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
    expect(result.stdout).toMatch(/\u001b\[31m/);
    expectTerminalSafe(result.stdout.replace(/\u001b\[[0-9;]*m/g, ""), "coloured table");
  });

  it("error messages and notices from hostile paths, flags and config keys", async () => {
    const good = tmp.write("good.jsonl", '{"type":"run_start","run":"r"}\n');
    const config = tmp.write("config.json", JSON.stringify({ [`warning\u001b[2JThreshold`]: 3, criticalThreshold: `\u009b31m` }));
    const results = [
      await runMain([`missing\u001b]52;c;ZXZpbA==\u0007.jsonl`]),
      await runMain([good, `--\u001b[2Jformat`]),
      await runMain([good, "--format", `\u202ejson`]),
      await runMain([good, "--config", config]),
      await runMain([good, "--set", `critical\u001b[2JThreshold=3`]),
    ];
    for (const result of results) {
      expect(result.stderr).toMatch(/looplens: /);
      expectTerminalSafe(result.stderr, "stderr");
    }
    expect(results[3]!.stderr).toMatch(/unknown key warning/);
  });
});
