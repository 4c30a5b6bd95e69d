/** The line sources of reading.ts, wrapped for the tally and for progress. */
import type { LineTally } from "../adapters/adapter.js";
import type { LineSource, RawLineHandler, ReadOptions } from "../adapters/io/lineSource.js";
import type { InputProgress } from "./progress.js";

/** The first problem of a compressed stream met while the source was read (`reason` unset: none). */
export interface StreamProblemSeen {
  reason?: string;
}

/**
 * The source as the pipeline reads it: a cut-off compressed stream is noted once in the tally
 * (adapters may read a file twice), and progress, when asked for, gets bytes and lines per chunk.
 */
export function readingSource(
  source: LineSource,
  tally: LineTally,
  progress: InputProgress | undefined,
  afterChunk: ReadOptions["afterChunk"],
  seen: StreamProblemSeen = {},
): LineSource {
  const onStreamProblem = (afterLine: number, reason: string) => {
    if (seen.reason !== undefined) return;
    seen.reason = reason;
    tally.note({ file: source.file, line: Math.max(afterLine, 1), reason });
  };
  /** Read options for one pass, and a line counter for progress (called once per line). */
  const pass = (readOptions: ReadOptions | undefined): { options: ReadOptions; countLine?: () => void } => {
    const common = { ...readOptions, onStreamProblem, ...(afterChunk && { afterChunk }) };
    if (!progress) return { options: common };
    const counted = progress.pass(source.file);
    let lines = 0;
    const onBytes = (bytes: number) => {
      counted(bytes, lines);
      lines = 0;
    };
    return { options: { ...common, onBytes }, countLine: () => void lines++ };
  };
  const forEachRawLine = source.forEachRawLine?.bind(source);
  const mayContain = source.mayContain?.bind(source);
  return {
    file: source.file,
    size: source.size,
    ...(mayContain && { mayContain }),
    forEachLine(handler, readOptions) {
      const { options, countLine } = pass(readOptions);
      return source.forEachLine(counting(handler, countLine), options);
    },
    ...(forEachRawLine && {
      forEachRawLine(handler: RawLineHandler, readOptions?: ReadOptions) {
        const { options, countLine } = pass(readOptions);
        return forEachRawLine(counting(handler, countLine), options);
      },
    }),
  };
}

/** `handler`, calling `countLine` before each line when progress is counted. */
function counting<A extends unknown[], R>(handler: (...args: A) => R, countLine: (() => void) | undefined): (...args: A) => R {
  if (!countLine) return handler;
  return (...args) => {
    countLine();
    return handler(...args);
  };
}
