/** --format markdown and --format github: structure, and input text kept inert. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeData, escapeProperty, workflowCommand } from "../../src/reporters/github.js";
import { markdownText } from "../../src/reporters/markdown.js";
import { BASE_FIXTURES, runCli } from "../helpers/cli.js";
import { call, result, textResult, toJsonl } from "../helpers/events.js";
import { tempDir } from "../helpers/tempDir.js";

const HOSTILE_TOOL = "evil|tool`x`<b>[a](http://x)*\u001b[31m\n::error::pwn";
const HOSTILE_RUN = "run|1\r\n%0A";

/** A run that calls a hostile-named tool 11 times with the same args (changing results): one warning. */
function hostileFile(): string {
  const dir = tempDir("looplens-formats-");
  const file = join(dir, "we,ird:name%.jsonl");
  const lines = Array.from({ length: 11 }, (_, i) => [call(HOSTILE_RUN, `c${i}`, HOSTILE_TOOL, { q: 1 }), result(HOSTILE_RUN, `c${i}`, HOSTILE_TOOL, textResult(`out ${i}`))]).flat();
  writeFileSync(file, toJsonl(lines));
  return file;
}

function analyze(...args: string[]) {
  const out = runCli(["analyze", ...args]);
  expect(out.stderr).toBe("");
  expect(out.status).toBe(0);
  return out.stdout;
}

describe("github workflow-command escaping (actions/toolkit rules)", () => {
  it("data escapes %, CR and LF; properties also : and ,", () => {
    expect(escapeData("50% a\r\nb: c,d")).toBe("50%25 a%0D%0Ab: c,d");
    expect(escapeProperty("50% a\r\nb: c,d")).toBe("50%25 a%0D%0Ab%3A c%2Cd");
    expect(workflowCommand("error", { file: "a,b.jsonl", line: 3, title: "t: x" }, "m%\n")).toBe("::error file=a%2Cb.jsonl,line=3,title=t%3A x::m%25%0A");
  });
});

describe("--format github", () => {
  it("one annotation per table row, warnings as ::warning, blocks and aborts as ::error, at the transcript line", () => {
    const lines = analyze(...BASE_FIXTURES, "--format", "github").trimEnd().split("\n");
    expect(lines.every((line) => /^::(warning|error) file=[^:]+,line=\d+,title=[^:]+::\S/.test(line))).toBe(true);
    expect(lines.map((line) => line.slice(0, line.indexOf(",title")))).toEqual([
      "::error file=fixtures/compaction-loop.jsonl,line=14",
      "::warning file=fixtures/generic-repeat.jsonl,line=22",
      "::warning file=fixtures/ping-pong.jsonl,line=20",
      "::error file=fixtures/ping-pong.jsonl,line=40",
      "::warning file=fixtures/poll-loop.jsonl,line=22",
      "::error file=fixtures/poll-loop.jsonl,line=42",
      "::error file=fixtures/poll-loop.jsonl,line=44",
      "::error file=fixtures/unknown-tool.jsonl,line=22",
    ]);
    expect(lines[5]).toContain("title=looplens block · known_poll_no_progress · criticalThreshold=20::CRITICAL: Called command_status");
    expect(lines[4]).toContain("[run poll-1, calls 11–20, 10 verdicts]");
    expect(lines[6]).toContain("after the run's first would-be stop");
  });

  it("--verbose gives one annotation per verdict; no findings gives no output", () => {
    expect(analyze("fixtures/poll-loop.jsonl", "--format", "github", "--verbose").trimEnd().split("\n")).toHaveLength(12);
    expect(analyze("fixtures/healthy.jsonl", "--format", "github")).toBe("");
  });

  it("input text cannot break out of its property or start a command", () => {
    const out = analyze(hostileFile(), "--format", "github");
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::warning file=[^,:]*we%2Cird%3Aname%25\.jsonl,line=21,title=/);
    expect(out).not.toContain("\u001b");
    expect(out).not.toMatch(/\n::error/);
    expect(lines[0]).toContain("[run run|1  %250A, call 11]");
  });
});

describe("--format markdown", () => {
  it("GitHub-flavoured tables per run and a summary", () => {
    const out = analyze(...BASE_FIXTURES, "--format", "markdown");
    expect(out.startsWith("## looplens report\n")).toBe(true);
    expect(out).toContain("### Run poll-1\n\nagent main · session sess-poll · fixtures/poll-loop.jsonl · 22 calls · 0 compactions");
    expect(out).toContain(
      [
        "| call | file:line | tool | detector | level | count | threshold | after stop | what happened |",
        "| ---: | --- | --- | --- | --- | ---: | --- | :---: | --- |",
        '| 11–20 | fixtures/poll-loop.jsonl:22 | command_status | known_poll_no_progress | warning ×10 | 10–19 | warningThreshold=10 |  | command_status(commandId=build-42) returned "status: running" unchanged 10–19 times; warns at 10 |',
        '| 21 | fixtures/poll-loop.jsonl:42 | command_status | known_poll_no_progress | **block** | 20 | criticalThreshold=20 |  | command_status(commandId=build-42) returned "status: running" unchanged 20 times; blocks at 20 |',
        '| 22 | fixtures/poll-loop.jsonl:44 | command_status | known_poll_no_progress | **block** | 20 | criticalThreshold=20 | ⏹ | command_status(commandId=build-42) returned "status: running" unchanged 20 times; blocks at 20 |',
      ].join("\n"),
    );
    expect(out).toContain("The live runtime blocked calls 21 and 22 (loop vetoes in the transcript).");
    expect(out).toContain("Worst runs:\n\n- compact-stuck: aborted at call 6 (fixtures/compaction-loop.jsonl:14)\n");
    // --no-explain: the tables as before, without the last column.
    const plain = analyze("fixtures/poll-loop.jsonl", "--format", "markdown", "--no-explain");
    expect(plain).toContain("| 21 | fixtures/poll-loop.jsonl:42 | command_status | known_poll_no_progress | **block** | 20 | criticalThreshold=20 |  |\n");
    expect(out).toContain("| runs with warnings / blocks / aborts | 3 / 3 / 1 |");
    expect(out).toContain("2 runs without findings not shown");
  });

  it("says so when nothing was found", () => {
    expect(analyze("fixtures/healthy.jsonl", "--format", "markdown")).toContain("No loop findings in 1 run.");
  });

  it("escapes pipes and markup in input text and strips control characters", () => {
    const out = analyze(hostileFile(), "--format", "markdown");
    expect(out).toContain("### Run run\\|1  %0A");
    const row = out.split("\n").find((line) => line.startsWith("| 11 |"))!;
    // Exactly the 10 pipes of a 9-column row: none from the tool name (nor its explanation).
    expect(row.replace(/\\\|/g, "").match(/\|/g)).toHaveLength(10);
    expect(row).toContain("evil\\|tool\\`x\\`&lt;b&gt;\\[a\\](http://x)\\* ::error::pwn");
    expect(out).not.toContain("\u001b");
  });

  it("markdownText leaves plain names alone", () => {
    expect(markdownText("command_status")).toBe("command_status");
    expect(markdownText("a|b\\c & <d>")).toBe("a\\|b\\\\c &amp; &lt;d&gt;");
  });
});
