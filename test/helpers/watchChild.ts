/**
 * `looplens watch` run as a child process, as a user runs it: its stdout lines gathered as they
 * come, helpers to wait for a line, and a stop by signal. Every child started is killed by
 * `killWatchChildren()` (call it in afterEach), whatever the test did.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { BIN, ROOT } from "./cli.js";
import { tempDir } from "./tempDir.js";

const children = new Set<ChildProcess>();
const folders = new Set<string>();

export interface WatchChild {
  readonly process: ChildProcess;
  /** Stdout lines so far. */
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the first line (from `from` on) that `test` accepts; rejects after `timeoutMs`. */
  waitFor(test: (line: string) => boolean, timeoutMs?: number, from?: number): Promise<string>;
  /** Resolves once `condition()` holds (checked as lines come), rejects after `timeoutMs`. */
  waitUntil(condition: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (and signal) once the process is gone. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGINT and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWatch(args: readonly string[], env: NodeJS.ProcessEnv = {}): WatchChild {
  const child = spawn(process.execPath, [BIN, "watch", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...env },
  });
  children.add(child);
  const lines: string[] = [];
  let partial = "";
  let errors = "";
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    for (const line of parts) lines.push(line);
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => {
      children.delete(child);
      if (partial !== "") lines.push(partial);
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  const waitFor = (test: (line: string) => boolean, timeoutMs = 15_000, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find(test);
        if (found !== undefined) {
          done();
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`watch exited before the line came; stderr: ${errors}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no such line within ${timeoutMs} ms; stdout: ${lines.slice(-5).join(" | ")}; stderr: ${errors}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    process: child,
    lines,
    stderr: () => errors,
    waitFor,
    // Checked once per chunk of output, not once per line.
    waitUntil: (condition, timeoutMs) => {
      let checked = -1;
      return waitFor(() => (checked === lines.length ? false : ((checked = lines.length), condition())), timeoutMs, Math.max(0, lines.length - 1)).then(() => undefined);
    },
    exited: () => exit,
    stop: (signal = "SIGINT") => {
      child.kill(signal);
      return exit;
    },
  };
}

/** Kills every watch child still running (afterEach). */
export async function killWatchChildren(): Promise<void> {
  const running = [...children];
  for (const child of running) child.kill("SIGKILL");
  await Promise.all(running.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("close", resolve)))));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}

/** A fresh temporary folder (tempDir.ts), removed early by `killWatchChildren()` once its watch is gone. */
export function watchFolder(): string {
  const folder = tempDir("looplens-watch-");
  folders.add(folder);
  return folder;
}

/** The parsed JSON lines of a watch's stdout. */
export const jsonLines = (lines: readonly string[]) => lines.filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>);

export const isReady = (line: string) => line.startsWith('{"type":"ready"');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
