/**
 * Undoing what a command leaves half-done when the process ends before the command could (its
 * temporary files: the spill folder, a report being written under a temporary name). Run on exit,
 * and on SIGINT, SIGTERM and SIGHUP, whose default action ends the process without running any
 * `exit` listener. After cleaning up, the signal is raised again with its default action back, so
 * the process ends as one killed by that signal (a shell reports 130 for ^C, 143 for SIGTERM).
 *
 * The listeners are there only while something is registered: a process with nothing to undo keeps
 * the default handling (and a test runner's process, which runs commands in-process, is left as it was).
 */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const cleanups = new Set<() => void>();

function runCleanups(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // the process is ending: the other cleanups still run
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runCleanups();
  detach();
  // Another listener (an embedding program's) decides for itself; otherwise end as the signal says.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function attach(): void {
  process.on("exit", runCleanups);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function detach(): void {
  process.removeListener("exit", runCleanups);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

/** Runs `cleanup` if the process ends (exit or signal) before the returned function is called. */
export function cleanUpOnEarlyEnd(cleanup: () => void): () => void {
  if (cleanups.size === 0) attach();
  cleanups.add(cleanup);
  return () => {
    if (!cleanups.delete(cleanup)) return;
    if (cleanups.size === 0) detach();
  };
}
