/**
 * `looplens completion bash|zsh|fish` and `looplens man`, generated from the commander program: the
 * bash script really completes (run in bash), the zsh and fish scripts pass their shell's syntax
 * check, the man page renders with man, and every script and the man page name every command and
 * option the program has (so a new flag shows up in all of them). The shells and man are system
 * programs: skipped where missing, failed under LOOPLENS_REQUIRE_SYSTEM_TESTS=1 (systemProgram.ts).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { bashCompletion, programSpec, zshCompletion, fishCompletion, type ProgramSpec } from "../../src/commands/completion.js";
import { runMain } from "../helpers/cli.js";
import { requireProgram } from "../helpers/systemProgram.js";
import { tempDir } from "../helpers/tempDir.js";

const bash = requireProgram("bash", { for: "the bash completion tests" });
const zsh = requireProgram("zsh", { for: "the zsh completion check" });
const fish = requireProgram("fish", { for: "the fish completion check" });
const man = requireProgram("man", { for: "the man page rendering check", install: "apt-get install -y man-db" });
let dir: string;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir("looplens-completion-");
  for (const shell of ["bash", "zsh", "fish"]) {
    const result = await runMain(["completion", shell]);
    expect(result.status).toBe(0);
    scripts[shell] = result.stdout;
    writeFileSync(join(dir, `looplens.${shell}`), result.stdout);
  }
});

/** What bash offers for the words typed so far (the last one is being completed). */
function bashComplete(...words: string[]): string[] {
  const script = join(dir, "looplens.bash");
  const quoted = words.map((w) => `'${w}'`).join(" ");
  const result = spawnSync(bash.path!, ["-c", `source ${script}; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _looplens; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  return result.stdout.split("\n").filter((line) => line !== "");
}

bash.describe("bash completion", () => {
  it("completes command names", () => {
    expect(bashComplete("looplens", "an")).toEqual(["analyze"]);
    expect(bashComplete("looplens", "c").sort()).toEqual(["cache", "check", "completion", "config"]);
    expect(bashComplete("looplens", "help", "sw")).toEqual(["sweep"]);
  });

  it("completes a command's options, and the default command's without one", () => {
    expect(bashComplete("looplens", "analyze", "--fail")).toEqual(["--fail-on"]);
    expect(bashComplete("looplens", "check", "--up")).toEqual(["--update"]);
    expect(bashComplete("looplens", "sweep", "--va")).toEqual(["--vary"]);
    expect(bashComplete("looplens", "--max").sort()).toEqual(["--max-line-bytes", "--max-warnings"]);
    expect(bashComplete("looplens", "events", "--vary")).toEqual([]);
  });

  it("completes choices of the option being given a value", () => {
    expect(bashComplete("looplens", "analyze", "--format", "")).toEqual(["table", "json", "ndjson", "markdown", "github", "html", "sarif", "junit", "gitlab"]);
    expect(bashComplete("looplens", "check", "-f", "")).toEqual(["table", "json", "ndjson"]);
    expect(bashComplete("looplens", "--fail-on", "c")).toEqual(["critical"]);
    expect(bashComplete("looplens", "analyze", "--detector", "ping")).toEqual(["ping_pong"]);
    expect(bashComplete("looplens", "completion", "--help", "")).toEqual([]);
  });
});

describe("zsh and fish scripts", () => {
  zsh.it("zsh: the script parses", () => {
    const result = spawnSync(zsh.path!, ["-n", join(dir, "looplens.zsh")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  fish.it("fish: the script parses and completes", () => {
    const check = spawnSync(fish.path!, ["-n", join(dir, "looplens.fish")], { encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    const complete = (line: string) =>
      spawnSync(fish.path!, ["-c", `source ${join(dir, "looplens.fish")}; complete -C '${line}'`], { encoding: "utf8" }).stdout.split("\n").map((l) => l.split("\t")[0]).filter(Boolean);
    expect(complete("looplens an")).toEqual(["analyze"]);
    expect(complete("looplens check --format ").sort()).toEqual(["json", "ndjson", "table"]);
    expect(complete("looplens --fail-")).toEqual(["--fail-on"]);
  });
});

describe("generated from the program", () => {
  it("every script names every command and every visible option of it", () => {
    const flags = ["--fail-on", "--max-warnings", "--top", "--since", "--output-file", "--color", "--vary", "--update", "--agent-home", "--profile"];
    for (const [shell, script] of Object.entries(scripts)) {
      for (const command of ["analyze", "events", "sweep", "check", "config", "completion", "man"]) expect(script, `${shell} ${command}`).toContain(command);
      // fish writes long flags without their dashes (-l fail-on).
      for (const flag of flags) expect(script, `${shell} ${flag}`).toContain(shell === "fish" ? `-l ${flag.slice(2)}` : flag);
      expect(script, shell).not.toContain("--all-branches"); // hidden (deprecated) flags are not offered
    }
  });

  it("a new option or choice shows up without touching the generators", () => {
    const program = new Command("demo").description("a demo");
    program.command("frob").description("frobs").option("--level <n>", "how much").addOption(new Option("--mode <m>", "mode").choices(["a", "b"]));
    const spec: ProgramSpec = programSpec(program);
    expect(spec.commands.map((c) => c.name)).toEqual(["frob"]);
    for (const script of [bashCompletion(spec), zshCompletion(spec), fishCompletion(spec)]) {
      expect(script).toContain("frob");
      expect(script).toMatch(/--level|-l level/);
      expect(script).toMatch(/a b/);
    }
  });
});

describe("looplens man", () => {
  it("is roff with every command, its options and the exit status", async () => {
    const result = await runMain(["man"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\.TH LOOPLENS 1 /);
    for (const command of ["analyze", "events", "sweep", "check", "config", "completion"]) expect(result.stdout).toContain(`.SS looplens ${command}`);
    expect(result.stdout).toContain("\\-\\-fail\\-on <level>");
    expect(result.stdout).toContain('(choices: "warning", "critical", "block", "abort")');
    expect(result.stdout).toContain(".SH EXIT STATUS");
    // What no path reads, and examples, as `looplens --help` says them.
    expect(result.stdout).toContain("With no path, looplens reads the OpenClaw state directory");
    expect(result.stdout).toMatch(/\.SH EXAMPLES\n\.nf\nlooplens  +# every run in the state directory\n/);
    // No line may start a roff request by accident.
    for (const line of result.stdout.split("\n")) if (/^[.']/.test(line)) expect(line).toMatch(/^\.(TH|SH|SS|TP|B|I|PP|nf|fi)\b/);
  });

  man.it("renders with man", async () => {
    const page = join(dir, "looplens.1");
    writeFileSync(page, (await runMain(["man"])).stdout);
    const result = spawnSync(man.path!, ["-l", page], { encoding: "utf8", env: { ...process.env, MANPAGER: "cat", PAGER: "cat", MANWIDTH: "80" } });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("--max-warnings");
  });
});
