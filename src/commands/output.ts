/**
 * Where a command writes its report and whether in colour (cli.md "Selecting and writing"):
 * `-o/--output-file FILE` puts the report in a file (diagnostics and progress stay on stderr), and
 * `--color auto|always|never` (with `--no-color`, NO_COLOR and FORCE_COLOR) decides the colour.
 */
import { closeSync, existsSync, openSync, unlinkSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../pipeline/errors.js";
import { Option, type Command } from "commander";
import { InputError } from "../adapters/io/lineSource.js";
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
 * NO_COLOR turns it off, FORCE_COLOR (other than 0) on, else colour goes to terminals only. A
 * report written to a file is no terminal.
 */
export function useColor(options: OutputOptions, io: Io): boolean {
  if (options.color === false || options.color === "never") return false;
  if (options.color === "always") return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== "0") return true;
  return io.stdoutIsTTY;
}

/**
 * Runs a command with its standard output sent to `--output-file` when given. The file is written
 * as the report is made (a large report is never held whole) and closed whatever happens.
 */
export async function withOutput(io: Io, options: OutputOptions, work: (io: Io) => Promise<number>, inputs: readonly string[] = []): Promise<number> {
  if (options.outputFile === undefined) return work(io);
  const path = options.outputFile;
  // Opening the file empties it: an input named as the output would be gone before it is read.
  if (inputs.some((input) => input !== "-" && resolve(input) === resolve(path))) throw new UsageError(`--output-file ${path} is also an input: name another file`);
  // Opened before the work, so that an unwritable path fails at once, not after a long analysis.
  const existed = existsSync(path);
  let fd: number;
  try {
    fd = openSync(path, "w");
  } catch (error) {
    throw new InputError(`cannot write the report to ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let written = false;
  try {
    const write = (text: string) => {
      let buffer = Buffer.from(text);
      written ||= buffer.length > 0;
      while (buffer.length > 0) buffer = buffer.subarray(writeSync(fd, buffer));
    };
    return await work({ ...io, stdout: write, stdoutDrained: undefined, stdoutIsTTY: false, columns: undefined });
  } catch (error) {
    // A command that failed before writing anything leaves no empty report file behind it.
    if (!written && !existed) unlinkSync(path);
    throw error;
  } finally {
    closeSync(fd);
  }
}
