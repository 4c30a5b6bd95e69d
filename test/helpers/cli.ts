/** Runs the real, compiled CLI (bin/looplens) as a user would, capturing output and exit status. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/looplens", import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `input`: what standard input holds (empty by default), through Node's stdin "pipe", which is a
 * socket: with no path the CLI reads the state directory, as it does for any socket. `stdin`
 * says otherwise: "pipe" passes `input` through a real pipe, as a shell's `… | looplens` does (sh
 * and cat make it: Node makes no FIFO); "null" gives /dev/null, as cron and CI do; a number is an
 * open file descriptor (`looplens < file`). The calling shell's width and colour variables are not
 * passed on.
 */
export function runCli(args: readonly string[], options: { input?: string | Buffer; stdin?: "pipe" | "null" | number; cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const [program, programArgs] = options.stdin === "pipe" ? ["/bin/sh", ["-c", 'cat | "$0" "$@"', process.execPath, BIN, ...args]] : [process.execPath, [BIN, ...args]];
  const stdin = options.stdin === "null" ? "ignore" : typeof options.stdin === "number" ? options.stdin : undefined;
  const result = spawnSync(program, programArgs, {
    cwd: options.cwd ?? ROOT,
    ...(stdin !== undefined ? { stdio: [stdin, "pipe", "pipe"] } : { input: options.input ?? "" }),
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, COLUMNS: undefined, ...options.env },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Findings from `--format ndjson`, parsed. */
export function ndjsonFindings(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The same CLI, run in this process through `main()` with captured output: for the many small
 * option checks where spawning a Node process per case would make the suite slow. Paths resolve
 * against the working directory of the test run (the project root).
 */
export async function runMain(args: readonly string[], options: { env?: NodeJS.ProcessEnv; stdoutIsTTY?: boolean; columns?: number } = {}): Promise<CliResult> {
  const { main } = await import("../../src/cli.js");
  let stdout = "";
  let stderr = "";
  const status = await main(["node", "looplens", ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stdin: "terminal",
    stderrIsTTY: false,
    columns: options.columns ?? 80,
    env: { NO_COLOR: "1", HOME: process.env.HOME, LOOPLENS_CACHE_DIR: process.env.LOOPLENS_CACHE_DIR, ...options.env },
  });
  return { status, stdout, stderr };
}

/** The six canonical-event fixtures at the top of fixtures/ (other folders hold format-specific ones). */
export const BASE_FIXTURES = [
  "fixtures/compaction-loop.jsonl",
  "fixtures/generic-repeat.jsonl",
  "fixtures/healthy.jsonl",
  "fixtures/ping-pong.jsonl",
  "fixtures/poll-loop.jsonl",
  "fixtures/unknown-tool.jsonl",
];

/**
 * An Io for `main()` that records each write as "w" and each drain as "d" in `steps` (a drain
 * resolves on the next turn of the event loop, as a pipe's would), and keeps what was written.
 */
export function drainTracingIo(steps: string[]): { io: import("../../src/commands/common.js").Io; output: () => string } {
  let out = "";
  const io = {
    stdout: (text: string) => {
      steps.push("w");
      out += text;
    },
    stdoutDrained: () => new Promise<void>((resolve) => setImmediate(() => (steps.push("d"), resolve()))),
    stderr: () => {},
    stdoutIsTTY: false,
    stdin: "terminal" as const,
    stderrIsTTY: false,
    columns: 80,
    env: { NO_COLOR: "1", LOOPLENS_CACHE_DIR: process.env.LOOPLENS_CACHE_DIR },
  };
  return { io, output: () => out };
}
