/**
 * What the library's `analyze` was given, as the pipeline reads it: paths as they are; lines, raw
 * chunks and canonical events as the bytes of standard input (`-`), which the pipeline reads from
 * memory instead of process.stdin (InputOptions.standardInput). So an in-memory input is reported as
 * the CLI reports `… | looplens`: file `-`, a run without id named `stdin`.
 */
import { InputError } from "../adapters/io/lineSource.js";
import type { AnalyzeInput, CanonicalEvent } from "./types.js";

export interface ResolvedInput {
  readonly paths: readonly string[];
  readonly standardInput?: Uint8Array;
  /** Events are read as events, whatever they look like. */
  readonly inputFormat?: "events";
}

const isString = (value: unknown): value is string => typeof value === "string";

export async function resolveInput(input: AnalyzeInput): Promise<ResolvedInput> {
  if (isString(input)) return { paths: checkedPaths([input]) };
  if (Array.isArray(input)) {
    const items = input as readonly unknown[];
    if (items.every(isString)) return { paths: checkedPaths(items) };
    if (items.every((item) => typeof item === "object" && item !== null && !(item instanceof Uint8Array))) return eventsInput(items as readonly CanonicalEvent[]);
  }
  if (isIterable(input)) return { paths: ["-"], standardInput: await bytesOf(input) };
  throw new TypeError("analyze: inputs are a path, an array of paths, an array of canonical events, or an iterable of lines or byte chunks");
}

/** `-` is the CLI's standard input: the library never reads process.stdin (pass its lines instead). */
function checkedPaths(paths: readonly string[]): readonly string[] {
  if (paths.includes("-")) throw new InputError("- (standard input) is not read by the library: pass the lines as an iterable instead");
  return paths;
}

function eventsInput(events: readonly CanonicalEvent[]): ResolvedInput {
  const text = events.map((event) => `${JSON.stringify(event)}\n`).join("");
  return { paths: ["-"], standardInput: Buffer.from(text), inputFormat: "events" };
}

function isIterable(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  return typeof value === "object" && value !== null && (Symbol.asyncIterator in value || Symbol.iterator in value);
}

/** Strings are lines (a newline each), bytes pass through; both collected, as standard input is. */
async function bytesOf(items: AsyncIterable<unknown> | Iterable<unknown>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const item of items) {
    if (isString(item)) chunks.push(Buffer.from(`${item}\n`));
    else if (item instanceof Uint8Array) chunks.push(Buffer.from(item.buffer, item.byteOffset, item.byteLength));
    else throw new TypeError(`analyze: an input iterable yields strings (lines) or byte chunks, not ${item === null ? "null" : typeof item}`);
  }
  return Buffer.concat(chunks);
}
