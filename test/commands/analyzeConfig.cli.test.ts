/**
 * Config as it changes analysis: agent overrides apply to that agent's runs only, --agent forces one,
 * --set beats both, `enabled` semantics, invalid values and notices, and report headers that state
 * the thresholds in force.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ndjsonFindings, runCli, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const EVENTS = "fixtures/config/two-agents.jsonl";
const OPENCLAW = "fixtures/config/openclaw.json5";

const dir = tempDir("looplens-analyze-config-");
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

type Row = [run: string, call: number, level: string, count: number, threshold: string, afterStop: boolean];

async function findings(...args: string[]): Promise<{ rows: Row[]; stderr: string }> {
  const result = await runMain(["analyze", "--format", "ndjson", ...args]);
  expect(result.status).toBe(0);
  const rows = ndjsonFindings(result.stdout).map((f): Row => {
    const threshold = f.threshold as { name: string; value: number };
    return [f.run as string, f.call as number, f.level as string, f.count as number, `${threshold.name}=${threshold.value}`, f.afterStop as boolean];
  });
  return { rows, stderr: result.stderr };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const warnings = (run: string, from: number, to: number, threshold: number, offset = 1): Row[] =>
  range(from, to).map((call): Row => [run, call, "warning", call - offset, `warningThreshold=${threshold}`, false]);

/** main-poll under the global block: 12 identical polls warn at 11 and 12. */
const MAIN_DEFAULT = warnings("main-poll", 11, 12, 10);

describe("agent overrides", () => {
  it("without --config both agents' runs get the same defaults", async () => {
    const { rows } = await findings(EVENTS);
    expect(rows).toEqual([...MAIN_DEFAULT, ...warnings("safe-poll", 11, 12, 10)]);
  });

  it("safe-runner's override (warning 5, critical 8) changes its run only", async () => {
    const { rows, stderr } = await findings(EVENTS, "--config", OPENCLAW);
    expect(stderr).toBe("");
    expect(rows).toEqual([
      ...MAIN_DEFAULT,
      ...warnings("safe-poll", 6, 8, 5),
      ["safe-poll", 9, "critical", 8, "criticalThreshold=8", false],
      // the recorded run went on past the would-be block, so its results keep the streak growing
      ...range(10, 12).map((call): Row => ["safe-poll", call, "critical", call - 1, "criticalThreshold=8", true]),
    ]);
  });

  it("matches agent ids like the runtime, case-insensitively", async () => {
    const path = file("upper.json5", "{ tools: { loopDetection: { enabled: true } }, agents: { list: [{ id: 'Safe-Runner', tools: { loopDetection: { warningThreshold: 11 } } }] } }");
    const { rows } = await findings(EVENTS, "--config", path);
    expect(rows).toEqual([...MAIN_DEFAULT, ["safe-poll", 12, "warning", 11, "warningThreshold=11", false]]);
    const forced = await findings(EVENTS, "--config", OPENCLAW, "--agent", "SAFE-Runner");
    expect(forced.rows.filter((r) => r[0] === "main-poll")[0]).toEqual(["main-poll", 6, "warning", 5, "warningThreshold=5", false]);
  });

  const expectedUnder = (run: string): Row[] => [
    ...warnings(run, 6, 8, 5),
    [run, 9, "critical", 8, "criticalThreshold=8", false],
    ...range(10, 12).map((call): Row => [run, call, "critical", call - 1, "criticalThreshold=8", true]),
  ];

  it("--agent applies one agent's override to every run, and shows that agent's runs", async () => {
    const { rows } = await findings(EVENTS, "--config", OPENCLAW, "--agent", "safe-runner");
    expect(rows).toEqual(expectedUnder("safe-poll"));
  });

  it("--agent naming no run's agent applies its override to every run (a what-if), hiding none", async () => {
    // The same events, every run's agent renamed: safe-runner's override now applies only by --agent.
    const renamed = join(tempDir("looplens-whatif-"), "events.jsonl");
    writeFileSync(renamed, readFileSync(EVENTS, "utf8").replaceAll('"agent":"safe-runner"', '"agent":"other"'));
    const { rows } = await findings(renamed, "--config", OPENCLAW, "--agent", "safe-runner");
    expect(rows).toEqual([...expectedUnder("main-poll"), ...expectedUnder("safe-poll")]);
  });

  it("--agent with no override in the file uses the global block, with a notice", async () => {
    const { rows, stderr } = await findings(EVENTS, "--config", OPENCLAW, "--agent", "main");
    expect(rows).toEqual(MAIN_DEFAULT);
    expect(stderr).toBe(`looplens: notice: ${OPENCLAW}: --agent main: the config has no loopDetection override for this agent; using the global block\n`);
  });

  it("--set beats the agent override", async () => {
    const { rows } = await findings(EVENTS, "--config", OPENCLAW, "--set", "criticalThreshold=11");
    expect(rows).toEqual([
      ...warnings("main-poll", 11, 11, 10),
      ["main-poll", 12, "critical", 11, "criticalThreshold=11", false],
      ...warnings("safe-poll", 6, 11, 5),
      ["safe-poll", 12, "critical", 11, "criticalThreshold=11", false],
    ]);
  });
});

describe("enabled", () => {
  it("a config that leaves enabled unset runs no rolling detectors but keeps the guard", async () => {
    const empty = file("empty.json5", "{}");
    expect((await findings(EVENTS, "--config", empty)).rows).toEqual([]);
    const guard = await findings("fixtures/compaction-loop.jsonl", "--config", empty);
    expect(guard.rows).toEqual([["compact-stuck", 6, "abort", 3, "postCompactionGuard.windowSize=3", false]]);
  });

  it("enabled=false turns the guard off too", async () => {
    expect((await findings("fixtures/compaction-loop.jsonl", "--set", "enabled=false")).rows).toEqual([]);
  });

  it("--set enabled=true turns the rolling detectors on over a file that leaves them off", async () => {
    const path = file("unset.json5", "{ tools: { loopDetection: { warningThreshold: 11 } } }");
    expect((await findings(EVENTS, "--config", path)).rows).toEqual([]);
    expect((await findings(EVENTS, "--config", path, "--set", "enabled=true")).rows).toEqual([
      ["main-poll", 12, "warning", 11, "warningThreshold=11", false],
      ["safe-poll", 12, "warning", 11, "warningThreshold=11", false],
    ]);
  });
});

describe("file values", () => {
  it("an invalid value falls back to the default, with a notice on stderr naming file, field, value and value used", async () => {
    const path = file("invalid.json5", "{ enabled: true, warningThreshold: 0, criticalThreshold: 11 }");
    const { rows, stderr } = await findings(EVENTS, "--config", path);
    expect(stderr).toBe(`looplens: notice: ${path}: warningThreshold: 0 is not a positive integer; using the default 10\n`);
    expect(rows.filter((r) => r[0] === "main-poll")).toEqual([...warnings("main-poll", 11, 11, 10), ["main-poll", 12, "critical", 11, "criticalThreshold=11", false]]);
  });

  it("clamping changes findings and is reported", async () => {
    const path = file("clamp.json5", "{ enabled: true, warningThreshold: 4, criticalThreshold: 3, globalCircuitBreakerThreshold: 5 }");
    const { rows, stderr } = await findings(EVENTS, "--config", path);
    expect(stderr).toBe(
      [
        `looplens: notice: ${path}: criticalThreshold 3 is not above warningThreshold 4; raised to 5`,
        `looplens: notice: ${path}: globalCircuitBreakerThreshold 5 is not above criticalThreshold 5; raised to 6`,
        "",
      ].join("\n"),
    );
    expect(rows.filter((r) => r[0] === "main-poll" && !r[5])).toEqual([
      ["main-poll", 5, "warning", 4, "warningThreshold=4", false],
      ["main-poll", 6, "critical", 5, "criticalThreshold=5", false],
    ]);
  });

  it("a typo is a notice with the closest key, and the typo'd value is not used", async () => {
    const path = file("typo.json5", "{ enabled: true, warningTreshold: 5 }");
    const { rows, stderr } = await findings(EVENTS, "--config", path);
    expect(stderr).toBe(`looplens: notice: ${path}: unknown key warningTreshold (did you mean warningThreshold?); ignored\n`);
    expect(rows.filter((r) => r[0] === "main-poll")).toEqual(MAIN_DEFAULT);
  });

  it("prototype keys change nothing", async () => {
    const path = file(
      "proto.json5",
      "{ __proto__: { enabled: false }, tools: { loopDetection: { enabled: true, constructor: { warningThreshold: 1 } } }, agents: { list: [{ id: 'constructor', tools: { loopDetection: { warningThreshold: 1 } } }] } }",
    );
    const { rows } = await findings(EVENTS, "--config", path, "-q");
    expect(rows).toEqual([...MAIN_DEFAULT, ...warnings("safe-poll", 11, 12, 10)]);
  });
});

describe("report headers state the thresholds in force", () => {
  it("table: thresholds, detector state, and what an agent override changes, in the header and on that agent's runs", () => {
    const result = runCli(["analyze", EVENTS, "--config", OPENCLAW]);
    expect(result.status).toBe(0);
    const [title, origin, thresholds1, thresholds2, agentLine] = result.stdout.split("\n");
    expect(title).toBe("looplens 0.1.0 — rolling detectors on; post-compaction guard on");
    expect(origin).toBe(`  config: ${OPENCLAW}`);
    expect(thresholds1).toBe("  warningThreshold=10 criticalThreshold=20 globalCircuitBreakerThreshold=30");
    expect(thresholds2).toBe("  unknownToolThreshold=10 historySize=30 postCompactionGuard.windowSize=3");
    expect(agentLine).toBe("  agent safe-runner's override: warningThreshold=5 criticalThreshold=8");
    const runHeader = (run: string) => result.stdout.split("\n\n").find((block) => block.startsWith(`run ${run} `))!;
    expect(runHeader("safe-poll").split("\n")[2]).toBe("  agent safe-runner's override: warningThreshold=5 criticalThreshold=8");
    expect(runHeader("main-poll")).not.toContain("override");
  });

  it("table: a config that leaves the rolling detectors off says so and suggests --set enabled=true", async () => {
    const result = await runMain(["analyze", EVENTS, "--config", file("off.json5", "{ historySize: 20 }")]);
    // On an 80-column terminal the long first line wraps at spaces.
    expect(result.stdout.split("\n").slice(0, 6)).toEqual([
      "looplens 0.1.0 — rolling detectors off (enabled is unset, the runtime's",
      "  default); post-compaction guard on; use --set enabled=true to evaluate the",
      "  detectors",
      `  config: ${join(dir, "off.json5")}`,
      "  warningThreshold=10 criticalThreshold=20 globalCircuitBreakerThreshold=30",
      "  unknownToolThreshold=10 historySize=20 postCompactionGuard.windowSize=3",
    ]);
  });

  it("table: without --config the header says looplens turned the detectors on", async () => {
    const result = await runMain(["analyze", EVENTS]);
    // (wrapped at spaces to 80 columns)
    expect(result.stdout.split("\n").slice(0, 4)).toEqual([
      "looplens 0.1.0 — rolling detectors on; post-compaction guard on",
      "  config: none given: the documented defaults, with detection switched on for",
      "    this replay (enabled=true; your runtime has it off)",
      "  warningThreshold=10 criticalThreshold=20 globalCircuitBreakerThreshold=30",
    ]);
  });

  it("table: without --config, a --set enabled=… decides, and the header does not claim looplens switched detection on", async () => {
    const off = await runMain(["analyze", EVENTS, "--set", "enabled=false"]);
    const header = (stdout: string) => stdout.split("\n\n")[0]!.replace(/\s+/g, " ");
    expect(header(off.stdout)).toContain(" config: none given: the documented defaults and your --set values warningThreshold=10");
    const on = await runMain(["analyze", EVENTS, "--set", "criticalThreshold=12"]);
    expect(header(on.stdout)).toContain(" config: none given: the documented defaults and your --set values, with detection switched on for this replay (enabled=true; your runtime has it off) warningThreshold=10");
  });

  it("json: config holds the base values and each applied override's values with sources", async () => {
    const result = await runMain(["analyze", EVENTS, "--config", OPENCLAW, "--format", "json"]);
    const config = (JSON.parse(result.stdout) as { config: Record<string, unknown> }).config;
    expect(config).toMatchObject({ warningThreshold: 10, criticalThreshold: 20, rollingDetectors: true, postCompactionGuardActive: true, file: OPENCLAW, agent: null });
    expect(config.agentOverrides).toEqual(["safe-runner"]);
    expect(config.agentConfigs).toEqual({
      "safe-runner": expect.objectContaining({
        warningThreshold: 5,
        criticalThreshold: 8,
        rollingDetectors: true,
        where: "agents.list[1].tools.loopDetection",
        runAgents: ["safe-runner"],
        sources: expect.objectContaining({ warningThreshold: "agent", criticalThreshold: "agent", enabled: "global" }),
      }),
    });
  });

  it("json: --agent puts that agent's values in config and names the agent", async () => {
    const result = await runMain(["analyze", EVENTS, "--config", OPENCLAW, "--agent", "safe-runner", "--format", "json"]);
    const config = (JSON.parse(result.stdout) as { config: Record<string, unknown> }).config;
    expect(config).toMatchObject({ warningThreshold: 5, criticalThreshold: 8, agent: "safe-runner", agentOverrides: ["safe-runner"], agentConfigs: {} });
    expect(config.sources).toMatchObject({ warningThreshold: "agent" });
  });
});
