/**
 * `analyze` with every replayed run spilled to disk ($LOOPLENS_PLAIN_RUNS_IN_MEMORY=0,
 * $LOOPLENS_FINDINGS_IN_MEMORY=0: runs with findings too), and the live
 * runs of Gateway logs too but the last one ($LOOPLENS_LIVE_RUNS_IN_MEMORY=1), prints exactly
 * what it prints holding them all, in every format, with filters, with Gateway logs among the inputs
 * (their runs are read back to be lined up), serially and on worker threads; and it leaves no file
 * behind in the temporary folder.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { generate } from "../../bench/generate.mjs";
import { runCli, runMain } from "../helpers/cli.js";

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-spill-cli-"));
  const inputs = join(dir, "inputs");
  generate({ dir: join(inputs, "real"), seed: 31, files: 4, fileMb: 0.25, format: "real" });
  generate({ dir: join(inputs, "cc"), seed: 32, files: 2, fileMb: 0.2, format: "claude-code" });
  cpSync("fixtures/agents", join(inputs, "agents"), { recursive: true });
  config = join(dir, "openclaw.json");
  writeFileSync(config, JSON.stringify({ tools: { loopDetection: { enabled: true } }, agents: { list: [{ id: "ops", tools: { loopDetection: { criticalThreshold: 9 } } }] } }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every replayed run (plain or with findings), and every live run but the last one seen, on disk.
const SPILL_ALL = { LOOPLENS_PLAIN_RUNS_IN_MEMORY: "0", LOOPLENS_FINDINGS_IN_MEMORY: "0", LOOPLENS_LIVE_RUNS_IN_MEMORY: "1" };

describe("analyze with runs spilled to disk", () => {
  const cases: Array<[string, string[]]> = [
    ["json", ["-f", "json"]],
    ["json with a config of agent overrides", ["-f", "json", "--config", "CONFIG"]],
    ["table --all", ["--all"]],
    ["table", []],
    ["markdown --all", ["-f", "markdown", "--all"]],
    ["markdown", ["-f", "markdown"]],
    ["ndjson", ["-f", "ndjson"]],
    ["github", ["-f", "github"]],
    ["json --since", ["-f", "json", "--since", "2026-01-01"]],
    ["json --top 3", ["-f", "json", "--top", "3"]],
    ["table --all --agent ops", ["--all", "--agent", "ops"]],
    // Runs whose findings the filter hides become plain ones, spilled again with the selection.
    ["json --detector ping_pong", ["-f", "json", "--detector", "ping_pong"]],
    ["markdown --all --tool exec --since", ["-f", "markdown", "--all", "--tool", "exec", "--since", "2026-01-01"]],
    ["json --until --top 2", ["-f", "json", "--until", "2030-01-01", "--top", "2"]],
    ["table --fail-on warning", ["--fail-on", "warning"]],
    ["ndjson --fail-on critical --detector generic_repeat", ["-f", "ndjson", "--fail-on", "critical", "--detector", "generic_repeat"]],
    ["github --verbose", ["-f", "github", "--verbose"]],
    // Runs with their timelines (the page draws each call) go to disk and come back whole.
    ["html --all", ["-f", "html", "--all"]],
    ["html --verbose --tool exec", ["-f", "html", "--verbose", "--tool", "exec"]],
  ];
  it.each(cases)("prints what it prints holding every run (%s)", async (_name, given) => {
    const args = ["analyze", join(dir, "inputs"), ...given.map((arg) => (arg === "CONFIG" ? config : arg))];
    const held = await runMain(args, { env: { LOOPLENS_WORKERS: "0" } });
    const spilled = await runMain(args, { env: { LOOPLENS_WORKERS: "0", ...SPILL_ALL } });
    expect(held.stdout.length).toBeGreaterThan(200);
    expect(spilled.stdout).toBe(held.stdout);
    expect(spilled.stderr).toBe(held.stderr);
    expect(spilled.status).toBe(held.status);
  });

  it("lines replayed runs up with live ones whether they were spilled or not (in process)", async () => {
    const paired = join(dir, "paired");
    cpSync("fixtures/gateway", join(paired, "gateway"), { recursive: true });
    cpSync("fixtures/openclaw", join(paired, "openclaw"), { recursive: true });
    for (const given of [["-f", "json"], ["--all"], ["-f", "markdown"], ["-f", "json", "--top", "2"]]) {
      const args = ["analyze", paired, ...given];
      const held = await runMain(args, { env: { LOOPLENS_WORKERS: "0" } });
      const spilled = await runMain(args, { env: { LOOPLENS_WORKERS: "0", ...SPILL_ALL } });
      if (given[1] === "json" && given.length === 2) expect((JSON.parse(held.stdout) as { comparison: { runs: string[] } }).comparison.runs.length).toBeGreaterThan(0);
      expect(spilled.stdout).toBe(held.stdout);
      expect(spilled.status).toBe(held.status);
    }
  });

  it("prints the same on worker threads, with Gateway logs among the inputs, and removes its spill files", () => {
    const mixed = join(dir, "mixed");
    cpSync(join(dir, "inputs"), mixed, { recursive: true });
    cpSync("fixtures/gateway", join(mixed, "gateway"), { recursive: true });
    cpSync("fixtures/openclaw", join(mixed, "openclaw"), { recursive: true });
    const temp = join(dir, "tmp");
    mkdirSync(temp);
    for (const inputs of [join(dir, "inputs"), mixed]) {
      for (const format of ["json", "table", "html"]) {
        const args = ["analyze", inputs, "-f", format, "--all"];
        const held = runCli(args, { env: { LOOPLENS_WORKERS: "0" } });
        const spilled = runCli(args, { env: { LOOPLENS_WORKERS: "2", TMPDIR: temp, ...SPILL_ALL } });
        expect(spilled.stdout).toBe(held.stdout);
        expect(spilled.stderr).toBe(held.stderr);
        expect(readdirSync(temp)).toEqual([]);
      }
    }
    // Twelve CLI runs: on a machine shared with other work they took over a minute.
  }, 180_000);
});
