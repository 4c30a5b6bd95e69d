/**
 * `looplens analyze [paths…]`'s flags and help. Its run (analyze.ts) loads the reading, replay and
 * reporters only when no kept output answers (commandWork.ts).
 */
import { Option, type Command } from "commander";
import { detectorHelp } from "../core/detectorInfo.js";
import { REPORT_FORMATS } from "../reporters/formatNames.js";
import { CACHE_HELP } from "./helpText.js";
import { addConfigOptions, addInputOptions, type CommandRunner, type Io } from "./common.js";
import { addFailOnOption } from "./failOn.js";
import { addFilterOptions, AGENT_FILTER_HELP } from "./filterOptions.js";
import { addOutputOptions, PROMPTS_HELP, withOutput } from "./output.js";
import { runAnalyze } from "./analyze.js";
import type { AnalyzeOptions } from "./analyzeOptions.js";

const STREAMING_HELP = [
  "Standard input (-) with --format ndjson: each finding is written as soon as its call is read",
  "(canonical events, Claude Code, Codex, OpenHands), so `tail -f FILE | looplens analyze - -f ndjson`",
  "works as a pipe; formats that read their whole input first (OpenClaw transcripts, Gemini CLI) and",
  "Gateway logs are written when input ends. To follow files as they grow: looplens watch.",
].join("\n");

export function registerAnalyze(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("analyze", { isDefault: true })
    .description("replay every run through the loop detectors and print the report")
    .argument("[paths...]", "transcript files, folders, or - for standard input")
    .addOption(new Option("-f, --format <format>", "output format").choices(REPORT_FORMATS).default("table"))
    .option("-a, --all", "show runs without findings too")
    .option("-v, --verbose", "one row per verdict instead of one per pattern; every diagnostic on stderr, not one per kind")
    .option("--no-explain", "table and markdown: no plain-words line on what each row's pattern was")
    .option("--no-prompts", PROMPTS_HELP)
    .option("--no-cache", CACHE_HELP);
  addFailOnOption(command, { maxWarnings: true });
  addFilterOptions(command, { findings: true });
  addOutputOptions(command);
  addConfigOptions(command, AGENT_FILTER_HELP);
  addInputOptions(command);
  command.addHelpText("after", `\n${STREAMING_HELP}\n\n${detectorHelp()}\n`);
  command.action((paths: string[], options: AnalyzeOptions) =>
    run(() => withOutput(io, options, (out) => runAnalyze(paths, options, out, version), paths)),
  );
}
