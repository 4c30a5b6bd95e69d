/**
 * The GitHub Action (action.yml at the repository root) run as the runner runs a composite action:
 * its steps read with a YAML parser, `${{ … }}` expressions replaced as GitHub replaces them, each
 * `run:` step executed with GitHub's bash template (`bash --noprofile --norc -eo pipefail FILE`) in
 * the workspace, with GITHUB_ACTION_PATH (this checkout), GITHUB_STEP_SUMMARY, GITHUB_OUTPUT (a fresh
 * file per step) and RUNNER_TEMP set, and a step after a failing one not run. `npm` is a stub that
 * records how it was called: the install is checked by what it asks for, and the build under test is
 * the one the suite built. No INPUT_* variables are set: a composite action's steps do not get them.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { spawnSync } from "node:child_process";
import { ROOT, runCli } from "../helpers/cli.js";
import { ndjsonOf } from "./ciInputs.js";
import { sarifErrors } from "./sarifSchema.js";

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly shell?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly "working-directory"?: string;
}
interface Action {
  readonly inputs: Record<string, { readonly required?: boolean; readonly default?: string }>;
  readonly outputs: Record<string, { readonly value: string }>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;

interface ActionRun {
  readonly status: number;
  /** Every step's standard output, in order (the log the runner reads workflow commands from). */
  readonly stdout: string;
  readonly stderr: string;
  readonly summary: string;
  readonly outputs: Record<string, string>;
  /** `cwd args` of each npm call. */
  readonly npm: string[];
}

let sandbox: string;
beforeAll(() => {
  sandbox = mkdtempSync(join(tmpdir(), "looplens-action-"));
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      expect(end, `unterminated ${block[1]}`).toBeGreaterThan(i);
      outputs[block[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  }
  return outputs;
}

/** Runs the action's steps with `inputs` in the workspace `workspace`, as the runner would. */
function runAction(inputs: Record<string, string>, workspace = ROOT): ActionRun {
  const dir = mkdtempSync(join(sandbox, "run-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const npmLog = join(dir, "npm.log");
  writeFileSync(join(bin, "npm"), `#!/bin/sh\necho "$PWD $*" >> '${npmLog}'\n`);
  chmodSync(join(bin, "npm"), 0o755);
  const summary = join(dir, "summary.md");
  writeFileSync(summary, "");
  const given: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    if (spec.required && inputs[name] === undefined) throw new Error(`input ${name} is required`);
    given[name] = inputs[name] ?? spec.default ?? "";
  }
  const steps = new Map<string, Record<string, string>>();
  const context = (expression: string): string => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return given[input[1]!] ?? "";
    if (expression === "github.action_path") return ROOT;
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return steps.get(output[1]!)?.[output[2]!] ?? "";
    throw new Error(`expression not simulated: ${expression}`);
  };
  const substitute = (text: string) => text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => context(expression));
  let stdout = "";
  let stderr = "";
  let status = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    expect(step.uses, "every step is a run: step the test can execute").toBeUndefined();
    expect(step.shell).toBe("bash");
    const script = join(dir, `step-${i}.sh`);
    writeFileSync(script, substitute(step.run!));
    const output = join(dir, `output-${i}`);
    writeFileSync(output, "");
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value))]));
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: step["working-directory"] !== undefined ? join(workspace, substitute(step["working-directory"])) : workspace,
      encoding: "utf8",
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: process.env.HOME,
        NO_COLOR: "1",
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: workspace,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        RUNNER_TEMP: dir,
        ...env,
      },
    });
    stdout += result.stdout;
    stderr += result.stderr;
    if (step.id !== undefined) steps.set(step.id, readOutputs(readFileSync(output, "utf8")));
    status = result.status ?? 1;
    if (status !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, spec]) => [name, substitute(spec.value)]));
  const npm = existsSync(npmLog) ? readFileSync(npmLog, "utf8").trimEnd().split("\n") : [];
  const run = { status, stdout, stderr, summary: readFileSync(summary, "utf8"), outputs, npm };
  // The step cleans up after itself: nothing but what the test made is left in RUNNER_TEMP.
  expect(spawnSync("ls", [dir], { encoding: "utf8" }).stdout.split("\n").filter((f) => f.startsWith("looplens"))).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
  return run;
}

const annotations = (text: string) => text.split("\n").filter((line) => /^::(warning|error|notice)[ :]/.test(line));

describe("action.yml", () => {
  it("is a composite action whose every step is a bash run: step", () => {
    expect(action.runs.using).toBe("composite");
    for (const name of ["command", "paths", "config", "profile", "fail-on", "sarif-file"]) expect(action.inputs[name], name).toBeDefined();
  });

  it("installs from its own checkout with npm ci", () => {
    const run = runAction({ paths: "fixtures/healthy.jsonl" });
    expect(run.npm).toHaveLength(1);
    const [cwd, command, ...options] = run.npm[0]!.split(" ");
    expect([cwd, command]).toEqual([ROOT.replace(/\/$/, ""), "ci"]);
    // Only options that quiet npm: none that installs elsewhere, or something else.
    for (const option of options) expect(option).toMatch(/^--(no-audit|no-fund|loglevel=\w+)$/);
  });
});

describe("the action on a clean fixture", () => {
  it("passes, with no annotation, a summary saying so, and zero counts", () => {
    const run = runAction({ paths: "fixtures/healthy.jsonl", "fail-on": "warning" });
    expect(run.status, run.stderr).toBe(0);
    expect(annotations(run.stdout)).toEqual([]);
    expect(run.summary).toContain("## looplens report");
    expect(run.summary).toContain("No loop findings in 1 run.");
    expect(run.outputs).toEqual({ findings: "0", warnings: "0", blocks: "0", aborts: "0", "exit-code": "0", "sarif-file": "" });
  });
});

describe("the action on failing fixtures", () => {
  const paths = ["fixtures/poll-loop.jsonl", "fixtures/generic-repeat.jsonl"];

  it("annotates each row, summarizes, writes SARIF, counts, and fails on a block", () => {
    const sarifFile = join(sandbox, "out dir", "looplens.sarif");
    const run = runAction({ paths: `  ${paths.join("\n")}\n\n`, "fail-on": "block", "sarif-file": sarifFile });
    expect(run.status).toBe(1);
    // The annotations are those of --format github, and the runner finds them in the log.
    const github = runCli(["analyze", "--format", "github", ...paths]).stdout;
    expect(annotations(run.stdout)).toEqual(annotations(github));
    expect(annotations(run.stdout).some((line) => line.startsWith("::error file=fixtures/poll-loop.jsonl,line=42,"))).toBe(true);
    expect(run.summary).toContain("### Run poll-1");
    expect(run.summary).toContain("### Run exec-retry");
    const findings = ndjsonOf(paths);
    const count = (level: string) => String(findings.filter((f) => f.level === level).length);
    expect(run.outputs).toEqual({ findings: String(findings.length), warnings: count("warning"), blocks: count("critical"), aborts: count("abort"), "exit-code": "1", "sarif-file": sarifFile });
    const sarif = JSON.parse(readFileSync(sarifFile, "utf8")) as { runs: Array<{ results: unknown[] }> };
    expect(sarifErrors(sarif)).toEqual([]);
    expect(sarif.runs[0]!.results).toHaveLength(annotations(github).length);
  });

  it("passes without fail-on, annotations and summary all the same", () => {
    const run = runAction({ paths: paths.join("\n") });
    expect(run.status).toBe(0);
    expect(annotations(run.stdout).length).toBeGreaterThan(0);
    expect(run.outputs["exit-code"]).toBe("0");
    expect(run.summary).toContain("### Run poll-1");
  });
});

describe("the action's check command, in another workspace (as `uses: owner/looplens@v1`)", () => {
  let workspace: string;
  beforeAll(() => {
    workspace = mkdtempSync(join(sandbox, "workspace-"));
    for (const file of ["poll-loop.jsonl", "poll-loop.jsonl.looplens.json", "healthy.jsonl"]) {
      mkdirSync(join(workspace, "fixtures with spaces"), { recursive: true });
      copyFileSync(join(ROOT, "fixtures", file), join(workspace, "fixtures with spaces", file));
    }
  });

  it("passes when the snapshots match, and says so in the summary", () => {
    const run = runAction({ command: "check", paths: "fixtures with spaces/poll-loop.jsonl" }, workspace);
    expect(run.status, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^## looplens check\n\ncheck: 1 fixture: 1 unchanged, 0 changed, 0 missing \(exit status 0\)/);
    expect(annotations(run.stdout)[0]).toMatch(/^::warning file=fixtures with spaces\/poll-loop\.jsonl,line=22,/);
  });

  it("fails on a fixture without its snapshot", () => {
    const run = runAction({ command: "check", paths: "fixtures with spaces/healthy.jsonl\nfixtures with spaces/poll-loop.jsonl" }, workspace);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("fixtures with spaces/healthy.jsonl");
    expect(run.summary).toContain("1 unchanged, 0 changed, 1 missing (exit status 1)");
    expect(run.outputs["exit-code"]).toBe("1");
  });
});

describe("the action's bad inputs", () => {
  it("refuses an unknown command, and an empty paths, with an error annotation and status 2", () => {
    for (const inputs of [{ command: "lint", paths: "fixtures" }, { paths: " \n " }] as Array<Record<string, string>>) {
      const run = runAction(inputs);
      expect(run.status).toBe(2);
      expect(annotations(run.stdout)).toHaveLength(1);
      expect(annotations(run.stdout)[0]).toMatch(/^::error title=looplens::/);
    }
  });

  it("never runs an input as shell code", () => {
    const marker = join(sandbox, "pwned");
    const run = runAction({ paths: `fixtures/healthy.jsonl\n$(touch ${marker})`, config: `$(touch ${marker})`, profile: `"; touch ${marker}; "` });
    expect(run.status).toBe(2);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(dirname(marker))).toBe(true);
  });
});
