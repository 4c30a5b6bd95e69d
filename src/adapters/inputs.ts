/**
 * From the paths a user typed to line sources with a known format: folders are walked recursively
 * (`*.jsonl`, `*.ndjson`, `*.log` and their compressed forms, in sorted order), `-` is standard input,
 * and each file's format is sniffed from its first meaningful lines unless forced.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isBlank, MAX_SAMPLE_LINE, type InputAdapter, type InputFormat } from "./adapter.js";
import { canonicalEventsAdapter } from "./canonicalEvents.js";
import { gatewayLogAdapter } from "./gatewayLog.js";
import { describeReadError, fileSource, InputError, stdinSource, type LineSource } from "./lineSource.js";
import { openclawSessionAdapter } from "./openclawSession.js";
import { openclawTrajectoryAdapter } from "./openclawTrajectory.js";

export { InputError };

/** Every known format, in sniffing order (most specific first; canonical events last). */
export const ADAPTERS: readonly InputAdapter[] = [
  openclawTrajectoryAdapter,
  openclawSessionAdapter,
  gatewayLogAdapter,
  canonicalEventsAdapter,
];

export const INPUT_FORMATS: readonly InputFormat[] = ADAPTERS.map((adapter) => adapter.format);

const INPUT_FILE = /\.(jsonl|ndjson|log)(\.(gz|zst))?$/i;

/** A bare word that names no file was probably meant as a subcommand. */
function describeMissingPath(path: string, error: unknown): string {
  const message = describeReadError(path, error);
  const isBareWord = /^[a-z][a-z0-9-]*$/i.test(path) && (error as NodeJS.ErrnoException)?.code === "ENOENT";
  return isBareWord ? `${message} (and it is not a command: see looplens --help)` : message;
}

async function walk(dir: string, into: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, into);
    else if (entry.isFile() && INPUT_FILE.test(entry.name)) into.push(path);
  }
}

/** Expands folders; a missing path or a folder without inputs is an `InputError`. */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (path === "-") {
      files.push(path);
      continue;
    }
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new InputError(describeMissingPath(path, error));
    }
    if (info.isDirectory()) {
      const found: string[] = [];
      try {
        await walk(path, found);
      } catch (error) {
        throw new InputError(describeReadError(path, error));
      }
      if (found.length === 0) throw new InputError(`no input files (*.jsonl, *.ndjson, *.log, optionally .gz/.zst) under ${path}`);
      for (const file of found) files.push(file); // push(...found) overflows the stack past ~100k files
    } else {
      files.push(path);
    }
  }
  return files;
}

export async function openSource(path: string): Promise<LineSource> {
  try {
    return path === "-" ? await stdinSource() : await fileSource(path);
  } catch (error) {
    throw new InputError(describeReadError(path, error));
  }
}

const SNIFF_LINES = 5;
const SNIFF_MAX_LINES = 50;

/** First few meaningful lines, parsed when they are JSON (raw text otherwise); huge lines are passed over. */
async function samplesOf(source: LineSource): Promise<unknown[]> {
  const samples: unknown[] = [];
  await source.forEachLine(
    (text, line, _terminated, problem) => {
      if (problem?.tooLong === undefined && !isBlank(text) && text.length <= MAX_SAMPLE_LINE) {
        try {
          samples.push(JSON.parse(text));
        } catch {
          samples.push(text);
        }
      }
      return samples.length < SNIFF_LINES && line < SNIFF_MAX_LINES;
    },
    { maxLineBytes: MAX_SAMPLE_LINE },
  );
  return samples;
}

/** The adapter for a source: forced, sniffed, or canonical events when nothing matches. */
export async function adapterFor(source: LineSource, forced?: InputFormat): Promise<{ adapter: InputAdapter; sniffed: boolean }> {
  if (forced) {
    const adapter = ADAPTERS.find((a) => a.format === forced);
    if (!adapter) throw new InputError(`unknown input format ${JSON.stringify(forced)}`);
    return { adapter, sniffed: true };
  }
  const samples = await samplesOf(source);
  const adapter = ADAPTERS.find((a) => a.sniff(samples));
  return adapter ? { adapter, sniffed: true } : { adapter: canonicalEventsAdapter, sniffed: samples.length === 0 };
}
