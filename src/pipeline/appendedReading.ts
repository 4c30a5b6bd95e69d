/**
 * Reading the lines appended to a grown file through the state its reading was in at the old end
 * (cache/resumeUnit.ts): what `readUnit` (reading.ts) would have gone on to do with them.
 */
import { ReadAgain, type AdapterContext, type InputFormat, type LineTally } from "../adapters/adapter.js";
import { openSource } from "../adapters/discovery.js";
import { setLineLimit, type LineSource } from "../adapters/io/lineSource.js";
import { ADAPTERS, adapterFor } from "../adapters/registry.js";
import { adapterContext, readThrough, type FileReading, type InputOptions } from "./reading.js";
import { readingSource } from "./readingSource.js";

/**
 * Reads the lines appended to a one-file unit's file through the adapter's state at the old end
 * (cache/resumeUnit.ts), as `readUnit` would have gone on: the same context, the file the unit's last.
 * Live events cannot be resumed (`live` throws); an adapter's `ReadAgain` reaches the caller.
 */
export async function readAppended(
  source: LineSource,
  adapterState: object,
  format: InputFormat,
  tally: LineTally,
  options: InputOptions,
  reading: Omit<FileReading, "forReplay" | "canReadAgain" | "lastOfUnit">,
  /** The restored state's stand-in for its adapter's context (cache/resumeUnit.ts `restore`): filled with today's. */
  restoredContext: object = {},
): Promise<{ file: string; format: InputFormat }> {
  // Set per unit, as readUnit does: the line limit is the process's.
  setLineLimit(options.maxLineBytes);
  const adapter = ADAPTERS.find((candidate) => candidate.format === format);
  if (adapter?.resume === undefined) throw new ReadAgain(source.file, `${format} files do not resume`);
  // The format is sniffed from the first lines: when the old file had fewer than the sniffer looks at, appended ones may change it.
  const whole = await openSource(source.file, { completeLines: options.completeLines === true });
  try {
    const chosen = await adapterFor(whole, options.inputFormat);
    if (!("adapter" in chosen) || chosen.adapter !== adapter) throw new ReadAgain(source.file, "the file's format reads differently grown");
  } finally {
    whole.release?.();
  }
  reading.onFile?.(source.file, format);
  const resumed: FileReading = { ...reading, forReplay: true, canReadAgain: options.canReadAgain !== false, lastOfUnit: true };
  const context: AdapterContext = Object.assign(
    restoredContext,
    adapterContext(tally, options, resumed, (state, lines) => reading.onReadThrough?.(readThrough(source, { adapter: state, lines, format, context }, resumed))),
  );
  await adapter.resume(readingSource(source, tally, options.progress, options.afterChunk), context, adapterState);
  return { file: source.file, format };
}
