/** `looplens sweep`'s flags and help; what it runs (sweep.ts) is loaded when it runs (cli.ts). */
import { Option, type Command } from "commander";
import { formatsOf } from "../reporters/formatNames.js";
import { addConfigOptions, addInputOptions, collect, type CommandRunner, type Io } from "./common.js";
import { addFilterOptions, AGENT_FILTER_HELP } from "./filterOptions.js";
import { CACHE_HELP } from "./helpText.js";
import { addOutputOptions, withOutput } from "./output.js";
import type { SweepOptions } from "./sweep.js";

export function registerSweep(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("sweep")
    .description("replay the same runs under a grid of configs and compare what each would warn, block or abort")
    .argument("[paths...]", "transcript files, folders, or - for standard input")
    .option("--vary <name=spec>", "a config key and its values: a..b:step or a,b,c (repeatable), e.g. criticalThreshold=10..30:5; or profile=configurable,newest", collect)
    .addOption(new Option("-f, --format <format>", "output format").choices(formatsOf("sweep")).default("table"))
    .option("--expect-stuck <runs...>", "run ids known to be stuck (scores each config; others count as healthy unless --expect-healthy)")
    .option("--expect-healthy <runs...>", "run ids known to be healthy")
    .option("--no-cache", CACHE_HELP);
  addConfigOptions(command, AGENT_FILTER_HELP);
  addInputOptions(command);
  addFilterOptions(command, { findings: false });
  addOutputOptions(command);
  command.action((paths: string[], options: SweepOptions) => run(() => withOutput(io, options, async (out) => (await import("./commandWork.js")).runSweep(paths, options, out, version), paths)));
}
