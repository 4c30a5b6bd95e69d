/**
 * `looplens runs [paths…]`: one line per run (start, duration, agent, channel, model, calls, worst
 * finding, prompt), so that a person finds the run before reading its findings (issue 34 §4). It
 * reads, replays and filters as `analyze` does (the same options, the same cache), and writes the
 * runs' formats (reporters/runsReport.ts) instead of analyze's.
 */
import { Option, type Command } from "commander";
import { formatsOf } from "../reporters/formatNames.js";
import { CACHE_HELP } from "./helpText.js";
import { addConfigOptions, addInputOptions, type CommandRunner, type Io } from "./common.js";
import { runAnalyze } from "./analyze.js";
import type { AnalyzeOptions } from "./analyzeOptions.js";
import { addFilterOptions, AGENT_FILTER_HELP } from "./filterOptions.js";
import { addOutputOptions, PROMPTS_HELP, withOutput } from "./output.js";

const EXAMPLES = [
  "Examples:",
  "  looplens runs                               every run of the OpenClaw state directory",
  "  looplens runs --since 2h --agent main       the main agent's runs of the last two hours",
  "  looplens runs --top 10 --no-prompts         the ten worst runs, prompts hidden",
  "  looplens runs ~/.claude/projects -f json    Claude Code's runs as json",
  "",
  "Then: looplens analyze --run ID shows a run's findings.",
].join("\n");

export function registerRuns(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("runs")
    .description("list the runs, one line each: start, duration, agent, channel, model, calls, worst finding, prompt")
    .argument("[paths...]", "transcript files, folders, or - for standard input")
    .addOption(new Option("-f, --format <format>", "output format").choices(formatsOf("runs")).default("table"))
    .option("--no-prompts", PROMPTS_HELP)
    .option("--no-cache", CACHE_HELP);
  addFilterOptions(command, { findings: true });
  addOutputOptions(command);
  addConfigOptions(command, AGENT_FILTER_HELP);
  addInputOptions(command);
  command.addHelpText("after", `\n${EXAMPLES}\n`);
  // Every run is a line, with or without findings (analyze's --all).
  command.action((paths: string[], options: AnalyzeOptions) => run(() => withOutput(io, options, (out) => runAnalyze(paths, { ...options, all: true }, out, version, new Date(), "runs"), paths)));
}
