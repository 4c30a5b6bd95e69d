/**
 * `--format gitlab` through the CLI: a GitLab Code Quality array, one issue per table row with the
 * documented fields, severities from GitLab's set by level, paths relative to the working directory,
 * fingerprints equal across runs (and for a file given by its absolute path) and unique.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEVERITY } from "../../src/reporters/gitlab.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { CI_FIXTURES, expectedRows, hostileInputs, ndjsonOf, type HostileInputs } from "./ciInputs.js";

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number } };
}

function gitlab(args: readonly string[], options: { cwd?: string; status?: number } = {}): Issue[] {
  const out = runCli(["analyze", "-f", "gitlab", ...args], options);
  expect(out.status, out.stderr).toBe(options.status ?? 0);
  const issues = JSON.parse(out.stdout) as Issue[];
  expect(Array.isArray(issues)).toBe(true);
  for (const issue of issues) {
    expect(Object.keys(issue).sort()).toEqual(["check_name", "description", "fingerprint", "location", "severity"]);
    expect(typeof issue.description).toBe("string");
    expect(issue.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(["info", "minor", "major", "critical", "blocker"]).toContain(issue.severity);
    expect(Number.isInteger(issue.location.lines.begin) && issue.location.lines.begin >= 1).toBe(true);
    expect(issue.location.path.startsWith("/") || issue.location.path.startsWith("./")).toBe(false);
  }
  return issues;
}

describe("--format gitlab on the fixtures", () => {
  let issues: Issue[];
  beforeAll(() => (issues = gitlab(CI_FIXTURES)));

  it("has one issue per table row: detector, severity by level, path and first line", () => {
    const rows = expectedRows(ndjsonOf(CI_FIXTURES));
    const seen = issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin]);
    expect(seen.sort()).toEqual(rows.map(({ first }) => [first.detector, SEVERITY[first.level], first.file, first.line]).sort());
    // Three levels, three severities, each a step up.
    expect(new Set(issues.map((i) => i.severity))).toEqual(new Set(["minor", "critical", "blocker"]));
  });

  it("has fingerprints equal across runs and paths, unique between issues", () => {
    const fingerprints = issues.map((i) => i.fingerprint);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    expect(gitlab(CI_FIXTURES).map((i) => i.fingerprint)).toEqual(fingerprints);
    const absolute = gitlab(CI_FIXTURES.map((f) => join(ROOT, f)));
    expect(absolute.map((i) => i.fingerprint)).toEqual(fingerprints);
    expect(absolute.map((i) => i.location.path)).toEqual(issues.map((i) => i.location.path));
    // Unique under --verbose too, where verdicts of one pattern are issues of their own.
    const verbose = gitlab(["--verbose", "fixtures/poll-loop.jsonl"]).map((i) => i.fingerprint);
    expect(verbose).toHaveLength(ndjsonOf(["fixtures/poll-loop.jsonl"]).length);
    expect(new Set(verbose).size).toBe(verbose.length);
  });

  it("is an empty array without findings; --fail-on sets the exit status", () => {
    expect(gitlab(["fixtures/healthy.jsonl"])).toEqual([]);
    expect(gitlab(["--fail-on", "abort", ...CI_FIXTURES], { status: 1 })).toHaveLength(issues.length);
  });
});

describe("gitlab under hostile input", () => {
  let hostile: HostileInputs;
  beforeAll(() => (hostile = hostileInputs()));
  afterAll(() => hostile.remove());

  it("keeps valid JSON, plain descriptions, and the path relative inside the working directory", () => {
    const inside = gitlab(["."], { cwd: hostile.dir });
    expect(inside.map((i) => i.location.path)).toEqual(Array(3).fill("run one ☃ #1?.jsonl"));
    for (const issue of inside) {
      expect(issue.description).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(issue.description.length).toBeLessThanOrEqual(1000);
    }
    expect(gitlab([hostile.file], { cwd: hostile.dir }).map((i) => i.fingerprint)).toEqual(inside.map((i) => i.fingerprint));
  });
});
