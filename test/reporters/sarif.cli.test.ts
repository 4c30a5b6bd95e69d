/**
 * `--format sarif` through the CLI: valid against the OASIS SARIF 2.1.0 schema (fixtures, standard
 * input, hostile input), one result per table row with the row's level, location and explanation,
 * rules from the detector table, and fingerprints equal across runs and distinct between rows.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DETECTORS } from "../../src/core/detectorInfo.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { CI_FIXTURES, expectedRows, hostileInputs, ndjsonOf, type HostileInputs } from "./ciInputs.js";
import { sarifErrors } from "./sarifSchema.js";

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri?: string; uriBaseId?: string; description?: { text: string } }; region: { startLine: number } } }>;
  partialFingerprints: Record<string, string>;
  occurrenceCount?: number;
  properties: { level: string; tool: string; run: string | null; source?: string };
}
interface SarifRule {
  id: string;
  defaultConfiguration: { level: string; parameters: Record<string, number> };
  properties: { warningThreshold?: string; stopThreshold?: string };
  shortDescription: { text: string };
  help: { text: string };
}
interface SarifLog {
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
    results: SarifResult[];
    invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications?: Array<{ message: { text: string }; locations: SarifResult["locations"] }> }>;
    originalUriBaseIds?: Record<string, { uri: string }>;
    properties: { config: Record<string, unknown>; summary: Record<string, unknown> };
  }>;
}

function sarif(args: readonly string[], options: { cwd?: string; input?: string; status?: number } = {}): SarifLog {
  const out = runCli(["analyze", "-f", "sarif", ...args], options);
  expect(out.status, out.stderr).toBe(options.status ?? 0);
  const log = JSON.parse(out.stdout) as SarifLog;
  expect(sarifErrors(log)).toEqual([]);
  return log;
}

const LEVEL: Record<string, string> = { warning: "warning", critical: "error", abort: "error" };
const fingerprints = (log: SarifLog) => log.runs[0]!.results.map((r) => r.partialFingerprints["looplensFinding/v1"]);
const location = (r: SarifResult) => r.locations[0]!.physicalLocation;

describe("--format sarif on the fixtures", () => {
  let log: SarifLog;
  let run: SarifLog["runs"][number];
  beforeAll(() => {
    log = sarif(CI_FIXTURES);
    run = log.runs[0]!;
  });

  it("is SARIF 2.1.0 that the schema accepts, and the schema check can fail", () => {
    expect(log.version).toBe("2.1.0");
    const broken = structuredClone(log);
    broken.runs[0]!.results[0]!.level = "fatal";
    location(broken.runs[0]!.results[0]!).artifactLocation.uri = "a b:c";
    expect(sarifErrors(broken)).toHaveLength(2);
  });

  it("holds the summary as the JSON document writes it (usage in the public shape, no internal sums)", () => {
    const inputs = [...CI_FIXTURES, "fixtures/cost/deploy-poll.jsonl"];
    const summary = sarif(inputs).runs[0]!.properties.summary;
    const json = runCli(["analyze", "-f", "json", ...inputs]);
    expect(summary).toEqual((JSON.parse(json.stdout) as { summary: Record<string, unknown> }).summary);
    expect(summary).toHaveProperty("runsWithUsage", 1);
  });

  it("has one result per table row, its level, first line and verdict count", () => {
    const rows = expectedRows(ndjsonOf(CI_FIXTURES));
    const seen = run.results.map((r) => [r.ruleId, r.level, location(r).artifactLocation.uri, location(r).region.startLine, r.occurrenceCount ?? 1]);
    const expected = rows.map(({ first, verdicts }) => [first.detector, LEVEL[first.level], first.file, first.line, verdicts]);
    expect(seen.sort()).toEqual(expected.sort());
    // Every level there is, as looplens names them and as SARIF does.
    expect(new Set(run.results.map((r) => r.properties.level))).toEqual(new Set(["warning", "critical", "abort"]));
    expect(run.results.some((r) => r.properties.source === "log")).toBe(true);
  });

  it("gives relative URIs against %SRCROOT%, the working directory", () => {
    for (const r of run.results) expect(location(r).artifactLocation.uriBaseId).toBe("%SRCROOT%");
    expect(fileURLToPath(run.originalUriBaseIds!["%SRCROOT%"]!.uri)).toBe(`${ROOT.replace(/\/$/, "")}/`);
  });

  it("says each row's explanation line as its message", () => {
    // The markdown table's last column, unescaped, holds each replayed row's explanation whole.
    const markdown = runCli(["analyze", "-f", "markdown", ...CI_FIXTURES]).stdout;
    const unescaped = markdown.replace(/\\([\\`*[\]|~])/g, "$1").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    const replayed = run.results.filter((r) => r.properties.source === undefined);
    expect(replayed.length).toBeGreaterThan(5);
    for (const r of replayed) expect(unescaped).toContain(` ${r.message.text} |`);
    const live = run.results.find((r) => r.properties.source === "log")!;
    expect(live.message.text).toBe(`${live.properties.tool} made no progress 10 times`);
  });

  it("names each detector's rule, with its thresholds from the detector table and their values under the config", () => {
    const rules = sarif(["--set", "warningThreshold=7", "--set", "unknownToolThreshold=12", "fixtures/poll-loop.jsonl"]).runs[0]!;
    expect(rules.tool.driver.name).toBe("looplens");
    expect(rules.tool.driver.version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
    expect(rules.tool.driver.rules.map((r) => r.id)).toEqual(DETECTORS.map((d) => d.name));
    for (const [i, detector] of DETECTORS.entries()) {
      const rule = rules.tool.driver.rules[i]!;
      expect(rule.properties.warningThreshold).toBe(detector.warning);
      expect(rule.properties.stopThreshold).toBe(detector.stop);
      expect(rule.defaultConfiguration.level).toBe(detector.warning ? "warning" : "error");
      expect(rule.shortDescription.text.toLowerCase()).toContain(detector.meaning.toLowerCase());
    }
    const byId = new Map(rules.tool.driver.rules.map((r) => [r.id, r]));
    expect(byId.get("generic_repeat")!.defaultConfiguration.parameters).toEqual({ warningThreshold: 7, criticalThreshold: 20 });
    expect(byId.get("unknown_tool_repeat")!.defaultConfiguration.parameters).toEqual({ unknownToolThreshold: 12 });
    expect(rules.properties.config).toMatchObject({ warningThreshold: 7, unknownToolThreshold: 12 });
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
  });
});

describe("sarif fingerprints", () => {
  it("are equal across two runs, and for the same file given by its absolute path", () => {
    const relative = sarif(CI_FIXTURES);
    expect(fingerprints(sarif(CI_FIXTURES))).toEqual(fingerprints(relative));
    const absolute = sarif(CI_FIXTURES.map((f) => join(ROOT, f)));
    expect(fingerprints(absolute)).toEqual(fingerprints(relative));
    expect(absolute.runs[0]!.results.map((r) => location(r).artifactLocation.uri)).toEqual(relative.runs[0]!.results.map((r) => location(r).artifactLocation.uri));
  });

  it("differ between rows, verdicts too under --verbose, and with the config", () => {
    const rows = fingerprints(sarif(CI_FIXTURES));
    expect(new Set(rows).size).toBe(rows.length);
    const verbose = fingerprints(sarif(["--verbose", "fixtures/poll-loop.jsonl"]));
    expect(verbose).toHaveLength(12);
    expect(new Set(verbose).size).toBe(12);
    // Lines are not hashed, levels are: a row that starts earlier is the same alert, its blocks gone are gone.
    const [warnings, block, afterStop] = fingerprints(sarif(["fixtures/poll-loop.jsonl"]));
    const earlier = sarif(["--set", "warningThreshold=5", "--set", "criticalThreshold=50", "fixtures/poll-loop.jsonl"]);
    expect(location(earlier.runs[0]!.results[0]!).region.startLine).toBeLessThan(22);
    expect(fingerprints(earlier)).toEqual([warnings]);
    expect(new Set([warnings, block, afterStop]).size).toBe(3);
  });
});

describe("sarif under hostile input", () => {
  let hostile: HostileInputs;
  beforeAll(() => (hostile = hostileInputs()));
  afterAll(() => hostile.remove());

  it("stays valid: control characters gone from messages, huge names cut, paths as URIs", () => {
    const log = sarif([hostile.file]);
    const results = log.runs[0]!.results;
    expect(results.map((r) => r.level)).toEqual(["warning", "warning", "error"]);
    for (const r of results) {
      expect(r.message.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(r.message.text.length).toBeLessThanOrEqual(1000);
      expect(r.properties.tool.length).toBeLessThanOrEqual(1000);
      // Outside the working directory: a file URI, percent-encoded, that names the file again.
      const uri = location(r).artifactLocation.uri!;
      expect(uri).toMatch(/^file:\/\/\/[\x21-\x7e]+$/);
      expect(fileURLToPath(uri)).toBe(hostile.file);
    }
  });

  it("gives a relative URI inside the working directory, and equal fingerprints from either", () => {
    const inside = sarif([basename(hostile.file)], { cwd: hostile.dir });
    const uri = location(inside.runs[0]!.results[0]!).artifactLocation.uri!;
    expect(uri).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeURIComponent(uri)).toBe(basename(hostile.file));
    expect(fingerprints(sarif([hostile.file], { cwd: hostile.dir }))).toEqual(fingerprints(inside));
    expect(fingerprints(sarif([hostile.file], { cwd: dirname(hostile.dir) }))).not.toEqual(fingerprints(inside));
  });
});

describe("sarif edges", () => {
  it("standard input has no URI; skipped lines are the invocation's notifications", () => {
    const input = `${readFileSync(join(ROOT, "fixtures/generic-repeat.jsonl"), "utf8")}not json at all\n`;
    const log = sarif(["-"], { input });
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(1);
    expect(location(results[0]!).artifactLocation).toEqual({ description: { text: "standard input" } });
    const notes = log.runs[0]!.invocations[0]!.toolExecutionNotifications!;
    expect(notes).toHaveLength(1);
    expect(location(notes[0]! as unknown as SarifResult).region.startLine).toBe(input.trimEnd().split("\n").length);
  });

  it("no findings: an empty results array, still valid; --fail-on sets the exit status as for other formats", () => {
    expect(sarif(["fixtures/healthy.jsonl"]).runs[0]!.results).toEqual([]);
    expect(sarif(["--fail-on", "block", ...CI_FIXTURES], { status: 1 }).runs[0]!.results.length).toBeGreaterThan(0);
    sarif(["--fail-on", "warning", "fixtures/healthy.jsonl"]);
  });
});
