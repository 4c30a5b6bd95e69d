import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { analyze, ConfigError, format, InputError, loadConfig, replay, UsageError, type CanonicalEvent, type Report } from "../../src/index.js";
import { BASE_FIXTURES, runCli, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

/** The document `looplens analyze … -f json` prints, run in this process. */
async function cliJson(args: readonly string[]): Promise<Report> {
  const { status, stdout, stderr } = await runMain(["analyze", "-f", "json", ...args]);
  expect(status, stderr).not.toBe(2);
  return JSON.parse(stdout) as Report;
}

/** What the CLI said last on stderr for an input it rejected (`looplens: MESSAGE`). */
async function cliError(args: readonly string[]): Promise<string> {
  const { status, stderr } = await runMain(["analyze", ...args]);
  expect(status).toBe(2);
  return stderr.trimEnd().split("\n").at(-1)!.replace(/^looplens: /, "");
}

describe("analyze gives the --format json document", () => {
  it.each([
    [BASE_FIXTURES, {}, []],
    [["fixtures/gateway", "fixtures/agents/claude-code"], {}, []],
    [["fixtures/config/two-agents.jsonl"], { config: "fixtures/config/openclaw.json5", set: ["warningThreshold=4"] }, ["--config", "fixtures/config/openclaw.json5", "--set", "warningThreshold=4"]],
    [["fixtures/ping-pong.jsonl", "fixtures/poll-loop.jsonl"], { profile: "newest", filters: { detector: ["ping_pong"], top: 1 } }, ["--profile", "newest", "--detector", "ping_pong", "--top", "1"]],
  ] as const)("%j %j", async (paths, options, flags) => {
    expect(await analyze(paths, options)).toEqual(await cliJson([...paths, ...flags]));
  });

  it("takes a config read by loadConfig, and the object such a file holds, as --config", async () => {
    const expected = await cliJson(["fixtures/config/two-agents.jsonl", "--config", "fixtures/config/openclaw.json5"]);
    expect(await analyze("fixtures/config/two-agents.jsonl", { config: await loadConfig("fixtures/config/openclaw.json5") })).toEqual(expected);
    const object = (await import("json5")).default.parse(readFileSync("fixtures/config/openclaw.json5", "utf8")) as Record<string, unknown>;
    const fromObject = await analyze("fixtures/config/two-agents.jsonl", { config: object });
    expect(fromObject.config.file).toBe("(config object)");
    expect(fromObject.runs).toEqual(expected.runs);
  });

  it("reads lines and byte chunks as the CLI reads standard input", async () => {
    const text = readFileSync("fixtures/generic-repeat.jsonl", "utf8");
    const fromStdin = JSON.parse(runCli(["analyze", "-f", "json", "-"], { input: text }).stdout) as Report;
    async function* lines() {
      yield* text.trimEnd().split("\n");
    }
    expect(await analyze(lines())).toEqual(fromStdin);
    expect(await analyze([Buffer.from(text.slice(0, 100)), Buffer.from(text.slice(100))][Symbol.iterator]())).toEqual(fromStdin);
  });

  it("replays canonical events as one in-memory session", async () => {
    const events: CanonicalEvent[] = Array.from({ length: 12 }, (_, i) => [
      { type: "tool_call", id: `c${i}`, tool: "exec", args: { command: "make" } } as const,
      { type: "tool_result", id: `c${i}`, tool: "exec", result: "failed" } as const,
    ]).flat();
    const report = await replay(events, { enabled: true, warningThreshold: 5, criticalThreshold: 10 });
    const input = events.map((event) => JSON.stringify(event)).join("\n");
    const cli = JSON.parse(runCli(["analyze", "-f", "json", "--input-format", "events", "--set", "warningThreshold=5", "--set", "criticalThreshold=10", "-"], { input }).stdout) as Report;
    expect(report.runs).toEqual(cli.runs);
    expect(report.runs.map((run) => [run.run, run.file, run.calls])).toEqual([["stdin", "-", 12]]);
    expect(report.summary.findings.critical).toBeGreaterThan(0);
  });
});

describe("format", () => {
  it.each(["markdown", "table", "sarif", "junit", "ndjson"] as const)("%s is what the CLI prints", async (name) => {
    const paths = ["fixtures/ping-pong.jsonl", "fixtures/healthy.jsonl"];
    const { stdout } = await runMain(["analyze", "-f", name, ...paths]);
    expect(format(await analyze(paths), name, { width: 80 })).toBe(stdout);
  });

  it("refuses a report it did not make", async () => {
    const copy = JSON.parse(JSON.stringify(await analyze("fixtures/healthy.jsonl"))) as Report;
    expect(() => format(copy, "markdown")).toThrow(TypeError);
  });
});

describe("errors are typed, with the CLI's messages", () => {
  it("a missing path is an InputError", async () => {
    const error = await analyze("fixtures/nope.jsonl").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(await cliError(["fixtures/nope.jsonl"]));
  });

  it("a config that cannot be read, or a bad --set, is a ConfigError", async () => {
    const missing = await analyze("fixtures/healthy.jsonl", { config: "fixtures/nope.json" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ConfigError);
    expect((missing as Error).message).toBe(await cliError(["fixtures/healthy.jsonl", "--config", "fixtures/nope.json"]));
    const badSet = await analyze("fixtures/healthy.jsonl", { set: { frob: 1 } }).catch((e: unknown) => e);
    expect(badSet).toBeInstanceOf(ConfigError);
    expect((badSet as Error).message).toBe(await cliError(["fixtures/healthy.jsonl", "--set", "frob=1"]));
    await expect(loadConfig("fixtures/nope.json")).rejects.toThrow(ConfigError);
  });

  it("input of which nothing could be used is an InputError", async () => {
    const file = join(tempDir(), "binary.jsonl");
    writeFileSync(file, Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 10]));
    const error = await analyze(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(await cliError([file]));
  });

  it("a bad filter is a UsageError naming it; - is not standard input", async () => {
    await expect(analyze("fixtures/healthy.jsonl", { filters: { since: "soon" } })).rejects.toThrow(new UsageError("filters.since: expected a duration back from now (30m, 2h, 3d, 1w) or an ISO date (2026-05-01, 2026-05-01T12:00Z)."));
    await expect(analyze(["-"])).rejects.toThrow(InputError);
  });
});

describe("no console output, no shared state", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes nothing to stdout or stderr, even for bad lines and notices", async () => {
    const writes = [vi.spyOn(process.stdout, "write"), vi.spyOn(process.stderr, "write"), vi.spyOn(console, "log"), vi.spyOn(console, "error"), vi.spyOn(console, "warn")];
    const report = await analyze("fixtures/agents/claude-code/bad-lines-v2.0.jsonl", { agent: "nobody" });
    expect(report.summary.diagnostics).toBeGreaterThan(0);
    expect(report.config.notices.length).toBeGreaterThan(0);
    for (const write of writes) expect(write).not.toHaveBeenCalled();
  });

  it("two analyses at once give what each gives alone", async () => {
    const one = { paths: ["fixtures/ping-pong.jsonl", "fixtures/poll-loop.jsonl"], options: { set: ["criticalThreshold=12"] } };
    const two = { paths: ["fixtures/generic-repeat.jsonl", "fixtures/gateway"], options: { agent: "main", profile: "newest" as const } };
    const alone = [await analyze(one.paths, one.options), await analyze(two.paths, two.options)];
    const together = await Promise.all([analyze(one.paths, one.options), analyze(two.paths, two.options)]);
    expect(together).toEqual(alone);
    expect(alone[0]).not.toEqual(alone[1]);
  });
});
