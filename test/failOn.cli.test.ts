/** analyze --fail-on: exit 1 exactly when a finding reaches the level (block = critical), else 0; bad use 2. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

// What each fixture holds: healthy nothing, generic-repeat warnings only, poll-loop warnings and
// blocks, compaction-loop a single abort (no warning: --fail-on warning still trips, abort is above).
const MATRIX: Array<[fixture: string, warning: number, block: number, abort: number]> = [
  ["healthy.jsonl", 0, 0, 0],
  ["generic-repeat.jsonl", 1, 0, 0],
  ["poll-loop.jsonl", 1, 1, 0],
  ["compaction-loop.jsonl", 1, 1, 1],
];

describe("analyze --fail-on", () => {
  it.each(MATRIX)("%s: warning → %i, block → %i, abort → %i", (fixture, ...expected) => {
    const statuses = (["warning", "block", "abort"] as const).map((level) => runCli(["analyze", `fixtures/${fixture}`, "--fail-on", level, "-f", "ndjson"]).status);
    expect(statuses).toEqual(expected);
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
