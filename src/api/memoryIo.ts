/** An Io that writes nowhere but memory: the pipeline's helpers that say things on stderr say them here. */
import type { Io } from "../commands/common.js";

export interface MemoryIo extends Io {
  /** What was written to stderr (the CLI's messages, word for word). */
  stderrText(): string;
}

export function memoryIo(env: NodeJS.ProcessEnv): MemoryIo {
  let stderr = "";
  return {
    stdout: () => undefined,
    stderr: (text) => void (stderr += text),
    stderrText: () => stderr,
    stdoutIsTTY: false,
    // No path given reads the state directory, never the process's standard input.
    stdin: "closed",
    stderrIsTTY: false,
    columns: undefined,
    env,
  };
}
