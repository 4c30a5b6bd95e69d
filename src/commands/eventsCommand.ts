/** `looplens events`' flags and help; what it runs (events.ts) is loaded when it runs (cli.ts). */
import type { Command } from "commander";
import { addInputOptions, type CommandRunner, type Io } from "./common.js";
import type { EventsOptions } from "./events.js";
import { listOption } from "./filterOptions.js";
import { addOutputOptions, withOutput } from "./output.js";

export function registerEvents(program: Command, io: Io, run: CommandRunner): void {
  const command = program
    .command("events")
    .description("print the canonical events that the detectors would see")
    .argument("[paths...]", "transcript files, folders, or - for standard input");
  command
    .option("--run <ids>", "only the events of these runs (repeatable, or comma-separated)", listOption)
    .option("--session <ids>", "only the events of these sessions (repeatable, or comma-separated)", listOption);
  addOutputOptions(command);
  addInputOptions(command);
  command.action((paths: string[], options: EventsOptions) => run(() => withOutput(io, options, async (out) => (await import("./commandWork.js")).runEvents(paths, options, out), paths)));
}
