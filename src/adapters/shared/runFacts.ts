/**
 * What an adapter tells the run writer (runWriter.ts): where an event is, whose run it is and its
 * name, a call's and a result's facts, how a run starts, and the slots for a run's identity and a
 * turn's usage.
 */
import type { StringForm } from "../../core/byteText.js";
import type { Disposition } from "../../core/disposition.js";
import type { RunFacts } from "../../core/runIdentity.js";
import type { Usage } from "../../core/usage.js";
import type { AdapterContext } from "../adapter.js";

/**
 * Whether adapters read model usage (cost.md). `LOOPLENS_USAGE=off` turns the reading off, for the
 * bench's side-by-side row only (bench/usage.mjs: what reading usage costs analyze); not documented
 * for users, who always get it.
 */
export const READS_USAGE = process.env.LOOPLENS_USAGE !== "off";

/** What handing an event to replay gave: used, or not with the reason. */
export type Emitted = Disposition;

/** Where replay is reached: the adapter context (its `emit` and `turn`, its tally, whether runs are closed). */
export type EventSink = Pick<AdapterContext, "emit" | "turn" | "tally" | "options" | "facts">;

/** Where an event is in the input: its file and line, and where in the line when a line holds many. */
export interface EventPlace {
  readonly file: string;
  readonly line: number;
  /** An evaluation instance's `history[12]`: diagnostics name it, since the line alone does not say which event. */
  readonly within?: string;
}

/** Whose a run's events are. */
export interface RunOwner {
  readonly session: string | undefined;
  readonly agent: string | undefined;
}

/** What a tool returned: its result, or the error it threw (`error` present, even `null`). */
export type Outcome = { readonly error: unknown } | { readonly result: unknown };

export interface CallFacts {
  readonly id: string | undefined;
  readonly tool: string;
  /** `undefined` when the input had no arguments (which hashes differently from `{}`). */
  readonly args: unknown;
  /** The form of the strings of `args` (byteText.ts). */
  readonly form: StringForm;
  /** The key of the model turn that made the call (`TurnFacts.id`), when that turn recorded usage. */
  readonly turn?: string;
}

export interface ResultFacts {
  readonly id: string | undefined;
  readonly tool: string | undefined;
  readonly outcome: Outcome;
  /** The unavailable tool the agent's own "no such tool" error names, when the adapter recognised it. */
  readonly unknownTool?: string;
  readonly form: StringForm;
}

export type { RunFacts, RunOutcome } from "../../core/runIdentity.js";

/**
 * One turn (spec/cost.md §1): one model response, its usage counted once (core/usage.ts); the calls
 * it made were handed to the writer before it, each with `turn: id`.
 */
export interface TurnFacts {
  /**
   * Tells the turn apart from the run's other turns not ended yet: the format's response id (Claude
   * Code's `message.id`), else something of the adapter's own (the entry's line).
   */
  readonly id: string;
  readonly usage: Usage | undefined;
}

/** A run's name, or how to ask for it once it is settled (runWriter.ts `startRun`). */
export type RunName = string | (() => string);

export function nameOf(run: RunName): string {
  return typeof run === "string" ? run : run();
}

export interface RunStart {
  /** When the start was recorded (ISO string or epoch ms): it dates the run. */
  readonly time?: string | number;
  /** The OpenClaw build that recorded the run (`--profile auto`): on its `run_start`, so announced at once. */
  readonly harnessVersion?: string;
  /** See the module comment; "now" when a harness version is given. */
  readonly announce: "now" | "ifSilent";
  /** What the start tells of the run (its prompt, channel, model): the writer hands it on (runWriter.ts). */
  readonly facts?: RunFacts;
}

export interface WriterPolicy {
  /** The foreign agent's format put on every call (`claude-code`, `codex`, …); absent for OpenClaw. */
  readonly format?: string;
  /**
   * Whether a later start of this file may name `run` again, so that no final run end can be said
   * when the run is left (OpenClaw's explicit run names may repeat; a trajectory's runs restart on
   * a compaction retry). Default: never.
   */
  readonly mayRecur?: (run: string) => boolean;
}
