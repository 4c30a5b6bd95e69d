/**
 * Options and plumbing shared by the subcommands: configuration flags, input flags, output format,
 * diagnostics on stderr and exit status rules.
 */
import type { Command } from "commander";
import { InvalidArgumentError, Option } from "commander";
import type { InputFormat } from "../adapters/adapter.js";
import { AGENT_HOMES, INPUT_FORMATS } from "../adapters/formatNames.js";
import type { Diagnostic } from "../core/findings.js";
import { sanitize } from "../reporters/sanitize.js";
import { diagnosticLines } from "../reporters/diagnosticLines.js";
import type { ConfigResolver } from "../pipeline/configResolution.js";
import { InputError } from "../adapters/io/lineSource.js";
import { stateInputs } from "../pipeline/stateDirectory.js";
import { PROFILE_REQUESTS, type ProfileRequest } from "../core/profiles/choice.js";

/**
 * Writes text to standard output; `bytes`, when there, writes bytes as they are (a kept output of
 * analyze is bytes). A property of the writer, not of the Io: an Io that sends standard output
 * elsewhere (`{ ...io, stdout }`, `-o FILE`) cannot keep the old one's bytes writer by mistake.
 */
export type StdoutWriter = ((text: string) => void) & { readonly bytes?: (bytes: Uint8Array) => void };

export interface Io {
  readonly stdout: StdoutWriter;
  /**
   * Resolves once what was handed to `stdout` has gone out (absent: at once). A pipe takes writes
   * asynchronously: a report written in one go waited in memory whole (real-shaped folder, -f json
   * into a pipe: peak RSS +60–70 MB), so long reports wait for it between pieces.
   */
  readonly stdoutDrained?: () => Promise<void>;
  readonly stderr: (text: string) => void;
  readonly stdoutIsTTY: boolean;
  /** What standard input is: with no path, only a pipe or a file is read (inputPaths). */
  readonly stdin: StdinKind;
  readonly stderrIsTTY: boolean;
  readonly columns: number | undefined;
  /** Width of stderr when it is a terminal (the progress bar). */
  readonly stderrColumns?: number | undefined;
  readonly env: NodeJS.ProcessEnv;
}

/** What a command's action hands its work to (cli.ts): the work's exit status becomes the process's. */
export type CommandRunner = (work: () => Promise<number>) => Promise<void>;

/** What standard input is (cli.ts `stdinKind`): "device" is any other file type, /dev/null among them. */
export type StdinKind = "pipe" | "file" | "terminal" | "device" | "socket" | "closed";

export interface CommonOptions {
  config?: string;
  /** `--profile`: the detector generation to replay under (absent = configurable, the default). */
  profile?: ProfileRequest;
  agent?: string;
  set?: string[];
  inputFormat?: InputFormat;
  activeBranch?: boolean;
  /** `--agent-home`: agents whose default transcripts folders to read. */
  agentHome?: string[];
  /** Deprecated alias of today's default (file order); accepted with a notice. */
  allBranches?: boolean;
  /** `--max-line-bytes` (or `$LOOPLENS_MAX_LINE_BYTES`): longer lines are skipped as bad, unread. */
  maxLineBytes?: number;
  quiet?: boolean;
  strict?: boolean;
  debug?: boolean;
}

/** Commander reducer for repeatable options. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A repeatable option limited to `choices` (commander checks choices only for single values). */
function collectChoice(choices: readonly string[]) {
  return (value: string, previous: string[] = []) => {
    if (!choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(", ")}.`);
    return [...previous, value];
  };
}

/** `agentHelp`: what `--agent` does on this command (it also filters runs where there are runs: filterOptions.ts). */
export function addConfigOptions(command: Command, agentHelp = "apply this agent's loopDetection override to every run"): Command {
  return command
    .option("--config <file>", "OpenClaw config (openclaw.json, JSON5) or a bare loopDetection block; `auto`: $OPENCLAW_CONFIG_PATH or ~/.openclaw/openclaw.json")
    .option("--agent <id>", agentHelp)
    .option("--set <key=value>", "override a config value (dotted keys, repeatable), e.g. criticalThreshold=12", collect)
    .addOption(
      new Option("--profile <profile>", "detector generation: configurable (default; thresholds honoured), newest (fixed thresholds, argument_churn), auto (by the OpenClaw version the input records)").choices(
        PROFILE_REQUESTS,
      ),
    );
}

/** Past V8's longest string (~512 MiB) a line could not be decoded or parsed anyway. */
export const MAX_LINE_LIMIT = 512 * 2 ** 20;

function lineLimit(value: string): number {
  const bytes = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_LINE_LIMIT) throw new InvalidArgumentError(`expected a number of bytes from 1 to ${MAX_LINE_LIMIT}.`);
  return bytes;
}

export function addInputOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--input-format <format>", "force the input format instead of detecting it").choices(INPUT_FORMATS),
    )
    .addOption(new Option("--agent-home <agent>", "read an agent's default transcripts folder (repeatable)").choices(AGENT_HOMES).argParser(collectChoice(AGENT_HOMES)))
    .option("--active-branch", "session transcripts: replay only the branch ending at the last entry (what the model saw), not every executed call")
    .addOption(new Option("--all-branches", "deprecated: every executed call in file order is now the default").hideHelp())
    .addOption(
      new Option("--max-line-bytes <bytes>", "skip longer input lines as bad without keeping them in memory (default 33554432, 32 MiB)")
        .env("LOOPLENS_MAX_LINE_BYTES")
        .argParser(lineLimit),
    )
    .option("--strict", "exit 2 when any input line was skipped as bad")
    .option("-q, --quiet", "no diagnostics or progress on stderr (the summary still counts them)")
    .option("--debug", "show stack traces of internal errors");
}

/**
 * Paths to read: as given; with none, standard input when it holds a stream to read — a pipe or a
 * regular file (`… | looplens`, `looplens < run.jsonl`), ripgrep's rule — else the OpenClaw state
 * directory (inputs.md §2, stateDirectory.ts), saying on stderr which directory it read. A terminal,
 * /dev/null or another device, a socket or a closed stdin (cron, CI, service managers) is no input
 * given, not an empty one: reading it made `looplens --fail-on block </dev/null` pass on 0 runs.
 * (Node's stdin "pipe" for a child is a socket: a Node program feeding looplens names `-`.)
 * `readsStdin: false` (check: standard input has no snapshot) goes to the state directory always.
 */
export async function inputPaths(paths: readonly string[], io: Io, quiet = false, agentHomes: readonly string[] = [], readsStdin = true): Promise<string[]> {
  // Imported when named: the agents' homes are their descriptors', and a kept output loads no adapter.
  if (agentHomes.length > 0) return [...paths, ...(await import("../pipeline/agentHomes.js")).agentHomePaths(agentHomes, io.env)];
  if (paths.length > 0) return [...paths];
  if (readsStdin && (io.stdin === "pipe" || io.stdin === "file")) return ["-"];
  const explicit = io.env.OPENCLAW_STATE_DIR?.trim();
  const state = stateInputs(io.env);
  if (state.paths.length === 0) {
    throw new InputError(`no input given, and the OpenClaw state directory ${state.dir} holds no agents/ folder (${explicit ? "$OPENCLAW_STATE_DIR" : "~/.openclaw, as $OPENCLAW_STATE_DIR is not set"}): name transcript files or folders, or - for standard input`);
  }
  if (!quiet) io.stderr(`looplens: reading the OpenClaw state directory ${sanitize(state.dir)} (no path given)\n`);
  return state.paths;
}

/** Bad-line diagnostics on stderr, grouped by kind (every one under `verbose`: reporters/diagnosticLines.ts). */
export function reportDiagnostics(io: Io, diagnostics: readonly Diagnostic[], total: number, quiet: boolean | undefined, verbose = false): void {
  const text = diagnosticsText(diagnostics, total, quiet, verbose);
  if (text !== "") io.stderr(text);
}

/** What `reportDiagnostics` says, as one text (analyze keeps it with a cached output). */
export function diagnosticsText(diagnostics: readonly Diagnostic[], total: number, quiet: boolean | undefined, verbose = false): string {
  if (quiet) return "";
  let text = "";
  for (const line of diagnosticLines(diagnostics, total, verbose)) text += `${line}\n`;
  return text;
}

export function reportNotices(io: Io, resolver: ConfigResolver, quiet: boolean | undefined): void {
  if (quiet) return;
  for (const notice of resolver.notices()) io.stderr(`looplens: notice: ${sanitize(notice.origin)}: ${sanitize(notice.message)}\n`);
}

/** `--strict`: any skipped line makes the exit status 2 (said on stderr, even under --quiet). */
export function strictViolation(io: Io, options: CommonOptions, skipped: number): boolean {
  if (!options.strict || skipped === 0) return false;
  io.stderr(`looplens: --strict: ${skipped} input line(s) skipped as bad\n`);
  return true;
}

/**
 * Input that could not be used at all is an error, not a green exit (exit 2, said on stderr even
 * under --quiet): files were given but no line of any of them could be used, because every file was
 * unreadable as a transcript (binary, no known format) or every line was bad. Empty input is not
 * this: it holds nothing to use, and says so.
 */
export function nothingUsable(io: Io, read: { readonly lines: { readonly used: number; readonly skipped: number }; readonly unusable: readonly { file: string; reason: string }[] }): boolean {
  if (read.lines.used > 0 || (read.unusable.length === 0 && read.lines.skipped === 0)) return false;
  const why = read.unusable.length > 0 ? `${read.unusable.length} file(s) not read (${sanitize(read.unusable[0]!.reason)}${read.unusable.length > 1 ? ", …" : ""})` : "";
  const bad = read.lines.skipped > 0 ? `${read.lines.skipped} bad line(s) skipped` : "";
  io.stderr(`looplens: nothing in the input could be used: ${[why, bad].filter(Boolean).join("; ")}
`);
  return true;
}

/**
 * A gate (`--fail-on`, `--max-warnings`) over an input that yielded no run at all judged nothing:
 * exit 2, said on stderr even under --quiet, rather than a green exit (an empty pipe from cron, a
 * folder of files that are not transcripts, a folder that holds no session). Without a
 * gate, an input with no run is no error: the report says 0 runs.
 */
export function nothingAnalysed(io: Io, gate: { readonly failOn?: string; readonly maxWarnings?: number }, runs: number): boolean {
  if (runs > 0) return false;
  const flag = gate.failOn !== undefined ? "--fail-on" : gate.maxWarnings !== undefined ? "--max-warnings" : undefined;
  if (flag === undefined) return false;
  io.stderr(`looplens: nothing was analysed: the input holds no run, so ${flag} had nothing to judge\n`);
  return true;
}
