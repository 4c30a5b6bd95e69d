/** How analyze writes a report to standard output: in batches, each once the one before has gone out. */
import { StringDecoder } from "node:string_decoder";
import type { ReportOutput } from "../reporters/model.js";
import type { Io } from "./common.js";

const WRITE_BATCH = 1 << 16;
const BYTES_BATCH = 1 << 20;

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

/**
 * Writes bytes (a kept output, or a spliced one: cache/outputSplice.ts) as they are, in writes of at
 * most BYTES_BATCH that wait for standard output to drain as `writeReport`'s do. Standard output
 * that takes only text gets them decoded: a write may end within a character, the decoder
 * finishes it with the next.
 */
export async function writeBytes(io: Io, pieces: readonly Buffer[]): Promise<void> {
  const write = io.stdout.bytes;
  const decoder = write === undefined ? new StringDecoder("utf8") : undefined;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += BYTES_BATCH) {
      const part = piece.subarray(at, at + BYTES_BATCH);
      if (decoder) io.stdout(decoder.write(part));
      else write!(part);
      await io.stdoutDrained?.();
    }
  }
  if (decoder) {
    const rest = decoder.end();
    if (rest !== "") io.stdout(rest);
  }
}
