/**
 * `looplens config`: the effective configuration (after file, agent override, `--set`, clamping),
 * where each value came from, and the notices. The notices are this command's output, so they go to
 * stdout with the rest (other commands print them on stderr).
 */
import { Option, type Command } from "commander";
import { formatsOf, REPORTERS } from "../reporters/index.js";
import { addConfigOptions, type CommonOptions, type Io } from "./common.js";
import { addOutputOptions, useColor, withOutput, type OutputOptions } from "./output.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { configCommandReport } from "../pipeline/configSummary.js";
import { EXIT } from "../pipeline/errors.js";

interface ConfigCommandOptions extends CommonOptions, OutputOptions {
  format: string;
}

export async function runConfig(options: ConfigCommandOptions, io: Io, version: string): Promise<number> {
  const resolver = await createConfigResolver(options, io.env);
  io.stdout(REPORTERS.config[options.format]!(configCommandReport(resolver, options, version), { color: useColor(options, io), width: io.columns }));
  return EXIT.ok;
}

export function registerConfig(program: Command, io: Io, version: string, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("config")
    .description("print the effective configuration (file, agent override, --set, clamping) and where each value came from")
    .addOption(new Option("-f, --format <format>", "output format").choices(formatsOf("config")).default("table"));
  addOutputOptions(command);
  addConfigOptions(command);
  command.action((options: ConfigCommandOptions) => run(() => withOutput(io, options, (out) => runConfig(options, out, version))));
}
