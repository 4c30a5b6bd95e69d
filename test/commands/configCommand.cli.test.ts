/** `looplens config` through the real CLI: values with sources, notices, both formats, exit codes, --config auto. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { runCli, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const dir = tempDir("looplens-config-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

interface ConfigJson {
  file: string | null;
  agent: string | null;
  override: { agent: string; where: string } | null;
  looplensDefault: boolean;
  config: Record<string, unknown> & { detectors: Record<string, boolean>; postCompactionGuard: { windowSize: number } };
  rollingDetectors: boolean;
  postCompactionGuardActive: boolean;
  sources: Record<string, string>;
  notices: Array<{ origin: string; key: string; message: string }>;
  agentsWithOverrides: string[];
}

async function configJson(...args: string[]): Promise<ConfigJson> {
  const result = await runMain(["config", "--format", "json", ...args], { env: { HOME: dir } });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as ConfigJson;
}

/** A user-fixable failure: exit 2, exactly one line on stderr, no stack trace, nothing on stdout. */
async function failure(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await runMain(args, { env: { HOME: dir, ...env } });
  expect(result.status).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.split("\n")).toHaveLength(2);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result.stderr.trimEnd();
}

const OPENCLAW = "fixtures/config/openclaw.json5";

describe("looplens config --format json", () => {
  it("without --config: the documented defaults with enabled=true from looplens", async () => {
    const doc = await configJson();
    expect(doc.file).toBeNull();
    expect(doc.looplensDefault).toBe(true);
    expect(doc.config).toEqual({
      enabled: true,
      historySize: 30,
      warningThreshold: 10,
      criticalThreshold: 20,
      unknownToolThreshold: 10,
      globalCircuitBreakerThreshold: 30,
      detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
      postCompactionGuard: { windowSize: 3 },
    });
    expect(doc.sources.enabled).toBe("looplens");
    expect(Object.entries(doc.sources).filter(([, s]) => s !== "default").map(([k]) => k)).toEqual(["enabled"]);
    expect([doc.rollingDetectors, doc.postCompactionGuardActive]).toEqual([true, true]);
    expect(doc.notices).toEqual([]);
  });

  it("an OpenClaw config: global values, the agents with overrides, and no override without --agent", async () => {
    const doc = await configJson("--config", OPENCLAW);
    expect(doc.file).toBe(OPENCLAW);
    expect(doc.looplensDefault).toBe(false);
    expect(doc.override).toBeNull();
    expect(doc.agentsWithOverrides).toEqual(["safe-runner"]);
    expect(doc.config.warningThreshold).toBe(10);
    expect(Object.values(doc.sources).every((s) => s === "global")).toBe(true);
  });

  it("--agent merges that agent's override field by field over the global block", async () => {
    const doc = await configJson("--config", OPENCLAW, "--agent", "safe-runner");
    expect(doc.agent).toBe("safe-runner");
    expect(doc.override).toEqual({ agent: "safe-runner", where: "agents.list[1].tools.loopDetection" });
    expect(doc.config).toMatchObject({ enabled: true, warningThreshold: 5, criticalThreshold: 8, globalCircuitBreakerThreshold: 30 });
    expect(doc.sources).toMatchObject({ enabled: "global", warningThreshold: "agent", criticalThreshold: "agent", globalCircuitBreakerThreshold: "global" });
  });

  it("--set comes last, with dotted keys, booleans and integers, and clamping is reported as adjusted", async () => {
    const doc = await configJson("--config", OPENCLAW, "--agent", "safe-runner", "--set", "warningThreshold=40", "--set", "detectors.pingPong=false", "--set", "postCompactionGuard.windowSize=4");
    expect(doc.config).toMatchObject({ warningThreshold: 40, criticalThreshold: 41, globalCircuitBreakerThreshold: 42, postCompactionGuard: { windowSize: 4 } });
    expect(doc.config.detectors.pingPong).toBe(false);
    expect(doc.sources).toMatchObject({
      warningThreshold: "--set",
      criticalThreshold: "adjusted",
      globalCircuitBreakerThreshold: "adjusted",
      "detectors.pingPong": "--set",
      "postCompactionGuard.windowSize": "--set",
    });
    expect(doc.notices).toEqual([
      { origin: "--set", key: "criticalThreshold", message: "criticalThreshold 8 is not above warningThreshold 40; raised to 41" },
      { origin: "--set", key: "globalCircuitBreakerThreshold", message: "globalCircuitBreakerThreshold 30 is not above criticalThreshold 41; raised to 42" },
    ]);
  });

  it("a file's invalid values fall back to the defaults; unknown keys get the closest known key", async () => {
    const path = file("typos.json5", "{ tools: { loopDetection: { enabled: true, warningTreshold: 5, historySize: 0, criticalThreshold: 'twelve' } } }");
    const doc = await configJson("--config", path);
    expect(doc.config).toMatchObject({ warningThreshold: 10, historySize: 30, criticalThreshold: 20 });
    expect(doc.sources).toMatchObject({ historySize: "default", criticalThreshold: "default" });
    expect(doc.notices).toEqual([
      { origin: path, key: "tools.loopDetection.warningTreshold", message: "unknown key tools.loopDetection.warningTreshold (did you mean warningThreshold?); ignored" },
      { origin: path, key: "tools.loopDetection.historySize", message: "tools.loopDetection.historySize: 0 is not a positive integer; using the default 30" },
      { origin: path, key: "tools.loopDetection.criticalThreshold", message: 'tools.loopDetection.criticalThreshold: "twelve" is not a positive integer; using the default 20' },
    ]);
  });

  it("without --agent still checks every agent's override, so its notices are not hidden", async () => {
    const path = file("agents.json5", "{ agents: { list: [{ id: 'tight', tools: { loopDetection: { warningThreshold: 30, historySize: -2 } } }] } }");
    const messages = (await configJson("--config", path)).notices.map((n) => n.message);
    expect(messages).toEqual([
      "agents.list[0].tools.loopDetection.historySize: -2 is not a positive integer; using the default 30",
      "agent tight: criticalThreshold 20 is not above warningThreshold 30; raised to 31",
      "agent tight: globalCircuitBreakerThreshold 30 is not above criticalThreshold 31; raised to 32",
    ]);
  });

  it("a config that leaves enabled unset: rolling detectors off, guard on", async () => {
    const doc = await configJson("--config", file("empty.json5", "{}"));
    expect(doc.config.enabled).toBe(false);
    expect(doc.sources.enabled).toBe("default");
    expect([doc.rollingDetectors, doc.postCompactionGuardActive]).toEqual([false, true]);
  });

  it("prototype keys in the file neither crash nor change anything", async () => {
    const path = file(
      "proto.json5",
      "{ __proto__: { tools: { loopDetection: { enabled: false } } }, constructor: { prototype: {} }, tools: { loopDetection: { enabled: true, __proto__: { warningThreshold: 1 }, constructor: 2 } } }",
    );
    const doc = await configJson("--config", path);
    expect(doc.config).toMatchObject({ enabled: true, warningThreshold: 10 });
    expect(doc.notices.map((n) => n.key)).toEqual(["tools.loopDetection.__proto__", "tools.loopDetection.constructor"]);
    expect((await configJson("--config", path, "--agent", "__proto__")).config.warningThreshold).toBe(10);
  });
});

describe("looplens config --format table", () => {
  it("prints every key with its value and source, the thresholds, and the notices", async () => {
    const result = await runMain(["config", "--config", OPENCLAW, "--agent", "safe-runner", "--set", "historySize=12", "--set", "warningThreshold=20"]);
    expect(result.status).toBe(0);
    const rows = result.stdout.split("\n").map((line) => line.trim().split(/\s+/));
    const row = (key: string) => rows.find((cells) => cells[0] === key);
    expect(row("enabled")).toEqual(["enabled", "true", "global"]);
    expect(row("historySize")).toEqual(["historySize", "12", "--set"]);
    expect(row("warningThreshold")).toEqual(["warningThreshold", "20", "--set"]);
    expect(row("criticalThreshold")).toEqual(["criticalThreshold", "21", "adjusted"]);
    expect(row("detectors.pingPong")).toEqual(["detectors.pingPong", "true", "global"]);
    expect(row("postCompactionGuard.windowSize")).toEqual(["postCompactionGuard.windowSize", "3", "global"]);
    expect(result.stdout).toContain("rolling detectors on; post-compaction guard on");
    expect(result.stdout).toContain(`  config: ${OPENCLAW}\n  agent safe-runner's override: agents.list[1].tools.loopDetection\n`);
    expect(result.stdout).toContain("warningThreshold=20 criticalThreshold=21 globalCircuitBreakerThreshold=30");
    expect(result.stdout).toContain("--set: criticalThreshold 8 is not above warningThreshold 20; raised to 21");
  });

  it("says where enabled=true comes from without --config, and that there are no notices", async () => {
    const result = await runMain(["config"], { env: { HOME: dir } });
    expect(result.stdout).toMatch(/^ enabled +true +looplens$/m);
    expect(result.stdout).toContain("no notices");
  });
});

describe("errors: exit 2, one line naming the problem", () => {
  it.each([
    [["--set", "warningTreshold=5"], '--set: unknown key "warningTreshold" (did you mean warningThreshold?)'],
    [["--set", "bogus=5"], '--set: unknown key "bogus" (known keys: enabled, historySize'],
    [["--set", "criticalThreshold=0"], '--set criticalThreshold: "0" is not a positive integer'],
    [["--set", "criticalThreshold=2.5"], '--set criticalThreshold: "2.5" is not a positive integer'],
    [["--set", "historySize=-4"], '--set historySize: "-4" is not a positive integer'],
    [["--set", "enabled=yes"], '--set enabled: "yes" is not true or false'],
    [["--set", "detectors.pingPong=0"], '--set detectors.pingPong: "0" is not true or false'],
    [["--set", "warningThreshold"], '--set "warningThreshold": expected KEY=VALUE'],
  ])("config %j", async (args, message) => {
    expect(await failure(["config", ...args])).toContain(`looplens: ${message}`);
  });

  it("analyze rejects a bad --set the same way", async () => {
    expect(await failure(["analyze", "fixtures/healthy.jsonl", "--set", "postCompactionGuard.windowSize=none"])).toBe(
      'looplens: --set postCompactionGuard.windowSize: "none" is not a positive integer',
    );
  });

  it.each([
    ["bad-syntax.json5", "{\n  tools: {\n    loopDetection: { enabled: true,, }\n  }\n}\n", ":3:36: invalid JSON5: invalid character ','"],
    ["not-object.json5", "{ tools: { loopDetection: 'on' } }", ': tools.loopDetection is not an object (got "on")'],
    ["detector-type.json5", "{ tools: { loopDetection: { detectors: { knownPollNoProgress: 'no' } } } }", ': tools.loopDetection.detectors.knownPollNoProgress must be true or false (got "no")'],
    ["enabled-type.json5", "{ enabled: 'true' }", ': enabled must be true or false (got "true")'],
  ])("%s", async (name, text, message) => {
    const path = file(name, text);
    expect(await failure(["config", "--config", path])).toBe(`looplens: ${path}${message}`);
    expect(await failure(["analyze", "fixtures/healthy.jsonl", "--config", path])).toBe(`looplens: ${path}${message}`);
  });

  it("the compiled binary exits 2 with that one line (no stack trace)", () => {
    const path = file("spawned.json5", "{ tools: { loopDetection: { enabled: yes } } }");
    const result = runCli(["analyze", "fixtures/healthy.jsonl", "--config", path]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`looplens: ${path}:1:38: invalid JSON5: invalid character 'y'\n`);
  });

  it("a missing file or a directory", async () => {
    expect(await failure(["config", "--config", join(dir, "nope.json5")])).toBe(`looplens: cannot read config ${join(dir, "nope.json5")}: no such file`);
    expect(await failure(["analyze", "fixtures/healthy.jsonl", "--config", dir])).toBe(`looplens: cannot read config ${dir}: is a directory`);
  });
});

describe("--config auto", () => {
  const home = join(dir, "home");
  file("home/.openclaw/openclaw.json", "{ tools: { loopDetection: { enabled: true, warningThreshold: 7 } } }");
  const envPath = file("elsewhere/openclaw.json", "{ tools: { loopDetection: { warningThreshold: 9 } } }");

  it("reads ~/.openclaw/openclaw.json", async () => {
    const result = await runMain(["config", "--config", "auto", "-f", "json"], { env: { HOME: home, OPENCLAW_CONFIG_PATH: "" } });
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as ConfigJson;
    expect(doc.file).toBe(join(home, ".openclaw", "openclaw.json"));
    expect(doc.config.warningThreshold).toBe(7);
  });

  it("prefers $OPENCLAW_CONFIG_PATH", async () => {
    const result = await runMain(["config", "--config", "auto", "-f", "json"], { env: { HOME: home, OPENCLAW_CONFIG_PATH: envPath } });
    expect((JSON.parse(result.stdout) as ConfigJson).config.warningThreshold).toBe(9);
  });

  it("is an error when there is nothing to find", async () => {
    expect(await failure(["config", "--config", "auto"], { HOME: join(dir, "no-home") })).toContain("--config auto (~/.openclaw/openclaw.json, as $OPENCLAW_CONFIG_PATH is not set): cannot read config");
    expect(await failure(["config", "--config", "auto"], { HOME: home, OPENCLAW_CONFIG_PATH: join(dir, "gone.json") })).toBe(
      `looplens: --config auto ($OPENCLAW_CONFIG_PATH): cannot read config ${join(dir, "gone.json")}: no such file`,
    );
  });

  it("is never used silently: without --config the user's file is not read", async () => {
    const result = await runMain(["config", "-f", "json"], { env: { HOME: home, OPENCLAW_CONFIG_PATH: envPath } });
    const doc = JSON.parse(result.stdout) as ConfigJson;
    expect(doc.file).toBeNull();
    expect(doc.config.warningThreshold).toBe(10);
  });
});
