/**
 * Claude Code transcripts (agents.md A1): `~/.claude/projects/<slug>/<sessionId>.jsonl` and its
 * sub-agents' `<sessionId>/subagents/agent-<id>.jsonl`, replayed through OpenClaw's detectors.
 *
 * One pass in file order (rule 7: every executed call once, abandoned branches included, copies
 * not again). Each line is accounted for once: prompts, lines with calls or with results replay
 * took, and compactions are used; quiet entries, copies, and blank lines are ignored (unknown entry types with
 * a diagnostic); lines that are not JSON objects or lack what their type needs are skipped.
 */
import { claudeCodeProjectDirs } from "./defaultLocation.js";
import { claudeCodeForkTag } from "./forks.js";
import { looksLikeClaudeCode } from "./sniff.js";
import { quote } from "../../core/quote.js";
import type { StringForm } from "../../core/byteText.js";
import { parseObjectLine, type AdapterContext, type InputAdapter, type ObjectLine } from "../adapter.js";
import { lineForm, parseObjectBytes, usableObject, type ObjectBytesLine } from "../io/jsonBytes.js";
import type { LineSource } from "../io/lineSource.js";
import { classifyClaudeLine, type ClaudeLine, type CopyKey, type LineMeta } from "./claudeLines.js";
import { copyStateFor, type CopyState } from "./copies.js";
import { FORMAT, SessionNames } from "./identity.js";
import { SessionReplay } from "./sessionReplay.js";
import { LineEvents } from "../shared/lineEvents.js";
import { outcomeOf } from "./toolResults.js";
import type { ClaudeTurnLine } from "./usage.js";

type LineOf<K extends ClaudeLine["kind"]> = Extract<ClaudeLine, { kind: K }>;

class ClaudeCodeReader {
  private readonly names: SessionNames;
  private readonly sessions = new Map<string, SessionReplay>();
  private readonly copies: CopyState;

  constructor(
    private readonly context: AdapterContext,
    private readonly file: string,
  ) {
    this.names = new SessionNames(file);
    this.copies = copyStateFor(context.unit);
  }

  /** A parsed line: from its text, or from its bytes with the form of its strings. */
  line(parsed: ObjectLine | ObjectBytesLine, line: number): void {
    const { tally } = this.context;
    const object = usableObject(parsed, tally, this.file, line);
    if (object === undefined) return;
    const form = lineForm(object);
    const entry = classifyClaudeLine(object.value, form);
    // Every assistant line is part of a model turn (cost.md §1), calls or not: classifyClaudeLine read its part.
    const turn = entry.kind === "quiet" || entry.kind === "calls" ? entry.turn : undefined;
    if (turn !== undefined && "meta" in entry && (turn.usage !== undefined || turn.id !== undefined)) {
      this.session(entry.meta).turnLine(line, turn, this.counted);
    }
    switch (entry.kind) {
      case "bad":
        return tally.skipped(this.file, line, entry.reason);
      case "unknown":
        return tally.ignored(this.file, line, `unknown entry type ${quote(entry.type)}`);
      case "quiet":
        if (entry.facts !== undefined) this.session(entry.meta).replied(entry.facts, entry.meta.timestamp);
        else if (entry.meta.isSidechain) this.names.identify(entry.meta); // keeps the sidechain's chain of uuids
        return tally.ignored();
      case "prompt":
        return this.prompt(line, entry);
      case "compaction":
        return this.compaction(line, entry);
      case "calls":
        return this.calls(line, entry, form, turn);
      case "results":
        return this.results(line, entry);
    }
  }

  end(): void {
    for (const session of this.sessions.values()) session.end(this.counted);
    this.copies.commit();
  }

  /** Whether a response was counted already by the unit (a fork or a copy of the session holds it too); counts it if not. */
  private readonly counted = (id: string): boolean => {
    if (this.copies.turnIds.has(id)) return true;
    this.copies.turnIds.add(id);
    return false;
  };

  private session(meta: LineMeta): SessionReplay {
    const identity = this.names.identify(meta);
    let session = this.sessions.get(identity.session);
    if (session === undefined) {
      session = new SessionReplay(this.context, this.file, identity);
      this.sessions.set(identity.session, session);
    }
    return session;
  }

  /** A copied entry: counted (a duplicate when an earlier file of the unit held it), not replayed again. */
  private copy(fromEarlierFile: boolean): void {
    if (fromEarlierFile) this.context.tally.transcript.duplicates++;
    else this.context.tally.transcript.copies++;
    this.context.tally.ignored();
  }

  /** Whether an entry with this key is a copy (keys are made and kept only when the unit has more files). */
  private seen(key: CopyKey): boolean {
    return this.context.unit.files.length > 1 && this.copies.isCopy(key());
  }

  private prompt(line: number, entry: LineOf<"prompt">): void {
    if (this.seen(entry.key)) return this.copy(true);
    this.session(entry.meta).prompt(line, entry.promptId, entry.meta.timestamp, this.counted, entry.prompt);
    this.context.tally.used();
  }

  private compaction(line: number, entry: LineOf<"compaction">): void {
    if (this.seen(entry.key)) return this.copy(true);
    this.session(entry.meta).compaction(line, entry.meta.timestamp); // tallies the line with the event
  }

  private calls(line: number, entry: LineOf<"calls">, form: StringForm, turn: ClaudeTurnLine | undefined): void {
    const { tally } = this.context;
    const unnamed = `${entry.unnamed} tool_use block${entry.unnamed === 1 ? "" : "s"} without a "name"; not replayed`;
    if (entry.calls.length === 0) return tally.skipped(this.file, line, unnamed);
    const fresh = entry.calls.filter((call) => call.id === undefined || !this.copies.callIds.has(call.id));
    if (fresh.length === 0) return this.copy(this.copies.fromEarlierFiles(entry.calls.map((call) => call.id), "calls"));
    for (const call of fresh) if (call.id !== undefined) this.copies.addCall(call.id);
    if (entry.unnamed > 0) tally.note({ file: this.file, line, reason: unnamed });
    const session = this.session(entry.meta);
    // The calls carry their response's id when it records usage: its turn, written once it is over.
    const key = turn?.usage !== undefined ? turn.id : undefined;
    session.calls(line, entry.group ?? entry.meta.uuid ?? `line ${line}`, fresh, form, entry.meta.timestamp, key);
    session.replied(entry.facts, entry.meta.timestamp);
    tally.used();
  }

  private results(line: number, entry: LineOf<"results">): void {
    const session = this.session(entry.meta);
    session.replied(undefined, entry.meta.timestamp);
    const single = entry.results.length === 1;
    const lineEvents = new LineEvents(this.context.tally);
    let handed = 0;
    const copies: string[] = [];
    for (const block of entry.results) {
      if (block.id !== undefined && this.copies.answered.has(block.id)) {
        copies.push(block.id);
        continue;
      }
      // A block without `tool_use_id` may still be named by the line's `sourceToolUseID`.
      const source = single && entry.sourceToolUseId !== undefined && session.isPending(entry.sourceToolUseId) ? entry.sourceToolUseId : undefined;
      const id = block.id ?? source;
      if (session.result(line, id, outcomeOf(block, single ? entry.toolUseResult : undefined), lineEvents)) {
        handed++;
        if (id !== undefined) this.copies.addAnswer(id);
      }
    }
    // Counted once its results reach replay (runWriter.ts `LineEvents`).
    if (handed > 0) return lineEvents.seal();
    if (copies.length > 0) return this.copy(this.copies.fromEarlierFiles(copies, "answers"));
    this.context.tally.ignored(this.file, line, "tool_result without tool_use_id while no call waits for a result; not replayed");
  }
}

export const claudeCodeAdapter: InputAdapter = {
  format: FORMAT,
  agent: { kind: "claude-code", homes: (env, home) => claudeCodeProjectDirs(env, home) },
  files: { forkTag: claudeCodeForkTag },

  sniff(samples) {
    return samples.some(looksLikeClaudeCode);
  },

  async read(source: LineSource, context: AdapterContext) {
    const reader = new ClaudeCodeReader(context, source.file);
    // Arguments and results may stay byte strings (io/jsonBytes.ts) when only hashing will read them.
    if (context.options.bytePayloads && source.forEachRawLine) {
      await source.forEachRawLine((bytes, start, end, line, terminated, tooLong) => reader.line(parseObjectBytes(bytes, start, end, terminated, tooLong), line));
    } else {
      await source.forEachLine((text, line, terminated, problem) => reader.line(parseObjectLine(text, terminated, problem), line));
    }
    reader.end();
  },
};
