/**
 * OpenClaw session transcripts (pi session format v3, inputs.md §2):
 * `~/.openclaw/agents/<agentId>/sessions/<sessionId>.jsonl`, its archives (`….jsonl.reset.<ts>`,
 * `….jsonl.deleted.<ts>`, `….jsonl.bak-<n>-<ms>`, checkpoints), and the same rows in a SQLite store.
 *
 * Two passes: `scanSession` settles the run names (and, with --active-branch, the branch ending at
 * the last entry), reading most lines from their bytes when the caller can start over (see
 * sessionTree.ts); the second pass replays every executed call once, in file order, through
 * `TranscriptReplay`. Not replayed again: entries an earlier file of the session held (by id:
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
import { textOf, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { ReadAgain, type AdapterContext, type InputAdapter } from "../adapter.js";
import { sessionFileName } from "./sessionFiles.js";
import type { LineSource } from "../io/lineSource.js";
import { sidecarOf } from "./sidecarPreface.js";
import { agentIdFromPath, sessionIdFromFileName } from "./identity.js";
import { idText, toolCallBlocks, toolResultMessage } from "./messages.js";
import { BOOTSTRAP_CUSTOM_TYPE, PROMPT_ERROR_CUSTOM_TYPE } from "./runNaming.js";
import {
  QUIET_ENTRY_TYPES,
  QUIET_MESSAGE_ROLES,
  classifySessionBytes,
  classifySessionLine,
  entryMessage,
  entryTime,
  entryRunMarker,
  type SessionLine,
} from "./sessionEntries.js";
import { scanSession } from "./sessionTree.js";
import { LAST_FILE_PASS_BYTES, findLastFileFacts, lastFileCallIds, type LastFileFacts } from "./lastFilePass.js";
import { messageTimestamp, type RepeatedTimes } from "./repeatedTimes.js";
import { CopyDetector, copyKeyOf, entryKey } from "./transcriptCopies.js";
import { TranscriptReplay } from "../shared/transcriptReplay.js";
import { assistantFacts, userFacts } from "./runFacts.js";
import { storeChannel } from "./sessionStore.js";
import { textField } from "../shared/messageFacts.js";
import { openclawUsage } from "./usage.js";
import { READS_USAGE } from "../shared/runFacts.js";

const SESSION_FORMAT_VERSION = 3;
const ENTRY_TYPES = new Set(["message", "custom", "compaction", ...QUIET_ENTRY_TYPES]);

/** A header line, or an entry of a known type with a `parentId` (which canonical events never have). */
function looksLikeSession(sample: unknown): boolean {
  if (!isPlainObject(sample)) return false;
  const type = own(sample, "type");
  if (type === "session") return own(sample, "version") !== undefined || own(sample, "id") !== undefined;
  return typeof type === "string" && ENTRY_TYPES.has(type) && Object.prototype.hasOwnProperty.call(sample, "parentId");
}

class SessionReader {
  private session: string | undefined;
  private headerLine: number | undefined;
  private sawEntry = false;
  private readonly nameSession: string | undefined;
  private readonly fallbackSession: string;
  private readonly agent: string | undefined;
  private readonly replay: TranscriptReplay;
  /** Copies of earlier messages (file order only: the active branch holds no copy of itself). */
  private readonly copies: CopyDetector | undefined;
  /** Keys of this file's entries, joined to the unit's once the file is read through. */
  private readonly ids: number[] | undefined;
  /** Which message timestamps the file may repeat (lastFilePass.ts): only their copy keys are kept. */
  private readonly repeated: RepeatedTimes | undefined;
  /** The model the last `model_change` set. */
  private model: string | undefined;
  /** Where the session's runs came in, when the session store names it (sessionStore.ts). */
  channel: string | undefined;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
    segmentNames: ReadonlyArray<string | undefined>,
    /** What a pass found of a large last file of its unit: only the copy keys and call ids it needs are kept. */
    facts: LastFileFacts | undefined,
  ) {
    this.repeated = facts?.times;
    this.nameSession = sessionFileName(file)?.sessionId;
    this.fallbackSession = sessionIdFromFileName(file);
    this.agent = agentIdFromPath(file);
    this.copies = context.options.activeBranch ? undefined : new CopyDetector(context.unit.messageKeys);
    this.ids = context.unit.entryIds ? [] : undefined;
    const callIds = facts ? lastFileCallIds(context.unit.callIds, facts.rebuilt) : context.unit.callIds;
    const sidecar = sidecarOf(context.unit);
    this.replay = new TranscriptReplay(context, file, segmentNames, () => ({ session: this.nameSession ?? this.session ?? this.fallbackSession, agent: this.agent }), {
      callIds,
      // The build a sidecar records reaches replay on each run's start (`--profile auto`), and it learns the transcripts' calls.
      ...(sidecar !== false && { harnessVersion: sidecar.harnessVersion, onCall: (id) => sidecar.transcriptCall(id) }),
    });
  }

  header(line: number, header: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    if (this.headerLine !== undefined || this.sawEntry) return tally.ignored(this.file, line, "another session header; ignored");
    this.headerLine = line;
    this.session = idText(own(header, "id"), form);
    if (this.session === undefined && this.nameSession === undefined) {
      tally.note({ file: this.file, line, reason: "session header without an id; the session id is taken from the file name" });
    }
    const version = own(header, "version");
    if (typeof version === "number" && version > SESSION_FORMAT_VERSION) {
      tally.note({ file: this.file, line, reason: `session format version ${version} is newer than ${SESSION_FORMAT_VERSION}; read as version ${SESSION_FORMAT_VERSION}` });
    }
    tally.used();
  }

  entry(line: number, type: string, entry: Record<string, unknown>, form: StringForm, replayed: boolean): void {
    const { tally, unit } = this.context;
    if (type === "message") this.repeated?.confirm(line, messageTimestamp(entry), form);
    if (!this.sawEntry) {
      this.sawEntry = true;
      if (this.headerLine === undefined) tally.note({ file: this.file, line, reason: "no session header; the session id is taken from the file name" });
    }
    if (this.ids !== undefined) {
      const key = entryKey(entry, idText(own(entry, "id"), form), form);
      if (key !== undefined) {
        if (unit.entryIds!.has(key)) {
          tally.transcript.duplicates++;
          return tally.ignored();
        }
        this.ids.push(key);
      }
    }
    if (!replayed) return tally.ignored();
    // The session's model from here on (`model_change`): a run whose replies name none ran on it.
    if (type === "model_change") this.model = textField(entry, "modelId", form) ?? this.model;
    switch (type) {
      case "message":
        return this.message(line, entry, form);
      case "compaction":
        return this.replay.compaction(line);
      case "custom":
        return this.custom(line, entry, form);
      default:
        if (QUIET_ENTRY_TYPES.has(type)) return tally.ignored();
        return tally.ignored(this.file, line, `unknown entry type ${quote(type)}`);
    }
  }

  /** After the whole file: what it held joins the unit's history. */
  end(): void {
    this.replay.end();
    // Later files of the unit look for copies of this file's messages; after the last file none do.
    if (this.context.unit.files.length > 1 && this.context.options.lastOfUnit !== true) this.copies?.commit();
    if (this.ids !== undefined) for (const id of this.ids) this.context.unit.entryIds!.add(id);
  }

  /** A rewritten copy of an earlier message (counted, unless `counted` is false; not replayed again). */
  private isCopy(role: string, message: Record<string, unknown>, form: StringForm, ids: ReadonlyArray<string | undefined>, counted = true): boolean {
    if (this.copies === undefined) return false;
    const time = own(message, "timestamp");
    // A timestamp no other message of this file has: only an earlier file can hold the original.
    const kept = this.repeated?.mayRepeat(time, form) ?? true;
    if (!kept && this.context.unit.messageKeys.size === 0) return false;
    if (!this.copies.isCopy(copyKeyOf(role, time, form, ids), kept)) return false;
    if (!counted) return true;
    this.context.tally.transcript.copies++;
    this.context.tally.ignored();
    return true;
  }

  private message(line: number, entry: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    const message = entryMessage(entry);
    if (!message) return tally.skipped(this.file, line, 'message entry without a "message" object with a "role"');
    const role = textOf(form, message.role as string);
    switch (role) {
      case "user":
        if (this.isCopy(role, message, form, [])) return;
        this.replay.userMessage(line, entryTime(entry, message), userFacts(message, form, this.model, this.channel));
        return tally.used();
      case "assistant":
        this.replay.runFacts(assistantFacts(message, form), entryTime(entry, message));
        return this.assistant(line, message, form);
      case "toolResult": {
        const result = toolResultMessage(message, form);
        if (!result.ok) return tally.skipped(this.file, line, result.reason);
        if (this.isCopy(role, message, form, [result.value.id])) return;
        this.replay.runFacts(undefined, entryTime(entry, message));
        return this.replay.toolResult(line, result.value);
      }
      default:
        if (QUIET_MESSAGE_ROLES.has(role)) return tally.ignored();
        return tally.ignored(this.file, line, `unknown message role ${quote(role)}`);
    }
  }

  private assistant(line: number, message: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    const { calls, unnamed } = toolCallBlocks(message, form);
    const unnamedReason = `${unnamed} toolCall block${unnamed === 1 ? "" : "s"} without a "name"; not replayed`;
    // Every assistant message is a model turn (cost.md §1): its usage counts once, calls or not.
    const usage = READS_USAGE ? openclawUsage(own(message, "usage")) : undefined;
    if (calls.length === 0) {
      if (unnamed > 0) return tally.skipped(this.file, line, unnamedReason);
      // A copy of a response without calls is ignored as before, only not counted as a turn again.
      if (usage !== undefined && !this.isCopy("assistant", message, form, [], false)) this.replay.turn(line, usage);
      return tally.ignored();
    }
    if (this.isCopy("assistant", message, form, calls.map((call) => call.id))) return;
    if (unnamed > 0) tally.note({ file: this.file, line, reason: unnamedReason });
    this.replay.toolCalls(line, line, calls, usage);
    tally.used();
  }

  private custom(line: number, entry: Record<string, unknown>, form: StringForm): void {
    const { tally } = this.context;
    if (entryRunMarker(line, "custom", entry, form)) return tally.used();
    const customType = own(entry, "customType");
    if (customType === BOOTSTRAP_CUSTOM_TYPE || customType === PROMPT_ERROR_CUSTOM_TYPE) {
      return tally.ignored(this.file, line, `${customType} entry without data.runId; it names no run`);
    }
    tally.ignored();
  }
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
    const facts = await lastFileFactsOf(source, context);
    const names = sidecar === false ? scan.segmentNames : sidecar.nameSegments(scan.segmentNames, scan.segmentTimes);
    const reader = new SessionReader(context, file, names, facts);
    // Where the runs came in: the sidecar's session key, else the session store's entry.
    if (context.facts !== undefined) reader.channel = (sidecar !== false ? sidecar.channel : undefined) ?? (await storeChannel(file, sessionFileName(file)?.sessionId ?? sessionIdFromFileName(file)));
    const onLine = (classified: SessionLine, line: number) => {
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
    if (facts?.times.confirmed() === false) throw new ReadAgain(file, "a message timestamp read from its bytes parsed differently");
    if (facts?.rebuilt.confirmed() === false) throw new ReadAgain(file, "a result refusing an unavailable tool was not found by the first pass");
    reader.end();
  },
};
