/**
 * `--format junit` through the CLI: well-formed XML (fast-xml-parser's validator, and XML 1.0's
 * `Char` production checked on every character, which that validator does not), a suite per input
 * file, a case per run, a failure per run at or above `--fail-on` (warning by default), counts that
 * add up, and hostile input kept as text.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEVEL_RANK } from "../../src/core/findings.js";
import { xmlAttribute, xmlText } from "../../src/reporters/junit.js";
import { runCli } from "../helpers/cli.js";
import { CI_FIXTURES, HOSTILE, hostileInputs, ndjsonOf, type HostileInputs } from "./ciInputs.js";

interface Case {
  name: string;
  classname: string;
  failure?: { message: string; type: string; "#text": string };
  error?: { message: string };
  "system-out"?: string;
}
interface Suite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  testcase?: Case[];
  "system-err"?: string;
}
interface Report {
  testsuites: { tests: number; failures: number; errors: number; skipped: number; testsuite: Suite[] };
}

/** Every character XML 1.0 allows (`Char`): a lone surrogate is no code point of the class. */
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: true,
  // Names and messages stay the strings they were, not numbers or trimmed text.
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === "testsuite" || name === "testcase",
});

function junit(args: readonly string[], options: { cwd?: string; status?: number } = {}): { xml: string; report: Report } {
  const out = runCli(["analyze", "-f", "junit", ...args], options);
  expect(out.status, out.stderr).toBe(options.status ?? 0);
  expect(XMLValidator.validate(out.stdout)).toBe(true);
  expect(out.stdout).toMatch(XML_CHARS);
  expect(out.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  return { xml: out.stdout, report: parser.parse(out.stdout) as Report };
}

const cases = (report: Report) => report.testsuites.testsuite.flatMap((s) => s.testcase ?? []);

/** The counts add up: cases to suites, suites to the root. */
function expectConsistentCounts(report: Report): void {
  const root = report.testsuites;
  for (const suite of root.testsuite) {
    const mine = suite.testcase ?? [];
    expect(suite.tests).toBe(mine.length);
    expect(suite.failures).toBe(mine.filter((c) => c.failure !== undefined).length);
    expect(suite.errors).toBe(mine.filter((c) => c.error !== undefined).length);
    expect(suite.skipped).toBe(0);
  }
  for (const key of ["tests", "failures", "errors", "skipped"] as const) expect(root[key]).toBe(root.testsuite.reduce((sum, s) => sum + s[key], 0));
}

/** The runs (by file and id) with a finding at or above `level`, from ndjson. */
function runsAtOrAbove(level: "warning" | "critical" | "abort"): string[] {
  const runs = ndjsonOf(CI_FIXTURES)
    .filter((f) => f.run !== null && LEVEL_RANK[f.level] >= LEVEL_RANK[level])
    .map((f) => `${f.file} ${f.run}`);
  return [...new Set(runs)].sort();
}

const failed = (report: Report) => cases(report).filter((c) => c.failure !== undefined).map((c) => `${c.classname} ${c.name}`).sort();

describe("--format junit on the fixtures", () => {
  let report: Report;
  beforeAll(() => (report = junit(CI_FIXTURES).report));

  it("has a suite per input file, a case per run, and counts that add up", () => {
    expect(report.testsuites.testsuite.map((s) => s.name)).toEqual(CI_FIXTURES);
    const json = JSON.parse(runCli(["analyze", "-f", "json", ...CI_FIXTURES]).stdout) as { runs: Array<{ file: string; run: string }> };
    expect(cases(report).map((c) => `${c.classname} ${c.name}`)).toEqual(json.runs.map((r) => `${r.file} ${r.run}`));
    expectConsistentCounts(report);
  });

  it("fails every run with a finding at or above warning when --fail-on is not given, and exits 0 all the same", () => {
    expect(failed(report)).toEqual(runsAtOrAbove("warning"));
    expect(failed(report).length).toBeLessThan(cases(report).length);
    expect(cases(report).find((c) => c.classname === "fixtures/healthy.jsonl")!.failure).toBeUndefined();
  });

  it("follows --fail-on, for the failures and the exit status alike", () => {
    const block = junit(["--fail-on", "block", ...CI_FIXTURES], { status: 1 }).report;
    expect(failed(block)).toEqual(runsAtOrAbove("critical"));
    expect(failed(block).length).toBeLessThan(failed(report).length);
    // A run with warnings only passes, its table in system-out.
    const warnedOnly = cases(block).find((c) => c.classname === "fixtures/generic-repeat.jsonl")!;
    expect(warnedOnly.failure).toBeUndefined();
    expect(warnedOnly["system-out"]).toContain("generic_repeat");
    expect(failed(junit(["--fail-on", "abort", ...CI_FIXTURES], { status: 1 }).report)).toEqual(runsAtOrAbove("abort"));
  });

  it("says in each failure what failed, its text the run's findings table", () => {
    const poll = cases(report).find((c) => c.name === "poll-1")!.failure!;
    const findings = ndjsonOf(["fixtures/poll-loop.jsonl"]);
    expect(poll.type).toBe("block");
    expect(poll.message).toContain(`${findings.length} findings at or above warning`);
    const table = poll["#text"];
    expect(table).toMatch(/ call +file:line +tool +detector +level/);
    for (const f of findings.filter((f, i) => i === 0 || f.level !== findings[i - 1]!.level)) expect(table).toContain(`fixtures/poll-loop.jsonl:${f.line} command_status ${f.detector}`);
    expect(cases(report).find((c) => c.name === "compact-stuck")!.failure!.type).toBe("abort");
  });
});

describe("xml escaping", () => {
  // Input reaches the XML sanitized (no C0 controls), and decoded (no lone surrogates): the escaping
  // itself must hold for any text all the same.
  it("writes any text as well-formed XML that reads back as the text less what XML cannot hold", () => {
    const document = `<a b="${xmlAttribute(HOSTILE)}">${xmlText(HOSTILE)}</a>`;
    expect(document).toMatch(XML_CHARS);
    expect(XMLValidator.validate(document)).toBe(true);
    const read = parser.parse(document) as { a: { b: string; "#text": string } };
    const kept = HOSTILE.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800\udc00]/g, "");
    expect(read.a["#text"]).toBe(kept);
    expect(read.a.b).toBe(kept);
    // Tabs and breaks in an attribute survive as characters (a parser folds raw ones into spaces).
    expect(xmlAttribute("a\tb\nc\rd")).toBe("a&#9;b&#10;c&#13;d");
  });
});

describe("junit under hostile and unreadable input", () => {
  let hostile: HostileInputs;
  beforeAll(() => {
    hostile = hostileInputs();
    writeFileSync(join(hostile.dir, "binary.jsonl"), Buffer.from([0, 1, 2, 0xff, 0xfe, 0]));
    writeFileSync(join(hostile.dir, "bad & <lines>.jsonl"), `${JSON.stringify({ type: "tool_call", run: "b", id: "1", tool: "t", args: {} })}\n{broken & <json> ]]>\n`);
  });
  afterAll(() => hostile.remove());

  it("stays well-formed, and keeps the text as text", () => {
    const { xml, report } = junit([hostile.dir]);
    expectConsistentCounts(report);
    const run = cases(report).find((c) => c.name.startsWith("r1 "))!;
    // Escaped characters come back; those XML cannot hold, and terminal controls, are gone.
    expect(run.name).toContain(`a&b <x y="1"> 'q' ]]>`);
    expect(run.failure!["#text"]).toContain("tool a&b <x y=\"1\"> 'q' ]]>");
    expect(xml).toContain("&lt;x y=&quot;1&quot;&gt; &apos;q&apos; ]]&gt;");
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u001b\u009b]/);
  });

  it("makes an unreadable file a suite in error, and lists skipped lines in their suite", () => {
    const { report } = junit([hostile.dir]);
    const suites = new Map(report.testsuites.testsuite.map((s) => [s.name.slice(s.name.lastIndexOf("/") + 1), s]));
    const binary = suites.get("binary.jsonl")!;
    expect(binary.errors).toBe(1);
    expect(binary.testcase![0]!.error!.message).toContain("binary");
    expect(report.testsuites.errors).toBe(1);
    expect(suites.get("bad & <lines>.jsonl")!["system-err"]).toMatch(/bad & <lines>\.jsonl:2: /);
  });
});
