/**
 * A replay profile: one generation of OpenClaw's loop detection, as data plus the few rules that
 * differ between generations (hashing, config reading, the history/verdict/guard engine). A run is
 * replayed under one profile, chosen once (choice.ts); nothing outside the profile modules asks
 * which generation it is in.
 */
import type { EffectiveConfig, RawBlock, ResolvedConfig } from "../config.js";
import type { ThresholdName, Verdict, VerdictGeneration } from "../detectors.js";
import type { Digest, Hashing } from "../hashing.js";
import type { GuardOutcome, GuardStep, GuardWindow } from "../postCompactionGuard.js";
import type { CallRecord, HistorySharing } from "../history.js";
import type { NewestRecord } from "./newest/history.js";
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
  /** What the detectors see of the run now (`looplens explain`, core/trace.ts; never asked during analysis). */
  inspect(): EngineView;
}

/**
 * A run's detection state as `looplens explain` shows it: the history records the rolling detectors
 * read (oldest first; live objects, to be copied before the next event) and the outcomes the
 * armed post-compaction guard holds (`undefined`: not armed).
 */
export interface EngineView {
  readonly records: readonly (CallRecord | NewestRecord)[];
  readonly historySize: number;
  readonly guard: readonly GuardOutcome[] | undefined;
}

/** The history one session's runs share under a profile; it hands each run its engine. */
export interface ProfileSession {
  startRun(config: ResolvedConfig, run: string): RunEngine;
}

export interface ReplayProfile {
  readonly name: ProfileName;
  createHashing(digest: Digest): Hashing;
  /** The generation's verdict table (detectors.ts): what its rows read and how they are worded. */
  readonly verdicts: VerdictGeneration;
  /** `sharing`: the replayer is one of several fed the same events (history.ts; a profile may ignore it). */
  openSession(sharing?: HistorySharing): ProfileSession;
  /** The effective config the generation reads from these blocks (file, agent override, --set). */
  resolveConfig(blocks: readonly RawBlock[]): EffectiveConfig;
}

/** The profile a run was replayed under, and why (shown in the report header). */
export interface ProfileChoice {
  readonly profile: ProfileName;
  readonly reason: string;
}
