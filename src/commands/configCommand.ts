/** `looplens config`'s flags and help; what it runs (config.ts) is loaded when it runs (cli.ts). */
import { Option, type Command } from "commander";
import { formatsOf } from "../reporters/formatNames.js";
import { addConfigOptions, type CommandRunner, type Io } from "./common.js";
import type { ConfigCommandOptions } from "./config.js";
import { addOutputOptions, withOutput } from "./output.js";

export function registerConfig(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("config")
    .description("print the effective configuration (file, agent override, --set, clamping) and where each value came from")
    .addOption(new Option("-f, --format <format>", "output format").choices(formatsOf("config")).default("table"));
  addOutputOptions(command);
  addConfigOptions(command);
  command.action((options: ConfigCommandOptions) => run(() => withOutput(io, options, async (out) => (await import("./commandWork.js")).runConfig(options, out, version))));
}
