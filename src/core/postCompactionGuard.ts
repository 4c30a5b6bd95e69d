/**
 * The post-compaction guard (spec: detection.md "Post-compaction guard"). A compaction retry arms it
 * for `windowSize` call outcomes; if the window fills with one identical (tool, args, result) triple
 * the run aborts with `compaction_loop_persisted`. It never aborts while results change and is never
 * armed except by a compaction.
 */
import { identicalOutcomes } from "./detectorScans.js";

export interface GuardOutcome {
  readonly tool: string;
  readonly argsHash: string;
  readonly resultHash: string;
}

/** Summary of one armed window, for the report. */
export interface GuardWindow {
  /** Number of calls the run had made when the compaction armed the guard. */
  readonly armedAfterCall: number;
  readonly attempts: number;
  /** Call outcomes observed while armed. */
  readonly calls: number;
  /** Of those, how many repeated one of the (up to 16) calls seen just before arming. */
  readonly preCompactionRepeats: number;
  readonly tools: readonly string[];
  readonly result: "closed" | "aborted" | "open";
}

export type GuardStep =
  | { readonly kind: "idle" }
  | { readonly kind: "observed" }
  | { readonly kind: "abort"; readonly tool: string; readonly count: number; readonly window: GuardWindow }
  | { readonly kind: "closed"; readonly window: GuardWindow };

const PRE_COMPACTION_MEMORY = 16;
// Most outcomes find the guard idle or filling its window: one answer each, not an object per outcome.
const IDLE: GuardStep = Object.freeze({ kind: "idle" });
const OBSERVED: GuardStep = Object.freeze({ kind: "observed" });

const signature = (o: GuardOutcome) => `${o.tool}\u0000${o.argsHash}`;

export class PostCompactionGuard {
  /** The newest outcomes seen (the caller's objects): their signatures are made when the guard is armed. */
  private recent: GuardOutcome[] = [];
  private armed:
    | { attempts: number; remaining: number; window: GuardOutcome[]; baseline: Set<string>; armedAfterCall: number }
    | undefined;

  constructor(private readonly windowSize: number) {}

  get isArmed(): boolean {
    return this.armed !== undefined;
  }

  /** A compaction retry: (re-)arm for a fresh window, remembering what came just before. */
  arm(armedAfterCall: number): void {
    this.armed = {
      attempts: this.windowSize,
      remaining: this.windowSize,
      window: [],
      baseline: new Set(this.recent.map(signature)),
      armedAfterCall,
    };
  }

  /** Feeds one recorded call outcome. */
  observe(outcome: GuardOutcome): GuardStep {
    const state = this.armed;
    this.remember(outcome);
    if (!state) return IDLE;
    state.remaining--;
    // A copy: the caller may pass a larger object (a prepared event), and `entries` shows the window.
    state.window.push({ tool: outcome.tool, argsHash: outcome.argsHash, resultHash: outcome.resultHash });
    const identical = identicalOutcomes(state.window, outcome);
    if (identical >= this.windowSize) {
      this.armed = undefined;
      return { kind: "abort", tool: outcome.tool, count: identical, window: this.summary(state, "aborted") };
    }
    if (state.remaining <= 0) {
      this.armed = undefined;
      return { kind: "closed", window: this.summary(state, "closed") };
    }
    return OBSERVED;
  }

  /** The outcomes the armed window holds (`looplens explain`); undefined when not armed. */
  get entries(): readonly GuardOutcome[] | undefined {
    return this.armed?.window;
  }

  /** The window still open at the end of a run, if any. */
  openWindow(): GuardWindow | undefined {
    return this.armed ? this.summary(this.armed, "open") : undefined;
  }

  private remember(outcome: GuardOutcome): void {
    this.recent.push(outcome);
    if (this.recent.length > PRE_COMPACTION_MEMORY) this.recent.shift();
  }

  private summary(
    state: NonNullable<PostCompactionGuard["armed"]>,
    result: GuardWindow["result"],
  ): GuardWindow {
    return {
      armedAfterCall: state.armedAfterCall,
      attempts: state.attempts,
      calls: state.window.length,
      preCompactionRepeats: state.window.filter((o) => state.baseline.has(signature(o))).length,
      tools: [...new Set(state.window.map((o) => o.tool))],
      result,
    };
  }
}
