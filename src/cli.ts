/**
 * Wires the subcommands into one commander program and turns every expected failure into one line
 * on stderr with exit status 2 (no stack traces unless --debug).
 */
import { fstatSync } from "node:fs";
import { isatty } from "node:tty";
import { Command, CommanderError } from "commander";
import { ConfigError } from "./adapters/openclaw/configFile.js";
import { InputError } from "./adapters/io/lineSource.js";
import { registerAnalyze } from "./commands/analyzeCommand.js";
import { registerConfig } from "./commands/configCommand.js";
import type { Io, StdinKind } from "./commands/common.js";
import { reportColumns } from "./commands/output.js";
import { EXIT, UsageError } from "./pipeline/errors.js";
import { compileLess } from "./pipeline/v8Tuning.js";
import { registerCheck } from "./commands/checkCommand.js";
import { registerEvents } from "./commands/eventsCommand.js";
import { registerRuns } from "./commands/runs.js";
import { registerExplain } from "./commands/explainCommand.js";
import { registerSweep } from "./commands/sweepCommand.js";
import { registerWatch } from "./commands/watchCommand.js";
import { registerCompletion } from "./commands/completion.js";
import { registerCache } from "./commands/cacheCommand.js";
import { addHelpExamples, HELP_COMMAND_HELP } from "./commands/helpText.js";
import { sanitize } from "./reporters/sanitize.js";
import { packageVersion } from "./packageVersion.js";

/** What standard input is (inputPaths reads it for no path only when it is a pipe or a file). */
export function stdinKind(fd = 0): StdinKind {
  if (isatty(fd)) return "terminal";
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO()) return "pipe";
    if (stat.isFile()) return "file";
    return stat.isSocket() ? "socket" : "device";
  } catch {
    return "closed";
  }
}

export function processIo(): Io {
  // A closed pipe (`looplens … | head`) is not an error worth a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  return {
    stdout: Object.assign((text: string) => void process.stdout.write(text), { bytes: (bytes: Uint8Array) => void process.stdout.write(bytes) }),
    stdoutDrained: () => (process.stdout.writableNeedDrain ? new Promise<void>((resolve) => process.stdout.once("drain", resolve)) : Promise.resolve()),
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stdin: stdinKind(),
    stderrIsTTY: process.stderr.isTTY === true,
    columns: reportColumns(process.stdout.isTTY === true, process.stdout.columns, process.env),
    // 0 (a terminal that does not know its width) is no width: the progress bar falls back.
    stderrColumns: process.stderr.columns || undefined,
    env: process.env,
  };
}

/** Commander's multi-line error (`error: …\n(Did you mean …?)`) as one sanitized line. */
function oneLine(text: string): string {
  return text
    .split("\n")
    .map((line) => sanitize(line.replace(/^error: /, "")).trim())
    .filter((line) => line !== "")
    .join(" ");
}

function sanitizeLines(text: string): string {
  return text.split("\n").map(sanitize).join("\n");
}

/** `(see looplens analyze --help)`: the help of the command whose flags or values were wrong. */
const helpHint = (command: Command | undefined) => `(see looplens ${command !== undefined && command.parent ? `${command.name()} ` : ""}--help)`;

/**
 * Each subcommand reports a bad flag or value with its own help named; set once every command is
 * registered, so that a command added later (registerX above) gets it too.
 */
function nameHelpInErrors(program: Command, io: Io): void {
  for (const command of program.commands) {
    command.configureOutput({ outputError: (text) => io.stderr(`looplens: ${oneLine(text)} ${helpHint(command)}\n`) });
  }
}

/** Known failure kinds: reported as `looplens: message`, exit 2. */
function isUserError(error: unknown): error is Error {
  return error instanceof UsageError || error instanceof ConfigError || error instanceof InputError;
}

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  compileLess(); // before any code is hot enough to be optimised (v8Tuning.ts)
  const version = packageVersion();
  const debug = argv.includes("--debug");
  let exitCode: number = EXIT.ok;
  const run = async (work: () => Promise<number>) => {
    exitCode = await work();
  };

  const program = new Command()
    .name("looplens")
    .description("Replay recorded agent transcripts through OpenClaw's tool-loop detectors, offline.")
    .version(version, "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(sanitizeLines(text)),
      // A bad flag or value: one line, whatever commander would spread over several.
      outputError: (text) => io.stderr(`looplens: ${oneLine(text)} ${helpHint(undefined)}\n`),
    });
  // Deprecated flags still work, with one notice naming what replaced them.
  let active: Command | undefined;
  program.hook("preAction", (_program, action) => {
    active = action;
    if (action.opts().allBranches === true && action.opts().quiet !== true) {
      io.stderr("looplens: notice: --all-branches is deprecated: every executed call is now replayed once, in file order, by default (--active-branch gives the old default view)\n");
    }
  });
  registerAnalyze(program, io, version, run);
  registerRuns(program, io, version, run);
  registerEvents(program, io, run);
  registerSweep(program, io, version, run);
  registerWatch(program, io, run);
  registerCheck(program, io, version, run);
  registerConfig(program, io, version, run);
  registerExplain(program, io, version, run);
  registerCompletion(program, io);
  registerCache(program, io, run);
  nameHelpInErrors(program, io);
  addHelpExamples(program);

  // `looplens help frob` would print the whole help on stderr; one line says more.
  const [first, topic] = argv.slice(2);
  if (first === "help" && (topic === "--help" || topic === "-h")) {
    io.stdout(HELP_COMMAND_HELP);
    return EXIT.ok;
  }
  if (first === "help" && topic !== undefined && !program.commands.some((c) => c.name() === topic || c.aliases().includes(topic))) {
    io.stderr(`looplens: unknown command '${sanitize(topic)}' (see looplens --help)\n`);
    return EXIT.usage;
  }

  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (isUserError(error)) {
      // A usage mistake names the help that shows the right usage; a config or input error does not.
      const hint = error instanceof UsageError ? ` ${helpHint(active)}` : "";
      io.stderr(`looplens: ${sanitize(error.message)}${hint}\n`);
      return EXIT.usage;
    }
    const err = error as Error;
    io.stderr(`looplens: internal error: ${sanitize(String(err?.message ?? error))}\n`);
    if (debug && err?.stack) io.stderr(`${err.stack}\n`);
    return EXIT.usage;
  }
}
