/**
 * A pass over the bytes of a large transcript that is the last file of its session, before it is
 * replayed, so that the replay need not keep a key for every message and every call of it:
 *
 * - which message timestamps may repeat (repeatedTimes.ts): copy keys are kept only for those;
 * - which call ids a result refusing an unavailable tool has (the runtime's own "no such tool" error):
 *   such a result is a rebuilt call only when no call before it had its id (transcriptReplay.ts),
 *   so only calls with those ids need to be remembered. They are few; keeping every call id cost
 *   ~20 MB on a 1 GB transcript of 1.7 M calls.
 *
 * Both are read cheaply and checked by the replay, which parses every line: a line the pass read
 * otherwise than the parse makes the replay's checks fail, and the file is read again without the
 * pass (`ReadAgain`). A message's timestamp is read from the end of its line (as OpenClaw writes
 * it); a line that does not end so is parsed. A result line is parsed when it holds
 * `"isError":true` (only a failed result can refuse a tool); a failed result written any
 * other way is caught by the replay (`RebuiltCallIds.confirmed`).
 */
import { afterBom, decodeLine } from "../io/decoding.js";
import type { LineSource } from "../io/lineSource.js";
import { IdSet } from "../shared/keySets.js";
import { refusesUnavailableTool, toolResultMessage } from "./messages.js";
import { messageTimestamp, repeatedTimes, TimeLog, type RepeatedTimes } from "./repeatedTimes.js";
import { classifySessionLine, entryMessage, type SessionLine } from "./sessionEntries.js";
import { SessionLineScanner } from "./sessionLineScan.js";
import { keyTime } from "./transcriptCopies.js";

/**
 * Session transcripts from this size on disk get the pass (below it, their keys cost a few MB at
 * most). A compressed file is measured compressed: only one that expands to a gigabyte or so gets
 * it, and pays one more decompression for the memory its keys would take.
 */
export const LAST_FILE_PASS_BYTES = 128 * 1024 * 1024;

/** The call ids that results refusing an unavailable tool have: only calls with these ids are remembered. */
export interface RebuiltCallIds {
  /** Whether a call with this id must be remembered. */
  needed(id: string): boolean;
  /** Told, by the replay, of a result refusing an unavailable tool: false once one had an id the pass did not find. */
  confirm(id: string): void;
  confirmed(): boolean;
}

export interface LastFileFacts {
  readonly times: RepeatedTimes;
  readonly rebuilt: RebuiltCallIds;
}

const MESSAGE_START = Buffer.from('{"type":"message",');
const TYPE_START = Buffer.from('{"type":"');
const FAILED = Buffer.from('"isError":true');
const QUOTE = 0x22;

/** What a line's first bytes show: a message, an entry of another type, or nothing plain (parse it). */
function lineStart(bytes: Buffer, start: number, end: number): "message" | "other" | "unknown" {
  if (afterBom(bytes, start, end) !== start || end - start < MESSAGE_START.length) return "unknown";
  if (bytes.compare(MESSAGE_START, 0, MESSAGE_START.length, start, start + MESSAGE_START.length) === 0) return "message";
  if (bytes.compare(TYPE_START, 0, TYPE_START.length, start, start + TYPE_START.length) !== 0) return "unknown";
  // Another type: a plain name (letters, digits, `_`, `-`, `.`, `:`) closed by a quote; a key given twice is caught by the checks.
  for (let at = start + TYPE_START.length; at < end; at++) {
    const c = bytes[at]!;
    if (c === QUOTE) return at > start + TYPE_START.length ? "other" : "unknown";
    if (!(c >= 0x61 && c <= 0x7a) && !(c >= 0x41 && c <= 0x5a) && !(c >= 0x30 && c <= 0x3a) && c !== 0x5f && c !== 0x2d && c !== 0x2e) return "unknown";
  }
  return "unknown";
}

/**
 * Finds a needle in the lines of a chunk with one search per occurrence, not one per line: lines of
 * one read come in order in one buffer (a new one per read), and a search from a line's start finds
 * the next occurrence for every line up to it. A search per line, in a view of it, cost ~0.45 µs a
 * line (~1.5 s on a 1 GB transcript of 3.5 M lines). Should a source ever refill the same buffer and
 * hand lines from the same offsets on, an occurrence could be missed: the replay's check then has
 * the file read again, never a wrong answer.
 */
class ChunkSearch {
  private bytes: Buffer | undefined;
  private from = 0;
  private at = -1;

  constructor(private readonly needle: Buffer) {}

  /** Whether `bytes[start, end)` holds the needle. */
  holds(bytes: Buffer, start: number, end: number): boolean {
    if (bytes !== this.bytes || start < this.from || (this.at !== -1 && this.at < start)) {
      this.bytes = bytes;
      this.from = start;
      this.at = bytes.indexOf(this.needle, start);
    }
    return this.at !== -1 && this.at + this.needle.length <= end;
  }
}

/** The id of a parsed result entry that refuses an unavailable tool, else undefined. */
function rebuiltCallId(parsed: SessionLine): string | undefined {
  if (parsed.kind !== "entry" || parsed.type !== "message") return undefined;
  const message = entryMessage(parsed.value);
  if (message === undefined || message.role !== "toolResult") return undefined;
  const result = toolResultMessage(message, parsed.form);
  return result.ok && result.value.id !== undefined && refusesUnavailableTool(result.value) ? result.value.id : undefined;
}

/** The pass over a source's lines as bytes (its `forEachRawLine`). */
export async function findLastFileFacts(forEachRawLine: NonNullable<LineSource["forEachRawLine"]>): Promise<LastFileFacts> {
  const times = new TimeLog();
  const rebuilt = new Set<string>();
  const scanner = new SessionLineScanner();
  const failed = new ChunkSearch(FAILED);
  await forEachRawLine((bytes, start, end, line, terminated, tooLong) => {
    // Blank, or over the line limit: the replay sees no entry there either.
    if (start === end || tooLong !== undefined) return;
    const kind = terminated ? lineStart(bytes, start, end) : "unknown";
    if (kind === "other") return;
    if (kind === "message" && !failed.holds(bytes, start, end)) {
      const time = scanner.messageTimestampAtEnd(bytes, start, end);
      if (time !== undefined) return times.see(line, keyTime(time, "bytes"));
    }
    const parsed = classifySessionLine(decodeLine(bytes, start, end).text, terminated);
    if (parsed.kind !== "entry" || parsed.type !== "message") return;
    times.see(line, keyTime(messageTimestamp(parsed.value), parsed.form));
    const id = rebuiltCallId(parsed);
    if (id !== undefined) rebuilt.add(id);
  });
  return { times: repeatedTimes(times), rebuilt: rebuiltCallIds(rebuilt) };
}

function rebuiltCallIds(ids: ReadonlySet<string>): RebuiltCallIds {
  let missed = false;
  return {
    needed: (id) => ids.has(id),
    confirm(id) {
      if (!ids.has(id)) missed = true;
    },
    confirmed: () => !missed,
  };
}

/**
 * The session's call ids as a last file with the pass sees them: its own calls are remembered only
 * when a result refusing an unavailable tool has their id; earlier files' calls are all there.
 */
export function lastFileCallIds(unitIds: IdSet, rebuilt: RebuiltCallIds): Pick<IdSet, "add" | "has"> {
  return {
    add: (id) => (rebuilt.needed(id) ? unitIds.add(id) : undefined),
    has: (id) => {
      rebuilt.confirm(id);
      return unitIds.has(id);
    },
  };
}
