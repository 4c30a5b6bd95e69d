/**
 * A replay profile: one generation of OpenClaw's loop detection, as data plus the few rules that
 * differ between generations (hashing, config reading, the history/verdict/guard engine). A run is
 * replayed under one profile, chosen once (choice.ts); nothing outside the profile modules asks
 * which generation it is in.
 */
import type { EffectiveConfig, RawBlock, ResolvedConfig } from "../config.js";
import type { ThresholdName, Verdict } from "../detectors.js";
import type { Digest, Hashing } from "../hashing.js";
import type { GuardStep, GuardWindow } from "../postCompactionGuard.js";
import type { PreparedEvent } from "../prepare.js";

export type ProfileName = "configurable" | "newest";
export const PROFILE_NAMES: readonly ProfileName[] = ["configurable", "newest"];

export type CallEvent = Extract<PreparedEvent, { type: "call" }>;
export type OutcomeEvent = Extract<PreparedEvent, { type: "outcome" }>;

/** What the run's post-compaction abort finding says (threshold and message differ by generation). */
export interface AbortFinding {
  readonly threshold: { readonly name: ThresholdName; readonly value: number };
  readonly message: string;
}

/** One run's detection state under a profile: its config, its share of the session history, its guard. */
export interface RunEngine {
  /** The verdict before the call runs (if any); then records the call as the generation does. */
  call(event: CallEvent): Verdict | undefined;
  /** Records the outcome; what the guard made of it, or undefined when the guard did not see it. */
  outcome(event: OutcomeEvent): GuardStep | undefined;
  /** A compaction retry; the summary of a guard window the re-arm closed, if any. */
  compaction(armedAfterCall: number): GuardWindow | undefined;
  /** The guard window still open when the run ends. */
  openWindow(): GuardWindow | undefined;
  abortFinding(tool: string, count: number): AbortFinding;
}

/** The history one session's runs share under a profile; it hands each run its engine. */
export interface ProfileSession {
  startRun(config: ResolvedConfig, run: string): RunEngine;
}

export interface ReplayProfile {
  readonly name: ProfileName;
  createHashing(digest: Digest): Hashing;
  openSession(): ProfileSession;
  /** The effective config the generation reads from these blocks (file, agent override, --set). */
  resolveConfig(blocks: readonly RawBlock[]): EffectiveConfig;
}

/** The profile a run was replayed under, and why (shown in the report header). */
export interface ProfileChoice {
  readonly profile: ProfileName;
  readonly reason: string;
}
