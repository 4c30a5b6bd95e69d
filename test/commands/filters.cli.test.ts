/**
 * The filter flags through the CLI (in-process): parsing and validation (with the subcommand's help
 * named on a bad value), `--agent` as both config override and filter, dates and durations.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTime, reportFilters } from "../../src/commands/filterOptions.js";
import { runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const CONFIG = "fixtures/config/openclaw.json5";
const TWO_AGENTS = "fixtures/config/two-agents.jsonl";

interface Doc {
  runs: Array<{ run: string; agent: string; source?: string; findings: Array<{ level: string; threshold: { name: string; value: number } }> }>;
  summary: { runs: number; files: number; filtered?: Record<string, unknown> };
  config: { agent: string | null };
}

async function json(...args: string[]): Promise<Doc> {
  const result = await runMain(["analyze", ...args, "--format", "json", "--all"]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Doc;
}

const thresholds = (doc: Doc) => [...new Set(doc.runs.flatMap((run) => run.findings.map((f) => `${f.threshold.name}=${f.threshold.value}`)))].sort();

describe("--agent: the agent's override, and a filter when the input has its runs", () => {
  it("with runs of that agent: only those runs, replayed under its override", async () => {
    const all = await json(TWO_AGENTS, "--config", CONFIG);
    expect(new Set(all.runs.map((run) => run.agent))).toEqual(new Set(["main", "safe-runner"]));
    const doc = await json(TWO_AGENTS, "--config", CONFIG, "--agent", "safe-runner");
    expect(doc.runs.length).toBeGreaterThan(0);
    expect(doc.runs.every((run) => run.agent === "safe-runner")).toBe(true);
    expect(doc.runs.length).toBeLessThan(all.runs.length);
    expect(thresholds(doc)).toEqual(["criticalThreshold=8", "warningThreshold=5"]);
    expect(doc.config.agent).toBe("safe-runner");
    expect(doc.summary.filtered).toMatchObject({ by: { agent: "safe-runner" }, runsHidden: all.runs.length - doc.runs.length });
  });

  it("with no run of that agent: every run, replayed under its override (a what-if), and the summary says so", async () => {
    const plain = await json("fixtures/poll-loop.jsonl", "--config", CONFIG);
    const whatIf = await json("fixtures/poll-loop.jsonl", "--config", CONFIG, "--agent", "safe-runner");
    expect(whatIf.runs.map((run) => run.run)).toEqual(plain.runs.map((run) => run.run));
    expect(whatIf.runs.every((run) => run.agent === "main")).toBe(true);
    expect(thresholds(plain)).toEqual(["criticalThreshold=20", "warningThreshold=10"]);
    expect(thresholds(whatIf)).toEqual(["criticalThreshold=8", "warningThreshold=5"]);
    expect(whatIf.summary.filtered).toMatchObject({ runsHidden: 0, agentMatchedNoRun: true });
    const table = await runMain(["analyze", "fixtures/poll-loop.jsonl", "--config", CONFIG, "--agent", "safe-runner"]);
    expect(table.stdout).toContain("no run is agent safe-runner's: every run shown, replayed under its override");
  });
});

describe("filter values", () => {
  it("--run and --session take repeats and comma-separated lists", async () => {
    const doc = await json("fixtures", "--run", "poll-1,pingpong-1", "--run", "nope");
    expect(doc.runs.map((run) => run.run).sort()).toEqual(["pingpong-1", "poll-1"]);
  });

  it("--detector is validated against the detector table; --top must be a count", async () => {
    const bad = await runMain(["analyze", "fixtures", "--detector", "generic_repeat,loops"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown detector "loops" \(detectors: generic_repeat, .*argument_churn\)\. \(see looplens analyze --help\)\n$/);
    const top = await runMain(["analyze", "fixtures", "--top", "0"]);
    expect(top.status).toBe(2);
    expect(top.stderr).toContain("(see looplens analyze --help)");
  });

  it("--since/--until: durations back from now (units combine) and ISO dates; anything else is a usage error", async () => {
    const now = new Date("2026-05-10T12:00:00Z");
    expect(parseTime("2h", now)).toBe("2026-05-10T10:00:00.000Z");
    expect(parseTime("1d12h", now)).toBe("2026-05-09T00:00:00.000Z");
    expect(parseTime("1w", now)).toBe("2026-05-03T12:00:00.000Z");
    expect(parseTime("90m", now)).toBe("2026-05-10T10:30:00.000Z");
    expect(parseTime("2026-05-01", now)).toBe("2026-05-01T00:00:00.000Z");
    expect(parseTime("2026-05-01T12:30+02:00", now)).toBe("2026-05-01T10:30:00.000Z");
    for (const bad of ["yesterday", "5", "2h ago", "May 1"]) expect(() => parseTime(bad, now)).toThrow(/duration back from now/);
    expect(reportFilters({ since: "3d", until: "2026-05-09" }, now)).toEqual({ since: "2026-05-07T12:00:00.000Z", until: "2026-05-09T00:00:00.000Z" });
    const result = await runMain(["sweep", "fixtures", "--since", "soon"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--since <when>' argument 'soon' is invalid.*\(see looplens sweep --help\)\n$/);
  });

  it("--since keeps the dated runs in the window; the undated ones are counted as hidden", async () => {
    // A run dated by the `ts` of its events (seconds since the epoch here), beside an undated fixture.
    const dated = join(tempDir("looplens-since-"), "dated.jsonl");
    const at = Date.parse("2026-05-01T10:00:00Z") / 1000;
    writeFileSync(dated, `${JSON.stringify({ type: "run_start", run: "dated-1", ts: at })}\n${JSON.stringify({ type: "tool_call", run: "dated-1", ts: at + 5, tool: "read", args: {} })}\n`);
    const doc = await json(dated, "fixtures/poll-loop.jsonl", "--since", "2026-05-01");
    expect(doc.runs.map((run) => run.run)).toEqual(["dated-1"]);
    expect(doc.summary.filtered).toMatchObject({ runsHidden: 1, runsUndated: 1 });
    expect((await json(dated, "--until", "2026-05-01T09:59Z")).runs).toEqual([]);
    expect((await json(dated, "--until", "2026-05-01T10:00Z")).runs).toHaveLength(1);
  });

  it("sweep counts only the selected runs; events prints only the selected runs' events", async () => {
    const sweep = await runMain(["sweep", "fixtures", "--vary", "criticalThreshold=20", "-f", "ndjson", "--run", "poll-1"]);
    expect(sweep.status, sweep.stderr).toBe(0);
    expect(JSON.parse(sweep.stdout)).toMatchObject({ runs: 1, blocked: 1 });
    expect(sweep.stderr).toMatch(/the filters kept 1 of \d+ runs/);
    const events = await runMain(["events", "fixtures", "--session", "sess-pp"]);
    const runs = new Set(events.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { run: string }).run));
    expect([...runs]).toEqual(["pingpong-1"]);
  });

  it("sweep selects by the kind of agent as analyze does, and counts the files analyze counts", async () => {
    for (const agent of ["openclaw", "claude-code", "codex"]) {
      const analyzed = await json("fixtures", "--agent", agent);
      const replayed = analyzed.runs.filter((run) => run.source === undefined);
      expect(replayed.length, agent).toBeGreaterThan(0);
      const sweep = await runMain(["sweep", "fixtures", "--vary", "criticalThreshold=20", "-f", "json", "--agent", agent]);
      expect(sweep.status, sweep.stderr).toBe(0);
      const doc = JSON.parse(sweep.stdout) as { summary: { files: number; runs: number } };
      expect(doc.summary.runs, agent).toBe(replayed.length);
      expect(doc.summary.files).toBe(analyzed.summary.files);
    }
  });
});

describe("errors name the help of the subcommand", () => {
  it.each([
    [["analyze", "fixtures", "--frob"], "(see looplens analyze --help)"],
    [["check", "--format", "xml", "fixtures"], "(see looplens check --help)"],
    [["sweep", "fixtures", "--vary", "nope=1"], "(see looplens sweep --help)"],
    [["config", "--format", "xml"], "(see looplens config --help)"],
    [["completion", "tcsh"], "(see looplens completion --help)"],
    [["fixtures", "--format", "xml"], "(see looplens analyze --help)"],
  ])("%j", async (args, hint) => {
    const result = await runMain(args);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr.trim().endsWith(hint)).toBe(true);
  });
});
