/**
 * The default profile: the generation detection.md describes (configurable thresholds, toggles,
 * a configurable guard window). Its rules live in the core modules it wires together here, exactly
 * as replay ran them before profiles existed.
 */
import { guardOn, resolveConfig, rollingDetectorsOn, type ResolvedConfig } from "../config.js";
import { evaluate, verdictGeneration, type Verdict } from "../detectors.js";
import { sameResultStreak } from "../detectorScans.js";
import { createHashing } from "../hashing.js";
import { SessionHistory, type HistorySharing } from "../history.js";
import { PostCompactionGuard } from "../postCompactionGuard.js";
import type { CallEvent, OutcomeEvent, ProfileSession, ReplayProfile, RunEngine } from "./profile.js";

/** The generation detection.md describes: the table as it is, with the plain no-progress streak. */
export const CONFIGURABLE_VERDICTS = verdictGeneration({ noProgress: sameResultStreak });

/** An outcome with a result hash (the run's `run` is the event's). */
const answered = (event: OutcomeEvent): event is OutcomeEvent & { readonly resultHash: string } => event.resultHash !== undefined;

export class ConfigurableRun implements RunEngine {
  private guard: PostCompactionGuard | undefined;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly history: SessionHistory,
    private readonly run: string,
  ) {}

  private guardOf(): PostCompactionGuard {
    this.guard ??= new PostCompactionGuard(this.config.postCompactionGuard.windowSize);
    return this.guard;
  }

  call(event: CallEvent): Verdict | undefined {
    const config = this.config;
    let verdict: Verdict | undefined;
    if (rollingDetectorsOn(config)) verdict = evaluate(this.history.measure(this.run, event, CONFIGURABLE_VERDICTS), config, CONFIGURABLE_VERDICTS);
    // The runtime vetoes a critical call before it runs, so it never enters history. Recording is
    // on whenever `enabled` is not explicitly false: the post-compaction guard depends on it.
    if (verdict?.level !== "critical" && guardOn(config)) {
      this.history.append(event, config.historySize);
    }
    return verdict;
  }

  outcome(event: OutcomeEvent) {
    // An outcome without a hash (a veto, an absent result) is neither recorded nor shown to the guard.
    if (!answered(event) || !guardOn(this.config)) return undefined;
    // The event is what is recorded and shown, as it is: `sweep` passes each event to every config.
    this.history.attachOutcome(event, this.config.historySize);
    return this.guardOf().observe(event);
  }

  compaction(armedAfterCall: number) {
    if (guardOn(this.config)) this.guardOf().arm(armedAfterCall);
    return undefined; // re-arming replaces the window without a summary in this generation
  }

  openWindow() {
    return this.guard?.openWindow();
  }

  inspect() {
    return { records: this.history.forRun(this.run), historySize: this.config.historySize, guard: this.guard?.entries };
  }

  abortFinding(tool: string, count: number) {
    return {
      threshold: { name: "postCompactionGuard.windowSize" as const, value: this.config.postCompactionGuard.windowSize },
      message: `compaction_loop_persisted: ${tool} repeated ${count} times with identical args+result post-compaction; run aborted.`,
    };
  }
}

/** A session of this profile: a class, not a closure, so that a replay's state can be saved (resuming a grown file). */
export class ConfigurableSession implements ProfileSession {
  constructor(private readonly history: SessionHistory) {}

  startRun(config: ResolvedConfig, run: string): RunEngine {
    return new ConfigurableRun(config, this.history, run);
  }
}

export const CONFIGURABLE_PROFILE: ReplayProfile = {
  name: "configurable",
  createHashing,
  verdicts: CONFIGURABLE_VERDICTS,
  openSession(sharing?: HistorySharing): ProfileSession {
    return new ConfigurableSession(new SessionHistory(sharing));
  },
  resolveConfig,
};
