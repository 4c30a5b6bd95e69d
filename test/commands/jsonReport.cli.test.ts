/**
 * The json report is written in pieces (reporters/json.ts): head, each run, tail. Whatever the runs,
 * the pieces must make one valid document laid out exactly as `JSON.stringify(document, null, 2)`.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

function expectCanonical(text: string): Record<string, unknown> {
  const document = JSON.parse(text) as Record<string, unknown>;
  expect(text).toBe(`${JSON.stringify(document, null, 2)}\n`);
  return document;
}

describe("json report written in pieces", () => {
  it("is one document laid out as JSON.stringify would, with no runs, one run, many runs and live findings", () => {
    const none = expectCanonical(runCli(["analyze", "--format", "json", "--quiet", "-"], { input: "\n" }).stdout);
    expect(none.runs).toEqual([]);
    const one = expectCanonical(runCli(["analyze", "--format", "json", "--quiet", "fixtures/poll-loop.jsonl"]).stdout);
    expect(one.runs).toHaveLength(1);
    const many = expectCanonical(runCli(["analyze", "--format", "json", "--quiet", "--all", "fixtures/gateway", "fixtures/openclaw"]).stdout);
    expect((many.runs as unknown[]).length).toBeGreaterThan(5);
    expect(Object.keys(many)).toEqual(["version", "config", "summary", "runs", "liveFindings", "comparison", "diagnostics"]);
  });
});
