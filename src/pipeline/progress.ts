/**
 * Progress of a long read (cli.md "Long work"), counted in input bytes: each file's bytes count once,
 * however many passes read it — session transcripts take two, a failed shortcut (`ReadAgain`) reads
 * a unit again, `sweep --vary profile` prepares the input once per profile. So the bar's total is the
 * input's size, what it shows never passes it, and it never goes backwards; a later pass only moves
 * it where it reaches further into its file than any pass before.
 */
import { statSync } from "node:fs";
import { expandUnits, type InputUnit } from "../adapters/discovery.js";

/** Told as input is read: bytes read for the first time and lines split, since the last call. */
export type ProgressSink = (bytes: number, lines: number) => void;

/** A progress display for this many bytes of input (commands/progressDisplay.ts), or none. */
export type StartProgress = (totalBytes: number) => { update: ProgressSink; done(): void } | undefined;

export class InputProgress {
  /** How far into each file any pass has read. */
  private readonly furthest = new Map<string, number>();

  constructor(private readonly report: ProgressSink) {}

  /** One pass over `file`, from its start: the callback takes the bytes and lines read since its last call. */
  pass(file: string): ProgressSink {
    let position = 0;
    return (bytes, lines) => {
      position += bytes;
      const reached = this.furthest.get(file) ?? 0;
      const fresh = position > reached ? position - reached : 0;
      if (fresh > 0) this.furthest.set(file, position);
      if (fresh > 0 || lines > 0) this.report(fresh, lines);
    };
  }
}

/**
 * A file's size (0 for standard input, unknown before it is read, and for a file that went away:
 * opening it reports that). Synchronous: a state folder's 7,241 files took 150 ms of asynchronous
 * stats (a thread-pool round trip and a promise each) before any was read, and 20 ms this way.
 */
export function sizeOf(file: string): number {
  if (file === "-") return 0;
  try {
    return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    return 0;
  }
}

/** Each input file's size, once per file even when named twice. */
export function fileSizes(units: readonly InputUnit[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const unit of units) for (const file of unit) if (!sizes.has(file)) sizes.set(file, sizeOf(file));
  return sizes;
}

/** The bytes of the input (`fileSizes`): each file once. */
export function inputBytes(sizes: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}

/** A progress display started for the input's size (if the command shows one), and its end. */
export interface RunningProgress {
  readonly progress: InputProgress | undefined;
  /** The display itself, for bytes counted elsewhere (a worker thread counts its own files' passes). */
  readonly update: ProgressSink | undefined;
  /** The progress of each of `passes` reads of the whole input, one after another (`sweep --vary profile`). */
  pass(index: number): InputProgress | undefined;
  /** Erases the bar (it draws again at the next update: call before writing to the same terminal). */
  clear(): void;
}

/**
 * `passes`: how many times the input is read through, one read after another; the bar's total is
 * then the input's size that many times, so that it does not stand at 100% through the later reads.
 */
export async function startInputProgress(paths: readonly string[], start: StartProgress | undefined, passes = 1): Promise<RunningProgress> {
  const display = start?.(passes * inputBytes(fileSizes(await expandUnits(paths))));
  const progresses = display ? Array.from({ length: passes }, () => new InputProgress(display.update)) : [];
  return { progress: progresses[0], update: display?.update, pass: (index) => progresses[index], clear: () => display?.done() };
}
