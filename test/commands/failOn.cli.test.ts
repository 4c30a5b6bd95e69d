/** analyze --fail-on: exit 1 exactly when a finding reaches the level (block = critical), else 0; bad use 2. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

// What each fixture holds: healthy nothing, generic-repeat warnings only, poll-loop warnings and
// blocks, compaction-loop a single abort (no warning: --fail-on warning still trips, abort ranks
// above it). Cases left out follow from "at or above" (healthy passes warning, so it passes all).
const CASES: Array<[fixture: string, level: "warning" | "block" | "abort", status: number]> = [
  ["healthy.jsonl", "warning", 0],
  ["generic-repeat.jsonl", "warning", 1],
  ["generic-repeat.jsonl", "block", 0],
  ["poll-loop.jsonl", "block", 1],
  ["poll-loop.jsonl", "abort", 0],
  ["compaction-loop.jsonl", "warning", 1],
  ["compaction-loop.jsonl", "block", 1],
  ["compaction-loop.jsonl", "abort", 1],
];

describe("analyze --fail-on", () => {
  it.each(CASES)("%s --fail-on %s → exit %i", (fixture, level, status) => {
    const result = runCli(["analyze", `fixtures/${fixture}`, "--fail-on", level, "-f", "ndjson"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(status);
  });

  it("without --fail-on, analyze exits 0 whatever it finds", () => {
    expect(runCli(["analyze", "fixtures"]).status).toBe(0);
  });

  it("an unknown level is a usage error (exit 2)", () => {
    const result = runCli(["analyze", "fixtures", "--fail-on", "critical"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--fail-on <level>' argument 'critical' is invalid/);
  });

  it("--strict with skipped lines exits 2 even when --fail-on is met", () => {
    const dir = mkdtempSync(join(tmpdir(), "looplens-failon-"));
    const file = join(dir, "poll.jsonl");
    writeFileSync(file, `${readFileSync("fixtures/poll-loop.jsonl", "utf8")}{broken\n`);
    expect(runCli(["analyze", file, "--fail-on", "block", "-q"]).status).toBe(1);
    expect(runCli(["analyze", file, "--fail-on", "block", "-q", "--strict"]).status).toBe(2);
  });
});
