/**
 * Help text a newcomer needs besides the flags: what `looplens` alone reads and that `analyze` is
 * the default (the program's help), one or more examples under every subcommand's help, and the
 * help of `help` itself. Kept in one table, applied once every command is registered (cli.ts), so a
 * command module stays about its command and a command without examples shows up in a test.
 */
import type { Command } from "commander";

/** What `looplens` alone does, said under `looplens --help` and in the man page's description. */
export const DEFAULTS_HELP = [
  "analyze is the default command: `looplens PATHS` is `looplens analyze PATHS`.",
  "With no path, looplens reads the OpenClaw state directory ($OPENCLAW_STATE_DIR,",
  "else ~/.openclaw): every agent's session transcripts there. Standard input is",
  "read instead when it is a pipe or a file (`cat run.jsonl | looplens`), or when",
  "- is named.",
];

/** The program's examples (help and man page). */
export const PROGRAM_EXAMPLES = [
  "looplens                                  # every run in the state directory",
  "looplens session.jsonl --all              # runs without findings too",
  "looplens check fixtures/ --fail-on block  # in CI",
  "looplens help analyze",
];

/** Under `looplens --help`: the two things a first run depends on and the help does not otherwise say. */
export const PROGRAM_HELP = ["", ...DEFAULTS_HELP, "", "Examples:", ...PROGRAM_EXAMPLES.map((line) => `  ${line}`)].join("\n");

/**
 * Examples under each subcommand's help, for those whose module does not write its own (explain,
 * completion and watch do: their examples go with their help text).
 */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  analyze: [
    "looplens analyze                                # the OpenClaw state directory",
    "looplens analyze session.jsonl --all --verbose",
    "looplens analyze ~/.claude/projects --since 2h --top 5",
    "looplens analyze fixtures/ --fail-on block -f sarif -o loops.sarif",
  ],
  events: ["looplens events session.jsonl | head", "looplens events session.jsonl --run r1 > r1.events.jsonl"],
  sweep: ["looplens sweep runs/ --vary criticalThreshold=10..30:5", "looplens sweep runs --vary warningThreshold=5,8 --vary criticalThreshold=15,25"],
  check: [
    "looplens check fixtures/            # exit 1 when a finding changed",
    "looplens check fixtures/ --update   # accept the new findings",
  ],
  config: ["looplens config --config auto --agent main", "looplens config --set criticalThreshold=12 -f json"],
  man: ["looplens man | man -l -"],
  cache: ["looplens cache info", "looplens cache clear"],
};

/** Adds the examples to the commands' help (once every command is registered). */
export function addHelpExamples(program: Command): void {
  program.addHelpText("after", `${PROGRAM_HELP}\n`);
  for (const command of program.commands) {
    const examples = EXAMPLES[command.name()];
    if (examples !== undefined) command.addHelpText("after", `\nExamples:\n${examples.map((line) => `  ${line}`).join("\n")}\n`);
  }
}

/** `looplens help --help`: the help of `help`, which commander would take for a command named --help. */
export const HELP_COMMAND_HELP = [
  "Usage: looplens help [command]",
  "",
  "show the help of a command, the same as looplens COMMAND --help; with no",
  "command, the program's help (looplens --help)",
  "",
  "Examples:",
  "  looplens help analyze",
  "  looplens help",
  "",
].join("\n");

/** `--no-cache` of analyze, runs and sweep. */
export const CACHE_HELP = "neither read nor keep results in the result cache (see looplens cache --help)";
