/**
 * `looplens watch --exec -- CMD [ARG…]`: a command run for each finding at or above `--notify-on`.
 *
 * - The command is spawned directly, never through a shell, with the arguments exactly as given:
 *   nothing from the input is ever spliced into them (a file named `x; rm -rf ~` or `$(…)` is only
 *   ever data: on the command's stdin as the finding's JSON line, and in its environment as
 *   LOOPLENS_RUN, LOOPLENS_LEVEL, LOOPLENS_DETECTOR, LOOPLENS_TOOL, LOOPLENS_FILE, LOOPLENS_LINE).
 * - One runs at a time, in the order of the findings; the ones waiting are a bounded queue: when
 *   it is full the oldest waiting one is dropped, said in a notice. A command that runs longer than
 *   the timeout is killed (SIGTERM, then SIGKILL) and said. A failing command (cannot start, exits
 *   non-zero, killed by a signal) is said. None of it holds up the watch: it runs beside it.
 * - The command's stdout and stderr go to looplens's stderr, so that `--format ndjson` stays the
 *   only thing on stdout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Finding } from "../../core/findings.js";

export interface FindingCommandOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly queueLimit: number;
  readonly env: NodeJS.ProcessEnv;
  /** A notice for stderr (failures, drops). */
  readonly onNotice: (text: string) => void;
  /** The command's own output, for stderr. */
  readonly onOutput: (chunk: Buffer) => void;
}

interface Job {
  readonly finding: Finding;
  readonly json: string;
}

/** After SIGTERM, this long before SIGKILL. */
const KILL_GRACE_MS = 2000;

/** Environment values cannot hold NUL (spawn refuses them); a tool name from the input might. */
const envValue = (text: string) => text.replace(/\u0000/g, "\ufffd");

const describe = (finding: Finding) => `${finding.run ?? "(no run)"} call ${finding.call ?? "?"} (${finding.detector} ${finding.level})`;

export class FindingCommand {
  private readonly queue: Job[] = [];
  private running: ChildProcess | undefined;
  private drained: Array<() => void> = [];
  private closed = false;
  /** Commands run, and how many failed (the summary says so). */
  readonly counts = { run: 0, failed: 0, dropped: 0 };

  constructor(private readonly options: FindingCommandOptions) {}

  submit(finding: Finding, json: string): void {
    if (this.closed) return;
    if (this.queue.length >= this.options.queueLimit) {
      const dropped = this.queue.shift()!;
      this.counts.dropped++;
      this.options.onNotice(`--exec: ${this.options.queueLimit} commands waiting; dropped the one for ${describe(dropped.finding)}`);
    }
    this.queue.push({ finding, json });
    this.next();
  }

  /** Resolves once every queued command has run (or was killed). */
  drain(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** Stops: the waiting ones are dropped, the running one killed. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.running?.kill("SIGKILL");
  }

  private next(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      for (const resolve of this.drained.splice(0)) resolve();
      return;
    }
    this.run(job);
  }

  private run({ finding, json }: Job): void {
    const { command, args, env, timeoutMs } = this.options;
    this.counts.run++;
    const child = spawn(command, [...args], {
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        ...env,
        LOOPLENS_RUN: envValue(finding.run ?? ""),
        LOOPLENS_LEVEL: finding.level,
        LOOPLENS_DETECTOR: finding.detector,
        LOOPLENS_TOOL: envValue(finding.tool),
        LOOPLENS_FILE: envValue(finding.file),
        LOOPLENS_LINE: String(finding.line),
      },
    });
    this.running = child;
    let outcome: string | undefined;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(() => {
      outcome = `timed out after ${timeoutMs} ms and was killed`;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    }, timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => this.options.onOutput(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.options.onOutput(chunk));
    // A command that does not read its input closes the pipe: that is its business.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(json);
    child.on("error", (error: NodeJS.ErrnoException) => (outcome ??= `could not be started (${error.code ?? error.message})`));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      if (outcome === undefined && code !== 0) outcome = code === null ? `was killed by ${signal}` : `exited with status ${code}`;
      if (outcome !== undefined && !this.closed) {
        this.counts.failed++;
        this.options.onNotice(`--exec: ${command} ${outcome} (for ${describe(finding)})`);
      }
      this.running = undefined;
      this.next();
    });
  }
}
