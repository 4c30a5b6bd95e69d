/**
 * The resume point a unit follower carries from one analysis to the next (watch.md §2 "Growth": the
 * resumable state the result cache keeps, docs/performance.md "What `watch` shares"), so that a
 * watched file that grew costs its appended lines, not its whole replay.
 *
 * What is kept, in memory: the last analysis's point (`FileAnalysis.resume`: the replay state encoded,
 * the replayer itself is finished once the point is taken), the runs it had handed out before the
 * point (final: the resumed analysis's first runs), and where its reading stopped (`end`: with
 * `completeLines` a file is read up to its last newline, not its size). Only for one-file units whose
 * adapter can resume, read as plain lines (a compressed file or a `.json` document tells no `end`).
 *
 * When it serves: the file is the same one, only grown — the same lineage generation (fileLineage.ts
 * tells a truncation or a rewrite of the first bytes), the same inode, no shorter than `end`, and its
 * last bytes before `end` as they were (a truncation followed by growth between two looks, which the
 * lineage cannot see past its first 4 KB). No prefix is hashed whole: that is the cache's check,
 * across processes; a watch saw the file all along. Otherwise the unit is read in full.
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { FileAnalysis } from "../fileAnalysis.js";
import type { ResumeFrom } from "../cache/resumeUnit.js";
import { rangeHash, type FileStamp } from "./fileLineage.js";

/** How much of the file before the point's end is compared. */
const TAIL_BYTES = 4096;

export class FollowedPoint {
  private constructor(
    private readonly from: ResumeFrom,
    private readonly file: string,
    private readonly token: string,
    private readonly inode: string,
    private readonly tail: string | undefined,
  ) {}

  /**
   * The point of `analysis` of `unit`, as read under lineage `token` from the file of `stamp`;
   * undefined when it kept none (or none that says where its reading stopped).
   */
  static of(unit: InputUnit, analysis: FileAnalysis, token: string, stamp: FileStamp | undefined): FollowedPoint | undefined {
    const point = analysis.resume;
    const file = unit[0];
    if (unit.length !== 1 || file === undefined || point?.end === undefined || stamp === undefined || analysis.spilled !== undefined) return undefined;
    const tail = tailHash(file, point.end);
    if (tail === undefined) return undefined;
    const from: ResumeFrom = { ...point, oldRuns: analysis.runs.slice(0, point.handedOut), size: point.end };
    return new FollowedPoint(from, file, token, inodeKey(stamp), tail);
  }

  /** Where to go on from, when the file (now `stamp`, under lineage `token`) only grew since; undefined: read it in full. */
  fromIfGrown(token: string, stamp: FileStamp | undefined): ResumeFrom | undefined {
    if (stamp === undefined || token !== this.token || inodeKey(stamp) !== this.inode || stamp.size < this.from.size) return undefined;
    return tailHash(this.file, this.from.size) === this.tail ? this.from : undefined;
  }
}

const inodeKey = (stamp: FileStamp) => `${stamp.dev}:${stamp.ino}`;

/** A hash of the (at most TAIL_BYTES) bytes before `end`; undefined when they cannot be read. */
function tailHash(path: string, end: number): string | undefined {
  const length = Math.min(end, TAIL_BYTES);
  return rangeHash(path, end - length, length);
}
