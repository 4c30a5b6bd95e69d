/**
 * What a loop cost where it shows (cost.md §3): json fields and summary totals, the table's run
 * header, `--sort tokens|cost`, sweep's after-stop figures; and nothing at all where nothing was
 * recorded. fixtures/cost/deploy-poll.jsonl: 46 polls, a final answer, usage with cost per turn.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExactSum } from "../../src/core/exactSum.js";
import { ROOT, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const FIXTURE = "fixtures/cost/deploy-poll.jsonl";

/** The fixture's turns, as written: [total tokens, cost], in order. */
function knownTurns(): Array<[number, number]> {
  return readFileSync(join(ROOT, FIXTURE), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { message?: { role?: string; usage?: { totalTokens: number; cost: { total: number } } } })
    .filter((entry) => entry.message?.role === "assistant")
    .map((entry) => [entry.message!.usage!.totalTokens, entry.message!.usage!.cost.total]);
}

describe("usage in the outputs", () => {
  it("json: run.usage, usageOnFlagged, usageAfterStop and the summary totals, as the turns add up", async () => {
    const { stdout } = await runMain(["analyze", FIXTURE, "--format", "json", "--no-cache"]);
    const document = JSON.parse(stdout) as { summary: Record<string, unknown>; runs: Array<Record<string, { turns: number; total?: number; cost?: number }> & { firstStop: { call: number } }> };
    const run = document.runs[0]!;
    const turns = knownTurns();
    expect(run.usage).toMatchObject({ turns: turns.length, total: turns.reduce((s, [t]) => s + t, 0) });
    // Turn k (from 0) made call k + 1; the last is the final answer. The first stop is at call 22.
    expect(run.firstStop.call).toBe(22);
    const after = turns.slice(22);
    expect(run.usageAfterStop).toMatchObject({ turns: after.length, total: after.reduce((s, [t]) => s + t, 0) });
    expect(run.usageAfterStop!.cost).toBe(after.reduce((s, [, c]) => s + c, 0));
    expect(document.summary).toMatchObject({ runsWithUsage: 1, usage: run.usage, usageOnFlagged: run.usageOnFlagged, usageAfterStop: run.usageAfterStop });
  });

  it("json: each loop's figures (usageByPattern), its turns with a finding of it and those after the first stop", async () => {
    const { stdout } = await runMain(["analyze", FIXTURE, "--format", "json", "--no-cache"]);
    type Sum = { turns: number; total?: number; cost?: number };
    const run = (JSON.parse(stdout) as { runs: Array<{ findings: Array<{ detector: string; tool: string; call: number }>; usageByPattern: Array<{ detector: string; tool: string; firstCall: number; usageOnFlagged: Sum; usageAfterStop: Sum }> }> }).runs[0]!;
    const turns = knownTurns();
    // A loop here is a detector on one tool with the same arguments (the fixture's polls are identical); turn k made call k + 1.
    const loops = [...new Set(run.findings.map((f) => `${f.detector} ${f.tool}`))];
    expect(loops.length).toBeGreaterThan(1);
    const figures = (calls: number[]) => ({ turns: calls.length, total: calls.reduce((s, c) => s + turns[c - 1]![0], 0) });
    expect(run.usageByPattern.map((p) => ({ loop: `${p.detector} ${p.tool}`, firstCall: p.firstCall, onFlagged: { turns: p.usageOnFlagged.turns, total: p.usageOnFlagged.total }, afterStop: { turns: p.usageAfterStop.turns, total: p.usageAfterStop.total } }))).toEqual(
      loops.map((loop) => {
        const calls = [...new Set(run.findings.filter((f) => `${f.detector} ${f.tool}` === loop).map((f) => f.call))];
        return { loop, firstCall: calls[0], onFlagged: figures(calls), afterStop: figures(calls.filter((c) => c > 22)) };
      }),
    );
  });

  it("markdown: a loop cost column, each loop's figures on its first row; none for input without usage", async () => {
    const { stdout } = await runMain(["analyze", FIXTURE, "--format", "markdown", "--no-cache"]);
    // The findings table's lines (the summary's table has two columns).
    const rows = stdout.split("\n").filter((line) => line.startsWith("| ") && line.split(" | ").length > 8);
    expect(rows[0]).toMatch(/\| loop cost \|$/);
    const costs = rows.slice(2).map((line) => line.split(" | ").at(-1)!.replace(/ ?\|$/, ""));
    expect(costs.filter((cost) => cost !== "")).toHaveLength(new Set(rows.slice(2).map((line) => line.split(" | ")[3])).size);
    expect(costs[0]).toMatch(/^[\d.]+k? tokens \(\$[\d.]+\) on these calls, [\d.]+k? after the first stop$/);
    const plain = await runMain(["analyze", "fixtures/poll-loop.jsonl", "--format", "markdown", "--no-cache"]);
    expect(plain.stdout).not.toContain("loop cost");
  });

  it("json: nothing at all for input that recorded no usage", async () => {
    const { stdout } = await runMain(["analyze", "fixtures/poll-loop.jsonl", "--format", "json", "--no-cache"]);
    expect(stdout).not.toMatch(/"usage|runsWithUsage|turns"/);
  });

  it("json: the same figures when runs wait on disk (spilled) and when read back from the result cache", async () => {
    const args = ["analyze", FIXTURE, "fixtures/poll-loop.jsonl", "--format", "json"];
    const fresh = await runMain([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: "0" } });
    const spilled = await runMain([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: "0", LOOPLENS_PLAIN_RUNS_IN_MEMORY: "0", LOOPLENS_FINDINGS_IN_MEMORY: "0" } });
    const cacheDir = tempDir("looplens-usage-cache-");
    await runMain(args, { env: { LOOPLENS_CACHE_DIR: cacheDir } });
    const cached = await runMain(args, { env: { LOOPLENS_CACHE_DIR: cacheDir } });
    expect(fresh.stdout).toContain('"usageAfterStop"');
    expect([spilled.stdout, cached.stdout]).toEqual([fresh.stdout, fresh.stdout]);
  });

  it("json: the summary's money is the same however the runs were grouped (in memory, spilled, from the cache)", async () => {
    // Fractional costs added in another grouping round otherwise: 70.1313 against 70.13130000000001.
    const folder = tempDir("looplens-usage-fractions-");
    const prices = [0.1, 0.2, 0.7, 0.013, 0.0031, 1.1, 0.37];
    let k = 0;
    for (let file = 0; file < 4; file++) {
      const lines: string[] = [];
      for (let run = 0; run < 12; run++) {
        for (let call = 0; call < 6; call++) {
          const common = { run: `r${file}-${run}`, session: `s${file}`, agent: "main", id: `c${file}-${run}-${call}`, tool: "exec" };
          lines.push(JSON.stringify({ type: "tool_call", ...common, args: { cmd: "ls" }, usage: { input: 10, output: 3, cost: prices[k++ % prices.length] } }));
          lines.push(JSON.stringify({ type: "tool_result", ...common, result: { content: [{ type: "text", text: "ok" }] } }));
        }
      }
      writeFileSync(join(folder, `part${file}.events.jsonl`), `${lines.join("\n")}\n`);
    }
    const args = ["analyze", folder, "--format", "json"];
    const fresh = await runMain([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: "0" } });
    const spilled = await runMain([...args, "--no-cache"], { env: { LOOPLENS_WORKERS: "0", LOOPLENS_PLAIN_RUNS_IN_MEMORY: "5", LOOPLENS_FINDINGS_IN_MEMORY: "5" } });
    const cacheDir = tempDir("looplens-usage-fractions-cache-");
    await runMain(args, { env: { LOOPLENS_CACHE_DIR: cacheDir } });
    const cached = await runMain([...args, "--agent", "main"], { env: { LOOPLENS_CACHE_DIR: cacheDir, LOOPLENS_PLAIN_RUNS_IN_MEMORY: "5" } });
    const document = JSON.parse(fresh.stdout) as { summary: { usage: { cost: number } }; runs: Array<{ usage: { cost: number } }> };
    const exact = new ExactSum();
    for (const run of document.runs) exact.add(run.usage.cost);
    expect(document.runs).toHaveLength(48);
    expect(spilled.stdout).toBe(fresh.stdout);
    expect(document.summary.usage.cost).toBe(exact.value());
    expect(JSON.parse(cached.stdout).summary.usage).toEqual(document.summary.usage);
  });

  it("table: the run header says what the run spent and what came after its first stop", async () => {
    const { stdout } = await runMain(["analyze", FIXTURE, "--no-cache"]);
    expect(stdout).toMatch(/1\.2M tokens\s+\(\$0\.50\), 715k after the first stop/);
    expect(stdout).toMatch(/usage: 1\.2M tokens \(\$0\.50\) in 1 run/);
  });

  it("--sort tokens puts the run that spent most first in --top", async () => {
    const stops = await runMain(["analyze", FIXTURE, "fixtures/poll-loop.jsonl", "--top", "1", "--format", "json", "--no-cache"]);
    const tokens = await runMain(["analyze", FIXTURE, "fixtures/poll-loop.jsonl", "--top", "1", "--sort", "tokens", "--format", "json", "--no-cache"]);
    const first = (out: string) => (JSON.parse(out) as { runs: Array<{ run: string }> }).runs[0]!.run;
    // By stops poll-1 (blocked at call 21) is worse than the deploy (call 22); by tokens the deploy is first.
    expect([first(stops.stdout), first(tokens.stdout)]).toEqual(["poll-1", "deploy-poll#1"]);
  });

  it("sweep ndjson: tokens and money after the first stop of the runs each config stops, the spec's keys first", async () => {
    const { stdout } = await runMain(["sweep", FIXTURE, "--vary", "criticalThreshold=20,40", "--vary", "globalCircuitBreakerThreshold=50", "--format", "ndjson", "--no-cache"]);
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(lines[0]!)).toEqual(["vary", "runs", "warned", "blocked", "aborted", "firstBlockMedianCall", "tokensAfterStop", "costAfterStop"]);
    const after = knownTurns().slice(22);
    expect(lines[0]).toMatchObject({ blocked: 1, tokensAfterStop: after.reduce((s, [t]) => s + t, 0) });
    // A config that stops nothing: nothing spent after a stop (no money key: none was summed).
    expect(lines[1]).toMatchObject({ blocked: 0, tokensAfterStop: 0 });
    expect(lines[1]).not.toHaveProperty("costAfterStop");
  });
});
