/**
 * The text console form of a Gateway log through the real CLI: read exactly like the JSON form
 * (same live findings, attribution, counts and diagnostics, only file and line differ), colour codes
 * and control characters never printed, and other text never taken for a log.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ndjsonFindings, runCli } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tempDir.js";

const JSON_FORM = "test/data/gateway/console-json.log";
const TEXT_FORM = "test/data/gateway/console-text.log";
const DAY = "fixtures/gateway/openclaw-2026-05-03.log";

type Json = Record<string, any>;

function analyzeJson(file: string): Json {
  const result = runCli(["analyze", file, "--format", "json", "--quiet"]);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

const without = (value: Json, ...keys: string[]) => Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

/** The text console form of a JSON-form log, line for line; lines that are no tslog object stay as they are. */
function toTextForm(jsonForm: string): string {
  return jsonForm
    .split("\n")
    .map((line) => {
      let value: Json;
      try {
        value = JSON.parse(line) as Json;
      } catch {
        return line;
      }
      const first = value["0"] as string;
      if (!first.startsWith("{")) return `${value.time} ${first}`;
      const message = typeof value["1"] === "string" ? value["1"] : value["2"];
      return `${value.time} [${JSON.parse(first).subsystem}] ${message}`;
    })
    .join("\n");
}

describe("the same records in both forms", () => {
  let json: Json;
  let text: Json;
  beforeAll(() => {
    json = analyzeJson(JSON_FORM);
    text = analyzeJson(TEXT_FORM);
  });

  it("the text form (colour codes, stack traces, console lines) yields its findings, runs and compaction", () => {
    expect(text.liveFindings.map((f: Json) => [f.run, f.line, f.call, f.tool, f.detector, f.level, f.count])).toEqual([
      ["run-text", 11, 3, "exec", "generic_repeat", "warning", 10],
      ["run-text", 18, 4, "e\u0007xec", "generic_repeat", "critical", 20],
      [null, 24, null, "browser", "unknown_tool_repeat", "critical", 10],
    ]);
    expect(text.runs.map((r: Json) => [r.run, r.agent, r.session, r.calls, r.compactions, r.live])).toEqual([
      ["run-text", "main", "sess-text", 4, 1, { started: true, ended: true, guard: { armed: 1, persisted: 0, windowsClosed: 1 } }],
    ]);
    const echoes = ndjsonFindings(runCli(["events", TEXT_FORM, "--quiet"]).stdout).find((e) => e.line === 11);
    expect(echoes).toMatchObject({ echoLines: [12, 13], ts: "2026-06-16T00:23:01.094Z" });
  });

  it("live findings and runs are those of the JSON form, but for file and line", () => {
    expect(text.liveFindings.map((f: Json) => without(f, "file", "line"))).toEqual(json.liveFindings.map((f: Json) => without(f, "file", "line")));
    const run = (r: Json) => ({ ...without(r, "file", "findings"), findings: r.findings.map((f: Json) => without(f, "file", "line")) });
    expect(text.runs.map(run)).toEqual(json.runs.map(run));
    expect(text.summary.live).toEqual(json.summary.live);
  });

  it("accounting: the three continuation lines of the stack trace are ignored, everything else as in the JSON form", () => {
    const { read, used, ignored, skipped } = json.summary.lines;
    expect(text.summary.lines).toEqual({ read: read + 3, used, ignored: ignored + 3, skipped });
    expect(used).toBe(18); // the two [tools] failures and the overflow among them
    expect(text.diagnostics.map((d: Json) => d.line)).toEqual([19, 20]);
    expect(json.diagnostics.map((d: Json) => d.line)).toEqual([16, 17]);
    expect(text.diagnostics[0].reason).toBe(json.diagnostics[0].reason);
    expect(text.diagnostics[1].reason).toBe("not a Gateway log record (expected <ISO time> [<subsystem>] <message>)");
  });
});

describe("a day of Gateway log rewritten in the text form", () => {
  it("gives the same report and the same live events, line for line", () => {
    const file = join(tempDir("looplens-console-"), "openclaw-2026-05-03.log");
    writeFileSync(file, toTextForm(readFileSync(DAY, "utf8")));
    const [json, text] = [analyzeJson(DAY), analyzeJson(file)];
    expect(text.liveFindings.length).toBeGreaterThan(0);
    expect(text.liveFindings.map((f: Json) => without(f, "file"))).toEqual(json.liveFindings.map((f: Json) => without(f, "file")));
    expect(text.runs.map((r: Json) => without(r, "file", "findings"))).toEqual(json.runs.map((r: Json) => without(r, "file", "findings")));
    expect(text.summary.lines).toEqual(json.summary.lines);
    expect(text.diagnostics.map((d: Json) => d.line)).toEqual(json.diagnostics.map((d: Json) => d.line));
    const events = (path: string) => ndjsonFindings(runCli(["events", path, "--quiet"]).stdout).map((e) => without(e, "file"));
    expect(events(file)).toEqual(events(DAY));
  });
});

describe("console text that is not a clean record", () => {
  it("no raw control character reaches any output format or stderr", () => {
    for (const format of ["table", "json", "ndjson", "markdown", "github"]) {
      const result = runCli(["analyze", TEXT_FORM, "--format", format]);
      expect(result.status, format).toBe(0);
      expect(result.stdout.length, format).toBeGreaterThan(0);
      expect(result.stdout + result.stderr, format).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it("garbage is skipped, a continuation with no record above it too, from standard input as well", () => {
    const input = [
      "    at stray (x.js:1:1)",
      "2026-06-16T02:22:49.094+02:00 [agent/embedded] embedded run start: runId=r1",
      "2026-06-16T02:22:50.094+02:00 [agent/embedded] embedded run tool start: runId=r1 tool=exec",
      "2026-06-16T02:22:51.094+02:00 [agents/loop-detection] Loop warning: exec called 10 times with identical arguments",
      "not a record",
      "",
      "2026-06-16T02:22:52.094+02:00 [gateway] shutting down",
    ].join("\n");
    const result = runCli(["analyze", "-", "--format", "json"], { input });
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as Json;
    expect(doc.liveFindings.map((f: Json) => [f.file, f.line, f.run, f.call, f.tool])).toEqual([["-", 4, "r1", 1, "exec"]]);
    expect(doc.summary.lines).toEqual({ read: 7, used: 3, ignored: 2, skipped: 2 });
    expect(doc.diagnostics).toEqual([
      { file: "-", line: 1, reason: "continuation line with no record above it" },
      { file: "-", line: 5, reason: "not a Gateway log record (expected <ISO time> [<subsystem>] <message>)" },
      { file: "-", line: 7, reason: "last line has no line end (it may be cut short); read as it is" },
    ]);
  });

  it("a plain text file is not taken for a Gateway log", () => {
    const file = join(tempDir("looplens-console-"), "notes.log");
    writeFileSync(file, "Gateway notes\n2026-06-16T02:22:49Z [gateway] was restarted, see below\nthe loop warning came back\n");
    const result = runCli(["analyze", file, "--format", "json"]);
    // Nothing in the input could be used: exit 2, the reason on stderr, no report.
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`${file}:1: not read: not a transcript: text of no format looplens reads (use --input-format to force one); skipped\n`);
  });
});
