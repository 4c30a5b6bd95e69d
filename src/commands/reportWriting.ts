/** How analyze writes a report to standard output: in batches, each once the one before has gone out. */
import type { ReportOutput } from "../reporters/model.js";
import type { Io } from "./common.js";

const WRITE_BATCH = 1 << 16;

/** A text in pieces of WRITE_BATCH characters (a kept output written as text). */
export function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += WRITE_BATCH) yield text.slice(at, at + WRITE_BATCH);
}

/**
 * Writes a report's pieces in writes of about WRITE_BATCH characters (a write per run would be a
 * system call per run), each once the one before has gone out (`stdoutDrained`), so that memory
 * holds one batch of the report, not all of it. `copy` is handed each write too (the output kept).
 */
export async function writeReport(io: Io, output: ReportOutput, copy?: (text: string) => void): Promise<void> {
  const write = copy ? (text: string) => (copy(text), io.stdout(text)) : io.stdout;
  if (typeof output === "string") return write(output);
  let batch = "";
  for (const piece of output) {
    batch += piece;
    if (batch.length >= WRITE_BATCH) {
      write(batch);
      batch = "";
      await io.stdoutDrained?.();
    }
  }
  if (batch !== "") write(batch);
}
