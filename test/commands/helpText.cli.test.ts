import { describe, expect, it } from "vitest";
import { runMain } from "../helpers/cli.js";

/** The commands `looplens --help` lists (its "Commands:" section), `help` aside. */
function listedCommands(help: string): string[] {
  const section = help.split("\nCommands:\n")[1]!.split("\n\n")[0]!;
  return [...section.matchAll(/^ {2}(\w+)/gm)].map(([, name]) => name!).filter((name) => name !== "help");
}

describe("help", () => {
  it("looplens --help says what no path reads and that analyze is the default", async () => {
    const { status, stdout } = await runMain(["--help"]);
    expect(status).toBe(0);
    const text = stdout.replace(/\s+/g, " ");
    expect(text).toContain("analyze is the default command: `looplens PATHS` is `looplens analyze PATHS`.");
    expect(text).toContain("With no path, looplens reads the OpenClaw state directory ($OPENCLAW_STATE_DIR, else ~/.openclaw)");
    expect(text).toContain("Standard input is read instead when it is a pipe or a file");
  });

  it("every subcommand's help has an example of it", async () => {
    const commands = listedCommands((await runMain(["--help"])).stdout);
    expect(commands).toEqual(expect.arrayContaining(["analyze", "events", "sweep", "watch", "check", "config", "explain", "completion", "man", "cache"]));
    for (const command of commands) {
      const { status, stdout } = await runMain([command, "--help"]);
      expect(status, command).toBe(0);
      const examples = stdout.split(/\bExamples:\n/)[1];
      expect(examples, `${command} --help has no Examples:`).toBeDefined();
      expect(examples, command).toMatch(new RegExp(`^\\s+(\\S+ <\\()?looplens ${command}\\b`, "m"));
    }
  });

  it("looplens help --help (and -h) is the help of help, exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const { status, stdout, stderr } = await runMain(["help", flag]);
      expect(status).toBe(0);
      expect(stderr).toBe("");
      expect(stdout).toMatch(/^Usage: looplens help \[command\]\n/);
      expect(stdout).toContain("looplens help analyze");
    }
  });

  it("the added help lines fit 80 columns", async () => {
    for (const args of [["--help"], ["help", "--help"], ["analyze", "--help"], ["check", "--help"], ["sweep", "--help"]]) {
      const after = (await runMain(args)).stdout.split("Examples:\n")[1] ?? "";
      for (const line of after.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });
});
