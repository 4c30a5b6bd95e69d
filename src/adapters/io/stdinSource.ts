/** Standard input as a line source, streamed as it arrives (`analyze -`). */
import type { Readable } from "node:stream";
import { compressionOf, countingBytes, decompressedChunks } from "./decompression.js";
import { DecompressionError, InputError, type LineSource } from "./lineSource.js";
import { splitRawLines } from "./lineSplitter.js";
import { describeReadError, rawSource } from "./sources.js";

/**
 * Standard input as it arrives. It can be read only once, so what came is kept in memory (decompressed)
 * for adapters that read their input more than once; each pass hands over what is there, then waits
 * for more until the end. So a one-pass format streams (`tail -f … | looplens analyze - -f ndjson`:
 * each line is replayed as soon as it has come, and a finding written as it is made), and a format
 * whose first pass reads the whole input (an OpenClaw transcript names its runs first) is replayed
 * once standard input ends, as before. Compressed input is recognised by its first bytes and
 * decompressed as it comes.
 */
export async function stdinSource(stdin: Readable = process.stdin): Promise<LineSource> {
  // Opened again (a unit read a second time, after an adapter's shortcut failed: reading.ts), it is
  // the same input: standard input cannot be read twice, so a second reader gets what was kept.
  let input = arriving.get(stdin);
  if (!input) arriving.set(stdin, (input = new ArrivingInput(stdin)));
  await input.started;
  return rawSource("-", undefined, async (handler, options = {}) => {
    await splitRawLines(input.chunks(), handler, { ...options, onBytes: undefined });
    // Progress counts the bytes as they came in, once a pass is through them (as for a file).
    options.onBytes?.(input.rawBytes);
  });
}

const arriving = new WeakMap<Readable, ArrivingInput>();

/** Standard input being read in the background: the chunks so far, and a wait for the next. */
class ArrivingInput {
  private readonly kept: Buffer[] = [];
  private ended = false;
  private problem: Error | undefined;
  private wake: Array<() => void> = [];
  rawBytes = 0;
  /** Resolves once the first bytes tell whether the input is compressed (or it ended). */
  readonly started: Promise<void>;

  constructor(stdin: Readable) {
    this.started = this.pump(stdin);
  }

  /** Every chunk from the start, then the ones to come; ends (or fails as the stream did) with the input. */
  async *chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; ; ) {
      while (i < this.kept.length) yield this.kept[i++]!;
      if (this.ended) {
        if (this.problem) throw this.problem;
        return;
      }
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }

  /** Reads the head, then the rest in the background; resolves when the head is read. */
  private async pump(stdin: Readable): Promise<void> {
    const raw = stdin[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
    const head: Buffer[] = [];
    let headBytes = 0;
    for (let next = await raw.next(); ; next = await raw.next()) {
      if (next.done) {
        this.rawBytes = headBytes;
        return this.takeAll([Buffer.concat(head)]);
      }
      const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes >= 4) break;
    }
    const first = Buffer.concat(head);
    const rest = async function* (): AsyncGenerator<Buffer> {
      yield first;
      for (let next = await raw.next(); !next.done; next = await raw.next()) yield typeof next.value === "string" ? Buffer.from(next.value) : next.value;
    };
    const compression = compressionOf(first);
    const counted = countingBytes(rest(), (bytes) => (this.rawBytes += bytes));
    void this.takeAll(compression === "none" ? counted : decompressedChunks(compression, counted));
  }

  private async takeAll(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    try {
      for await (const chunk of chunks) {
        if (chunk.length === 0) continue;
        this.kept.push(chunk);
        this.wakeAll();
      }
    } catch (error) {
      // A cut-off compressed stream is the data's fault: what came before it is read, then the
      // problem is said (splitRawLines); anything else is a read error, reported as one.
      this.problem = error instanceof DecompressionError ? error : new InputError(describeReadError("-", error));
    }
    this.ended = true;
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const resolve of this.wake.splice(0)) resolve();
  }
}
