/**
 * analyze --fail-on: exit 1 exactly when a finding reaches the level (block = critical), else 0; bad
 * use 2. An exit status of 1 comes with one closing line on stderr saying why; --max-warnings too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

// What each fixture holds: healthy nothing, generic-repeat warnings only, poll-loop warnings and
// blocks, compaction-loop a single abort (no warning: --fail-on warning still trips, abort ranks
// above it). Cases left out follow from "at or above" (healthy passes warning, so it passes all).
const CASES: Array<[fixture: string, level: "warning" | "critical" | "block" | "abort", status: number]> = [
  ["healthy.jsonl", "warning", 0],
  ["generic-repeat.jsonl", "warning", 1],
  ["generic-repeat.jsonl", "block", 0],
  ["generic-repeat.jsonl", "critical", 0],
  ["poll-loop.jsonl", "block", 1],
  ["poll-loop.jsonl", "critical", 1],
  ["poll-loop.jsonl", "abort", 0],
  ["compaction-loop.jsonl", "warning", 1],
  ["compaction-loop.jsonl", "block", 1],
  ["compaction-loop.jsonl", "abort", 1],
];

/** Findings at or above a level in one fixture, counted from its ndjson. */
async function countAtOrAbove(fixture: string, levels: string[]): Promise<number> {
  const { stdout } = await runMain(["analyze", `fixtures/${fixture}`, "-f", "ndjson"]);
  return stdout.trim().split("\n").filter((line) => line !== "" && levels.includes((JSON.parse(line) as { level: string }).level)).length;
}

describe("analyze --fail-on", () => {
  it.each(CASES)("%s --fail-on %s → exit %i, with a closing line exactly when 1", async (fixture, level, status) => {
    const result = await runMain(["analyze", `fixtures/${fixture}`, "--fail-on", level, "-f", "ndjson"]);
    expect(result.status).toBe(status);
    if (status === 0) expect(result.stderr).toBe("");
    else expect(result.stderr).toMatch(new RegExp(`^✖ \\d+ findings? at or above ${level} in 1 run\\n$`));
  });

  it("the closing line counts the findings at or above the level and their runs", async () => {
    const result = await runMain(["analyze", "fixtures/poll-loop.jsonl", "fixtures/generic-repeat.jsonl", "fixtures/healthy.jsonl", "--fail-on", "warning"]);
    const findings = (await countAtOrAbove("poll-loop.jsonl", ["warning", "critical", "abort"])) + (await countAtOrAbove("generic-repeat.jsonl", ["warning", "critical", "abort"]));
    expect(result.stderr).toBe(`✖ ${findings} findings at or above warning in 2 runs\n`);
    const blocks = await countAtOrAbove("poll-loop.jsonl", ["critical", "abort"]);
    const block = await runMain(["analyze", "fixtures/poll-loop.jsonl", "fixtures/generic-repeat.jsonl", "--fail-on", "block"]);
    expect(block.stderr).toBe(`✖ ${blocks} findings at or above block in 1 run\n`);
  });

  it("--fail-on judges what the filters selected", async () => {
    expect((await runMain(["analyze", "fixtures/poll-loop.jsonl", "--fail-on", "warning", "--detector", "ping_pong"])).status).toBe(0);
    expect((await runMain(["analyze", "fixtures/poll-loop.jsonl", "--fail-on", "warning", "--tool", "command_status"])).status).toBe(1);
  });

  it("--max-warnings N: exit 1 with more than N warnings", async () => {
    const warnings = await countAtOrAbove("generic-repeat.jsonl", ["warning"]);
    expect(warnings).toBeGreaterThan(1);
    expect((await runMain(["analyze", "fixtures/generic-repeat.jsonl", "--max-warnings", String(warnings)])).status).toBe(0);
    const over = await runMain(["analyze", "fixtures/generic-repeat.jsonl", "--max-warnings", String(warnings - 1)]);
    expect(over.status).toBe(1);
    expect(over.stderr).toBe(`✖ ${warnings} warnings, more than --max-warnings ${warnings - 1}\n`);
    expect((await runMain(["analyze", "fixtures", "--max-warnings", "-1"])).status).toBe(2);
  });

  it("without --fail-on, analyze exits 0 whatever it finds", () => {
    expect(runCli(["analyze", "fixtures"]).status).toBe(0);
  });

  it("an unknown level is a usage error (exit 2)", async () => {
    const result = await runMain(["analyze", "fixtures", "--fail-on", "error"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--fail-on <level>' argument 'error' is invalid. Allowed choices are warning, critical, block, abort. \(see looplens analyze --help\)/);
  });

  it("--strict with skipped lines exits 2 even when --fail-on is met", () => {
    const dir = tempDir("looplens-failon-");
    const file = join(dir, "poll.jsonl");
    writeFileSync(file, `${readFileSync("fixtures/poll-loop.jsonl", "utf8")}{broken\n`);
    expect(runCli(["analyze", file, "--fail-on", "block", "-q"]).status).toBe(1);
    expect(runCli(["analyze", file, "--fail-on", "block", "-q", "--strict"]).status).toBe(2);
  });
});
