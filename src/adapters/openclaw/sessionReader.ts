/**
 * The second pass over an OpenClaw session transcript (session.ts): its header and entries, read in
 * file order, turned into events through the shared transcript replay, with copies of earlier
 * messages and entries that earlier files of the session held left out.
 *
 * Its state holds no closure (its callbacks call methods: methodCallback.ts), so that a reader that
 * read a file through can be saved and go on with the lines the file gains (session.ts `resume`).
 */
import { textOf, type StringForm } from "../../core/byteText.js";
import { own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import type { AdapterContext } from "../adapter.js";
import { sessionFileName } from "./sessionFiles.js";
import { agentIdFromPath, sessionIdFromFileName } from "./identity.js";
import { idText, toolCallBlocks, toolResultMessage } from "./messages.js";
import { BOOTSTRAP_CUSTOM_TYPE, PROMPT_ERROR_CUSTOM_TYPE } from "./runNaming.js";
import { QUIET_ENTRY_TYPES, QUIET_MESSAGE_ROLES, entryMessage, entryTime, entryRunMarker } from "./sessionEntries.js";
import { lastFileCallIds, type LastFileFacts } from "./lastFilePass.js";
import { messageTimestamp, type RepeatedTimes } from "./repeatedTimes.js";
import { CopyDetector, copyKeyOf, entryKey } from "./transcriptCopies.js";
import { sidecarOf } from "./sidecarPreface.js";
import { TranscriptReplay } from "../shared/transcriptReplay.js";
import { assistantFacts, userFacts } from "./runFacts.js";
import { textField } from "../shared/messageFacts.js";
import { openclawUsage } from "./usage.js";
import { READS_USAGE } from "../shared/runFacts.js";
import { methodCallback } from "../shared/methodCallback.js";
import { RunSegments } from "../shared/runSegments.js";
import { RunWriter } from "../shared/runWriter.js";
import { RunDating } from "../shared/runDating.js";
import { RunIdentities } from "../shared/runIdentities.js";
import { CallSequencer } from "../shared/callSequencer.js";

const SESSION_FORMAT_VERSION = 3;
export class SessionReader {
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
  /** The number of the last line read: a grown file's first pass confirms the lines after it (session.ts `resume`). */
  lastLine = 0;

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
    this.replay = new TranscriptReplay(context, file, segmentNames, methodCallback(this as SessionReader, "owner"), {
      callIds,
      // The build a sidecar records reaches replay on each run's start (`--profile auto`), and it learns the transcripts' calls.
      ...(sidecar !== false && { harnessVersion: sidecar.harnessVersion, onCall: (id) => sidecar.transcriptCall(id) }),
    });
  }

  /** Whose runs these are (a method, not a closure: a reader's state can be saved, methodCallback.ts). */
  owner(): { session: string; agent: string | undefined } {
    return { session: this.nameSession ?? this.session ?? this.fallbackSession, agent: this.agent };
  }

  /** The file grew: see TranscriptReplay `grown`. */
  grown(segmentNames: ReadonlyArray<string | undefined>): boolean {
    return this.replay.grown(segmentNames);
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


/** What a transcript read through keeps to go on from (session.ts `resume`). */
export class SessionReading {
  constructor(
    readonly reader: SessionReader,
    /** The first pass read the lines' facts (it was not skipped for a file that names no run). */
    readonly named: boolean,
  ) {}
}

/** The classes a saved `SessionReading` is made of (pipeline/cache/stateCodec.ts revives them by name). */
export const SESSION_STATE_CLASSES = {
  SessionReading,
  SessionReader,
  TranscriptReplay,
  RunSegments,
  RunWriter,
  RunDating,
  RunIdentities,
  CallSequencer,
  CopyDetector,
};
