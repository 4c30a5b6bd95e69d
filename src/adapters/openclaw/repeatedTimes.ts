/**
 * Which message timestamps a large transcript repeats, so that copy detection keeps the keys of only
 * those messages. A copy (transcriptCopies.ts) has the `message.timestamp` of the message it copies,
 * so a message whose timestamp no other message of the file has can be neither a copy of one in the
 * file nor copied by one: its key need not be kept. Keeping every key cost ~44 MB at the peak of a
 * 1 GB transcript of 3.4 M small messages (bench: 172 against 128 MB peak RSS without them).
 *
 * Which timestamps repeat is found by a pass before the replay, over the lines' bytes: messages are
 * written as they happen, so their timestamps rise, and a value that comes again is at most the
 * largest one met before it. Every timestamp that is not above the largest before it (numbers and
 * strings compared apart: a number never equals a string) is kept as possibly repeated — exactly the
 * repeated ones and a few more, in any order of the file. A transcript whose timestamps do not rise
 * keeps more keys, never fewer than it needs.
 *
 * The pass (lastFilePass.ts) reads a message's timestamp from the end of its line, as OpenClaw
 * writes it, and parses the lines it cannot read so. The end of a line can lie (a line cut by a
 * crash and continued by another write): every message timestamp read is folded into a checksum,
 * the replay folds the same timestamps as it parses them into another (`confirm`), and when the two
 * differ the file is read again without the pass.
 */
import type { StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { KeySet } from "../shared/keySets.js";
import { KeyHash } from "../shared/textHash.js";
import { addTime, keyTime } from "./transcriptCopies.js";

export interface RepeatedTimes {
  /** Whether another message of the file may have this `message.timestamp` (its copy key must be kept). */
  mayRepeat(raw: unknown, form: StringForm): boolean;
  /** Hands the replay's `message.timestamp` of each message entry over, in order (undefined: none). */
  confirm(line: number, raw: unknown, form: StringForm): void;
  /** After the replay: false when a timestamp read from bytes parsed differently (read the file again). */
  confirmed(): boolean;
}

/** The `message.timestamp` of a message entry as parsed (undefined without a message object). */
export function messageTimestamp(entry: Record<string, unknown>): unknown {
  const message = own(entry, "message");
  return isPlainObject(message) ? own(message, "timestamp") : undefined;
}

function timeKey(time: number | string): number {
  const key = new KeyHash();
  addTime(key, time);
  return key.value();
}

/** Folds one message's timestamp (`keyTime`, undefined: none) into a checksum, the same way from bytes and parsed. */
function fold(sum: KeyHash, line: number, time: number | string | undefined): void {
  sum.number(line);
  if (time === undefined) sum.absent();
  else addTime(sum, time);
}

/** The timestamps met so far and the ones that may repeat (fed line by line by the pass, lastFilePass.ts). */
export class TimeLog {
  private topNumber = -Infinity;
  private topText: string | undefined;
  readonly repeated = new KeySet();
  readonly checksum = new KeyHash();

  /** A message entry's timestamp (`keyTime`, transcriptCopies.ts: undefined when it has none). */
  see(line: number, time: number | string | undefined): void {
    fold(this.checksum, line, time);
    if (time === undefined) return;
    if (typeof time === "number" ? time <= this.topNumber : this.topText !== undefined && time <= this.topText) this.repeated.add(timeKey(time));
    else if (typeof time === "number") this.topNumber = time;
    else this.topText = time;
  }
}

/** What the replay asks of a finished log. */
export function repeatedTimes(log: TimeLog): RepeatedTimes {
  const replayed = new KeyHash();
  const { repeated, checksum } = log;
  return {
    mayRepeat: (raw, form) => {
      const time = keyTime(raw, form);
      return time !== undefined && repeated.has(timeKey(time));
    },
    confirm: (line, raw, form) => fold(replayed, line, keyTime(raw, form)),
    confirmed: () => replayed.equals(checksum),
  };
}
