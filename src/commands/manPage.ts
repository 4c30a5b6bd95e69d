/**
 * `looplens man`: the man page, in roff, made from the commander program's own help (usage,
 * descriptions, options with their choices and defaults) so that it says what `--help` says. The
 * build writes it to dist/looplens.1 (package.json `man`).
 */
import type { Command, Help } from "commander";
import { detectorHelp } from "../core/detectorInfo.js";
import { DEFAULTS_HELP, PROGRAM_EXAMPLES } from "./helpText.js";

/** Text as roff: backslashes and leading dots or quotes must not be read as requests. */
function roff(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .split("\n")
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join("\n");
}

function optionsSection(help: Help, command: Command): string[] {
  return help.visibleOptions(command).flatMap((option) => [".TP", `.B ${roff(help.optionTerm(option))}`, roff(help.optionDescription(option))]);
}

function commandSection(help: Help, command: Command): string[] {
  const args = help.visibleArguments(command).flatMap((argument) => [".TP", `.I ${roff(help.argumentTerm(argument))}`, roff(help.argumentDescription(argument))]);
  return [
    `.SS ${roff(`looplens ${command.name()}`)}`,
    `.B looplens ${roff(`${command.name()} ${command.usage()}`)}`,
    ".PP",
    roff(help.commandDescription(command)),
    ...args,
    ...optionsSection(help, command),
  ];
}

const EXIT_STATUS = [
  ".TP", ".B 0", "success.",
  ".TP", ".B 1", roff("a finding at or above --fail-on (or more warnings than --max-warnings), or check found a difference."),
  ".TP", ".B 2", roff("a usage, configuration or unreadable-input error (one line on stderr); with --strict, a skipped bad line."),
];

const ENVIRONMENT = [
  ".TP", ".B NO_COLOR", "no colour when set (unless --color always).",
  ".TP", ".B FORCE_COLOR", roff("colour even on a pipe when set to anything but 0 (unless --color never)."),
  ".TP", ".B OPENCLAW_STATE_DIR", roff("the OpenClaw state directory read when no path is given (default ~/.openclaw)."),
  ".TP", ".B OPENCLAW_CONFIG_PATH", roff("the config that --config auto reads (default ~/.openclaw/openclaw.json)."),
];

export function manPage(program: Command): string {
  const help = program.createHelp();
  const lines = [
    `.TH LOOPLENS 1 "" "looplens ${roff(program.version() ?? "")}" "User Commands"`,
    ".SH NAME",
    `looplens \\- ${roff(program.description())}`,
    ".SH SYNOPSIS",
    ".B looplens",
    roff("[command] [options] [paths...]"),
    ".SH DESCRIPTION",
    roff(`${DEFAULTS_HELP.join(" ")} Paths may be files, folders or - (standard input); .gz and .zst files are read transparently.`),
    ".SH COMMANDS",
    ...program.commands.flatMap((command) => commandSection(help, command)),
    ".SH OPTIONS",
    ...optionsSection(help, program),
    ".SH DETECTORS",
    ".nf",
    roff(detectorHelp().split("\n").slice(1).join("\n")),
    ".fi",
    ".SH EXAMPLES",
    ".nf",
    roff(PROGRAM_EXAMPLES.join("\n")),
    ".fi",
    ".SH EXIT STATUS",
    ...EXIT_STATUS,
    ".SH ENVIRONMENT",
    ...ENVIRONMENT,
  ];
  return `${lines.join("\n")}\n`;
}
