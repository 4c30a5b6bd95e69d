/**
 * The canonical event model (spec: inputs.md §1). Every adapter turns its input format into these
 * events; the replay engine consumes nothing else, so no detector code knows where an event came from.
 *
 * `file` and `line` locate the event in the user's input so that findings can point back at it.
 */
import type { StringForm } from "./byteText.js";
import type { Usage } from "./usage.js";

export interface EventOrigin {
  /** The input path as the user gave it (or as found under a folder they gave). */
  readonly file: string;
  /** 1-based line of the input that produced this event. */
  readonly line: number;
}

interface EventBase extends EventOrigin {
  /** Run id, already trimmed; adapters resolve missing run ids before emitting. */
  readonly run: string;
  readonly session?: string;
  readonly agent?: string;
  readonly ts?: string | number;
}

export interface RunStartEvent extends EventBase {
  readonly type: "run_start";
  /**
   * The OpenClaw build that recorded the run, when the input says (a trajectory's
   * `trace.metadata.data.harness.version`, e.g. `2026.4.29`): `--profile auto` replays the run under
   * that build's generation (core/profiles/choice.ts).
   */
  readonly harnessVersion?: string;
}

export interface RunEndEvent extends EventBase {
  readonly type: "run_end";
  /**
   * Set by an adapter that knows no later event of its file names this run (its own run ends, never
   * read from input), and kept by reading only in the last file of a unit (a later file, a fork or a
   * rewritten copy, may name the run again): replay may then hand the run's report out at once
   * instead of holding it to the end.
   */
  readonly final?: true;
}

export interface ToolCallEvent extends EventBase {
  readonly type: "tool_call";
  readonly id?: string;
  readonly tool: string;
  /**
   * The other agent's format the call was recorded by (`claude-code`, `codex`, …; agents.md); absent
   * for OpenClaw inputs. Its tools are foreign: OpenClaw's tool-specific hashing and known-poll
   * tools do not apply to them, even to a tool of the same name (agents.md rule 1).
   */
  readonly format?: string;
  /** Any JSON; `undefined` when the input had no `args` (which hashes differently from `null`). */
  readonly args?: unknown;
  /** The form of the strings in `args` (byteText.ts): byte strings when the adapter parsed the line as latin1. Read it with `formOf`. */
  readonly form?: StringForm;
  /** The model turn (a `TurnEvent`'s `turn`) that made the call, when the input records turns. */
  readonly turn?: string;
  /**
   * The usage of the call's turn (canonical events, inputs.md §1): counted once per turn, the first
   * one its calls carry; a call with usage and no `turn` is a turn of its own.
   */
  readonly usage?: Usage;
}

/**
 * What a call returned. `error` present (even `null`) means the call threw; otherwise `result`
 * (absent = no result, which has no hash and is never recorded).
 */
export interface ToolResultEvent extends EventBase {
  readonly type: "tool_result";
  readonly id?: string;
  /** May be absent when the result is linked by id; the engine takes the tool from the call. */
  readonly tool?: string;
  readonly result?: unknown;
  readonly error?: unknown;
  /** The unavailable tool the agent's own "no such tool" error names (agents.md rule 3), when the adapter recognised it. */
  readonly unknownTool?: string;
  /** The form of the strings in `result` / `error` (as for a call's `args`). Identity fields (run, id, tool…) are always text. */
  readonly form?: StringForm;
}

/**
 * The form of an event's strings: the one place it is decided, for the preparer (prepare.ts) and the
 * previews. An event without `form` is text: canonical events read by `JSON.parse` of a decoded line
 * (and every adapter that decodes its lines as UTF-8) hold text, and the adapters that parse latin1
 * lines (io/jsonBytes.ts) always say "bytes" when they leave byte strings.
 */
export function formOf(event: { readonly form?: StringForm }): StringForm {
  return event.form ?? "text";
}

export interface CompactionEvent extends EventBase {
  readonly type: "compaction";
}

/**
 * One model turn is over (spec: cost.md §1): what it used, counted once, and — through the `turn`
 * its calls carried — which calls it made. It comes after those calls (a format may know a
 * response's usage only after its calls: Codex, Claude Code's streamed lines); a turn without calls
 * (a final answer) is a turn event alone. Adapters write one only for a turn that recorded usage.
 * Not a line of the input of its own: it never changes what a line counts as (used, ignored).
 */
export interface TurnEvent extends EventBase {
  readonly type: "turn";
  /** Tells the turn apart within its run (a format's response id, else a count): what its calls carry. */
  readonly turn: string;
  readonly usage?: Usage;
}

export type LoopEvent = RunStartEvent | RunEndEvent | ToolCallEvent | ToolResultEvent | CompactionEvent | TurnEvent;

export type LoopEventType = LoopEvent["type"];

export const LOOP_EVENT_TYPES: readonly LoopEventType[] = [
  "run_start",
  "run_end",
  "tool_call",
  "tool_result",
  "compaction",
  "turn",
];

/** True when the result event carries an error outcome (the runtime's `error !== undefined`). */
export function isErrorOutcome(event: ToolResultEvent): boolean {
  return event.error !== undefined;
}
