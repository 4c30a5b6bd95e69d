/**
 * Where a command writes its report, how wide and whether in colour (cli.md "Selecting and
 * writing"): `-o/--output-file FILE` puts the report in a file (diagnostics and progress stay on
 * stderr), replaced only by a run that completes (reportFile.ts); `--color auto|always|never` (with
 * `--no-color`, NO_COLOR, FORCE_COLOR and TERM=dumb) decides the colour.
 */
import { resolve } from "node:path";
import { UsageError, EXIT } from "../pipeline/errors.js";
import { Option, type Command } from "commander";
import { openReportFile } from "../pipeline/reportFile.js";
import { cleanUpOnEarlyEnd } from "../pipeline/earlyEnd.js";
import type { Io } from "./common.js";

export const COLOR_CHOICES = ["auto", "always", "never"] as const;

export interface OutputOptions {
  /** `--color WHEN`, or false for `--no-color`. */
  color?: (typeof COLOR_CHOICES)[number] | boolean;
  outputFile?: string;
}

export function addOutputOptions(command: Command): Command {
  return command
    .option("-o, --output-file <file>", "write the report to this file instead of standard output (diagnostics stay on stderr; no colour unless --color always)")
    .addOption(new Option("--color <when>", "colour the report: auto (on a terminal, unless NO_COLOR is set), always, never").choices(COLOR_CHOICES))
    .option("--no-color", "no colour (the same as --color never)");
}

/**
 * Colour on or off: `--no-color`/`--color never` and `--color always` decide; otherwise (auto)
 * NO_COLOR turns it off, FORCE_COLOR on (but FORCE_COLOR=0 or false: off, as chalk reads it), a
 * TERM=dumb terminal has none, else colour goes to terminals only. A report written to a file is
 * no terminal.
 */
export function useColor(options: OutputOptions, io: Io): boolean {
  if (options.color === false || options.color === "never") return false;
  if (options.color === "always") return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (io.env.TERM === "dumb") return false;
  return io.stdoutIsTTY;
}

/** `--no-prompts` (analyze, runs). */
export const PROMPTS_HELP = "show no run's prompt (the first user message) in any format: prompts may be private";

/**
 * Where the human reports shorten paths from (reporters/runFacts.ts `headerPath`): the current
 * folder, the home folder, and the OpenClaw state directory when $OPENCLAW_STATE_DIR names it.
 */
export function headerPlaces(io: Io): { readonly cwd: string; readonly home?: string; readonly stateDir?: string } {
  const home = io.env.HOME ?? io.env.USERPROFILE;
  const state = io.env.OPENCLAW_STATE_DIR?.trim();
  return { cwd: process.cwd(), ...(home !== undefined && home !== "" && { home }), ...(state !== undefined && state !== "" && { stateDir: state }) };
}

/** The width a terminal is taken to have when it reports none (0 columns: a serial line, some containers). */
const TERMINAL_FALLBACK_WIDTH = 80;

/**
 * How wide the report may be: a terminal's own width (80 when it reports 0); elsewhere (a pipe, a
 * file) $COLUMNS when it is a whole number above 0, as `COLUMNS=120 looplens | less` asks, else
 * undefined (each format's own default).
 */
export function reportColumns(stdoutIsTTY: boolean, terminalColumns: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  if (stdoutIsTTY) return terminalColumns !== undefined && terminalColumns > 0 ? terminalColumns : TERMINAL_FALLBACK_WIDTH;
  const columns = env.COLUMNS?.trim();
  return columns !== undefined && /^\d+$/.test(columns) && Number(columns) > 0 ? Number(columns) : undefined;
}

/**
 * Runs a command with its standard output sent to `--output-file` when given. The file is replaced
 * only by a run that ends with a report (exit 0 or 1): one that fails, exits 2 (whose report is
 * not printed) or is interrupted by a signal leaves the old file as it was.
 */
export async function withOutput(io: Io, options: OutputOptions, work: (io: Io) => Promise<number>, inputs: readonly string[] = []): Promise<number> {
  if (options.outputFile === undefined) return work(io);
  const path = options.outputFile;
  // The report would replace the input it was read from: surely a slip of the shell.
  if (inputs.some((input) => input !== "-" && resolve(input) === resolve(path))) throw new UsageError(`--output-file ${path} is also an input: name another file`);
  const file = openReportFile(path);
  const forget = cleanUpOnEarlyEnd(() => file.discard());
  let done = false;
  try {
    const status = await work({ ...io, stdout: (text) => file.write(text), stdoutDrained: undefined, stdoutIsTTY: false, columns: reportColumns(false, undefined, io.env) });
    if (status === EXIT.usage) file.discard();
    else file.commit();
    done = true;
    return status;
  } finally {
    forget();
    if (!done) file.discard();
  }
}
