/**
 * OpenClaw session transcripts (pi session format v3, inputs.md §2):
 * `~/.openclaw/agents/<agentId>/sessions/<sessionId>.jsonl`, its archives (`….jsonl.reset.<ts>`,
 * `….jsonl.deleted.<ts>`, `….jsonl.bak-<n>-<ms>`, checkpoints), and the same rows in a SQLite store.
 *
 * Two passes: `scanSession` settles the run names (and, with --active-branch, the branch ending at
 * the last entry), reading most lines from their bytes when the caller can start over (see
 * sessionTree.ts); the second pass (`SessionReader`, sessionReader.ts) replays every executed call
 * once, in file order, through `TranscriptReplay`. A one-file session that grew goes on from the
 * reader's state at its old end (`resume`), after the first pass run again agrees. Not replayed again: entries an earlier file of the session held (by id:
 * counted as duplicates, said once per session), and rewritten copies of earlier messages
 * (transcriptCopies.ts: counted as copies). Each line is accounted for once: the header, user
 * messages, assistant messages with tool calls, tool results, compactions and run-naming custom
 * entries are used; other known entries, copies, duplicates, entries off the active branch and blank
 * lines are ignored (unknown entry types with a diagnostic); bad lines are skipped.
 *
 * Identity: the agent id from the path (`agents/<agentId>/`), the session id from the file name
 * (what the runtime's own entries, such as the bootstrap's `data.sessionId`, use: real archives
 * exist whose header id differs), else the header. No `ts` is emitted: the detectors do not use time.
 */
import { OPENCLAW_SESSION_FILES } from "./sessionInputs.js";
import { openclawHomes } from "./stateDirectory.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { ReadAgain, type AdapterContext, type InputAdapter } from "../adapter.js";
import { sessionFileName } from "./sessionFiles.js";
import type { LineSource } from "../io/lineSource.js";
import { fileSource } from "../io/sources.js";
import { sidecarOf } from "./sidecarPreface.js";
import { sessionIdFromFileName } from "./identity.js";
import { QUIET_ENTRY_TYPES, classifySessionBytes, classifySessionLine, type SessionLine } from "./sessionEntries.js";
import { scanSession, type SessionScan } from "./sessionTree.js";
import { SESSION_STATE_CLASSES, SessionReader, SessionReading } from "./sessionReader.js";
import { LAST_FILE_PASS_BYTES, findLastFileFacts, type LastFileFacts } from "./lastFilePass.js";
import { storeChannel } from "./sessionStore.js";

const ENTRY_TYPES = new Set(["message", "custom", "compaction", ...QUIET_ENTRY_TYPES]);

/** A header line, or an entry of a known type with a `parentId` (which canonical events never have). */
function looksLikeSession(sample: unknown): boolean {
  if (!isPlainObject(sample)) return false;
  const type = own(sample, "type");
  if (type === "session") return own(sample, "version") !== undefined || own(sample, "id") !== undefined;
  return typeof type === "string" && ENTRY_TYPES.has(type) && Object.prototype.hasOwnProperty.call(sample, "parentId");
}

/**
 * What a pass finds of a large transcript that no later file of its unit reads after (its copy keys
 * and call ids are then needed only for itself), when the file can be read again.
 */
async function lastFileFactsOf(source: LineSource, context: AdapterContext): Promise<LastFileFacts | undefined> {
  const { activeBranch, canReadAgain, lastOfUnit, lastFilePassBytes = LAST_FILE_PASS_BYTES } = context.options;
  if (activeBranch === true || canReadAgain !== true || lastOfUnit !== true || !source.forEachRawLine) return undefined;
  if (source.size === undefined || source.size < lastFilePassBytes) return undefined;
  return findLastFileFacts(source.forEachRawLine.bind(source));
}

export const openclawSessionAdapter: InputAdapter = {
  format: "openclaw-session",
  agent: { kind: "openclaw", homes: openclawHomes },
  files: OPENCLAW_SESSION_FILES,

  sniff(samples) {
    return samples.some(looksLikeSession);
  },

  async read(source: LineSource, context: AdapterContext) {
    const file = source.file;
    const { activeBranch = false, canReadAgain = false } = context.options;
    const { unit } = context;
    // With its sidecar, the runs are matched to the sidecar's by their user messages' times (sidecarRuns.ts).
    const sidecar = sidecarOf(unit);
    const countsSegments = sidecar !== false;
    const scan = await scanSession(source, { activeBranch, fromBytes: canReadAgain, earlierIds: unit.entryIds, earlierMessages: unit.messageKeys, countsSegments });
    for (const { line, parentId } of scan.dangling) {
      context.tally.note({ file, line, reason: `parentId ${quote(parentId)} matches no earlier entry; the branch continues at the entry before it` });
    }
    const resumable = keepsPoint(context, scan);
    const facts = resumable ? undefined : await lastFileFactsOf(source, context);
    const names = sidecar === false ? scan.segmentNames : sidecar.nameSegments(scan.segmentNames, scan.segmentTimes);
    const reader = new SessionReader(context, file, names, facts);
    // Where the runs came in: the sidecar's session key, else the session store's entry.
    if (context.facts !== undefined) reader.channel = (sidecar !== false ? sidecar.channel : undefined) ?? (await storeChannel(file, sessionFileName(file)?.sessionId ?? sessionIdFromFileName(file)));
    await readLines(source, context, scan, reader);
    if (facts?.times.confirmed() === false) throw new ReadAgain(file, "a message timestamp read from its bytes parsed differently");
    if (facts?.rebuilt.confirmed() === false) throw new ReadAgain(file, "a result refusing an unavailable tool was not found by the first pass");
    if (resumable) context.onReadThrough!(new SessionReading(reader, !scan.skipped), reader.lastLine);
    reader.end();
  },

  /**
   * Lines appended to a transcript read through (docs/performance.md, "Resuming a grown file"): the
   * first pass is run again over the whole file (bytes, not JSON: the cheap part), and the reader
   * goes on only when what it says of the old lines is what the reader went by: the same names for
   * the segments read, no later segment named as one of them (a run ended as final would come back).
   * Else the file is read again whole.
   */
  async resume(source: LineSource, context: AdapterContext, state: object) {
    if (!(state instanceof SessionReading)) throw new ReadAgain(source.file, "no state of a session transcript to resume from");
    const { reader, named } = state;
    const whole = await fileSource(source.file);
    let scan: SessionScan;
    try {
      // File order, one file: no earlier file's keys; the old lines' facts were confirmed by the read that kept the point.
      scan = await scanSession(whole, { activeBranch: false, fromBytes: true, confirmedUpTo: reader.lastLine });
    } finally {
      whole.release?.();
    }
    // The old lines' facts were read from bytes but never parsed when that pass was skipped: then they cannot be gone on from.
    if (!named && !scan.skipped) throw new ReadAgain(source.file, "the appended lines are the first to name runs");
    if (!reader.grown(scan.segmentNames)) throw new ReadAgain(source.file, "the appended lines rename runs of the old part");
    await readLines(source, context, scan, reader);
    context.onReadThrough?.(state, reader.lastLine);
    reader.end();
  },

  get stateClasses() {
    return SESSION_STATE_CLASSES;
  },
};

/**
 * Whether a point is kept to resume this file from when it grows (asked by the cache: `onReadThrough`):
 * a unit of this one file (a sidecar names runs by a first pass of its own, and a unit's files share
 * one replay), in file order (the active branch depends on the file's last entry), read with the
 * first pass from bytes (so that a resume's pass, from bytes, reads the old lines as confirmed).
 */
function keepsPoint(context: AdapterContext, scan: SessionScan): boolean {
  const { activeBranch = false, canReadAgain = false } = context.options;
  return context.onReadThrough !== undefined && context.unit.files.length === 1 && context.unit.preface === false && !activeBranch && canReadAgain && scan.dangling.length === 0;
}

/** The second pass: every line of `source` through `reader`, checked against the first pass (`scan`). */
async function readLines(source: LineSource, context: AdapterContext, scan: SessionScan, reader: SessionReader): Promise<void> {
  const file = source.file;
  const onLine = (classified: SessionLine, line: number) => {
    reader.lastLine = line;
    scan.confirm(line, classified);
    if ("notice" in classified && classified.notice !== undefined) context.tally.note({ file, line, reason: classified.notice });
    switch (classified.kind) {
      case "blank":
        return context.tally.ignored();
      case "bad":
        return context.tally.skipped(file, line, classified.reason);
      case "header":
        return reader.header(line, classified.value, classified.form);
      case "entry":
        return reader.entry(line, classified.type, classified.value, classified.form, scan.replayed(line));
    }
  };
  // Arguments and results may stay byte strings (jsonBytes.ts) when only hashing will read them.
  if (context.options.bytePayloads && source.forEachRawLine) {
    await source.forEachRawLine((bytes, start, end, line, terminated, tooLong) => onLine(classifySessionBytes(bytes, start, end, terminated, tooLong), line));
  } else {
    await source.forEachLine((text, line, terminated, problem) => onLine(classifySessionLine(text, terminated, problem), line));
  }
  if (!scan.confirmed()) throw new ReadAgain(file, "a line read from its bytes in the first pass parsed differently");
}
