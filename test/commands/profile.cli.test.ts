/**
 * `--profile` through the compiled binary (run `npm run build` first): newest verdicts, argument_churn
 * in every output, config notices and errors, sweep's profile comparison, and the default untouched.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, failure, repeat, textResult, toJsonl } from "../helpers/events.js";
import { ndjsonFindings, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

/** Three argument variants of one failing read: argument churn under newest, nothing under configurable. */
const churnInput = toJsonl(
  Array.from({ length: 12 }, (_, i) => [call("r", `c${i}`, "read", { path: ["a", "b", "c"][i % 3] }), failure("r", `c${i}`, "read", "ENOENT: no such file")]).flat(),
);

describe("analyze --profile newest", () => {
  it("reports argument_churn in ndjson with its fixed threshold", () => {
    const out = runCli(["analyze", "--profile", "newest", "-f", "ndjson", "-"], { input: churnInput });
    expect(out.status).toBe(0);
    const churn = ndjsonFindings(out.stdout).filter((f) => f.detector === "argument_churn");
    expect(churn.map((f) => [f.call, f.level, f.count])).toEqual([
      [11, "warning", 10],
      [12, "warning", 11],
    ]);
    expect(churn[0]?.threshold).toEqual({ name: "warningThreshold", value: 10 });
  });

  it("the default profile does not know argument_churn", () => {
    const out = runCli(["analyze", "-f", "ndjson", "-"], { input: churnInput });
    expect(ndjsonFindings(out.stdout).some((f) => f.detector === "argument_churn")).toBe(false);
  });

  it("shows argument_churn in the table, markdown and github formats, and says the profile per run", () => {
    const table = runCli(["analyze", "--profile", "newest", "--no-color", "-"], { input: churnInput }).stdout;
    expect(table).toContain("argument_churn");
    expect(table).toContain("replayed under profile newest (--profile newest)");
    expect(runCli(["analyze", "--profile", "newest", "-f", "markdown", "-"], { input: churnInput }).stdout).toContain("argument_churn");
    expect(runCli(["analyze", "--profile", "newest", "-f", "github", "-"], { input: churnInput }).stdout).toContain("argument_churn · warningThreshold=10");
  });

  it("json names the profile of each run", () => {
    const doc = JSON.parse(runCli(["analyze", "--profile", "newest", "-f", "json", "-"], { input: churnInput }).stdout) as { config: { profile: string }; runs: Array<{ profile: unknown }> };
    expect(doc.config.profile).toBe("newest");
    expect(doc.runs[0]?.profile).toEqual({ name: "newest", reason: "--profile newest" });
  });

  it("ignores criticalThreshold from a config file, with one notice naming the file", () => {
    const input = toJsonl(repeat(21, "r", "read", { path: "a" }, textResult("same")));
    const out = runCli(["analyze", "--profile", "newest", "--config", "fixtures/config/openclaw.json5", "-f", "ndjson", "-"], { input });
    const last = ndjsonFindings(out.stdout).at(-1);
    expect(last).toMatchObject({ call: 21, level: "critical", threshold: { name: "criticalThreshold", value: 20 } });
    expect(out.stderr.match(/tools\.loopDetection\.criticalThreshold: \d+ is ignored by the newest OpenClaw build/g)?.length).toBe(1);
    expect(out.stderr).toContain("fixtures/config/openclaw.json5");
  });

  it("refuses --set of an ignored key, naming the profile", () => {
    const out = runCli(["analyze", "--profile", "newest", "--set", "warningThreshold=3", "-"], { input: churnInput });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain("ignored under --profile newest");
  });

  it("accepts --set enabled", () => {
    expect(runCli(["analyze", "--profile", "newest", "--set", "enabled=false", "-"], { input: churnInput }).status).toBe(0);
  });
});

describe("config --profile newest", () => {
  it("prints the fixed values and why", () => {
    const out = runCli(["config", "--profile", "newest", "--no-color"]);
    // 80 columns (a pipe) leave no room for the reasons in the row: they are numbered notes under the table.
    expect(out.stdout).toMatch(/criticalThreshold\s+20\s+fixed\s+\(1\)\n/);
    expect(out.stdout).toMatch(/postCompactionGuard\.windowSize\s+3\s+fixed\s+\(3\)\n/);
    expect(out.stdout).toContain("\n  (1) the newest build's thresholds are fixed");
    expect(out.stdout).toContain("\n  (3) the newest build's guard window is fixed at 3\n");
  });
});

describe("sweep and profiles", () => {
  it("under newest, a threshold axis is refused with the profile comparison offered", () => {
    const out = runCli(["sweep", "--profile", "newest", "--vary", "criticalThreshold=10,20", "-"], { input: churnInput });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain("no thresholds to tune");
    expect(out.stderr).toContain("--vary profile=configurable,newest");
  });

  it("--vary profile=configurable,newest gives one row per profile", () => {
    const file = join(tempDir("looplens-profile-"), "churn.jsonl");
    writeFileSync(file, churnInput);
    const out = runCli(["sweep", "--vary", "profile=configurable,newest", "-f", "ndjson", file]);
    const rows = out.stdout.trim().split("\n").map((line) => JSON.parse(line) as { vary: { profile: string }; warned: number });
    expect(rows.map((row) => [row.vary.profile, row.warned])).toEqual([
      ["configurable", 0],
      ["newest", 1],
    ]);
    // The table says the input was read once per profile, not once.
    const table = runCli(["sweep", "--vary", "profile=configurable,newest", file]);
    expect(table.stdout).toContain("in 1 file; input read once per profile (2 reads)\n");
    expect(runCli(["sweep", "--vary", "criticalThreshold=5,6", file]).stdout).toContain("in 1 file; input read once\n");
  });

  it("--vary profile over standard input is a usage error (it cannot be read twice)", () => {
    const out = runCli(["sweep", "--vary", "profile=configurable,newest", "-"], { input: churnInput });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain("standard input cannot be read twice");
  });

  it("an unknown profile in --vary is a usage error", () => {
    expect(runCli(["sweep", "--vary", "profile=oldest", "-"], { input: churnInput }).status).toBe(2);
  });
});

describe("check under the default profile", () => {
  it("still passes on fixtures/", () => {
    expect(runCli(["check", "fixtures/"]).status).toBe(0);
  });
});
