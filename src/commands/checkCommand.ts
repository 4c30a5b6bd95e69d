/** `looplens check`'s flags and help; what it runs (check.ts) is loaded when it runs (cli.ts). */
import { Option, type Command } from "commander";
import { formatsOf } from "../reporters/formatNames.js";
import type { CheckOptions } from "./check.js";
import { addConfigOptions, addInputOptions, type CommandRunner, type Io } from "./common.js";
import { addFailOnOption } from "./failOn.js";
import { addOutputOptions, withOutput } from "./output.js";

export function registerCheck(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("check")
    .description("compare each input's findings with its snapshot <input>.looplens.json; exit 1 on any difference")
    .argument("[paths...]", "transcript fixture files or folders")
    .option("-u, --update", "write the snapshots that are missing or differ")
    .option("--cache", "read and keep results in the result cache, as analyze does (off for check: CI stays self-contained)")
    .addOption(new Option("-f, --format <format>", "output format: table (a readable diff), json or ndjson (the difference as data: runs and findings added and removed, fields changed)").choices(formatsOf("check")).default("table"));
  addFailOnOption(command, { maxWarnings: false });
  addOutputOptions(command);
  addConfigOptions(command);
  addInputOptions(command);
  command.action((paths: string[], options: CheckOptions) => run(() => withOutput(io, options, async (out) => (await import("./commandWork.js")).runCheck(paths, options, out, version), paths)));
}
