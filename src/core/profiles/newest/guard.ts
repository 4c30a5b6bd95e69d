/**
 * The newest generation's post-compaction guard (generations.md §8). Its window is fixed at 3 (the
 * `windowSize` key is read by nothing); a rolling baseline of the last 16 (tool, args) pairs across
 * the whole run tells how many calls in a window repeat pre-compaction calls; re-arming first closes
 * (and reports) the open window; an abort closes the window.
 */
import { identicalOutcomes } from "../../detectorScans.js";
import type { GuardOutcome, GuardStep, GuardWindow } from "../../postCompactionGuard.js";

export const NEWEST_GUARD_WINDOW = 3;
const BASELINE_SIZE = 16;

const signature = (o: GuardOutcome) => `${o.tool}\u0000${o.argsHash}`;

interface OpenWindow {
  readonly armedAfterCall: number;
  remaining: number;
  readonly entries: GuardOutcome[];
  readonly snapshot: ReadonlySet<string>;
}

export class NewestGuard {
  private readonly baseline: string[] = [];
  private window: OpenWindow | undefined;

  /** A compaction retry. Returns the summary of the window it closed, if one was open. */
  arm(armedAfterCall: number): GuardWindow | undefined {
    const closed = this.window ? this.summary(this.window, "closed") : undefined;
    this.window = { armedAfterCall, remaining: NEWEST_GUARD_WINDOW, entries: [], snapshot: new Set(this.baseline) };
    return closed;
  }

  /** One stored outcome with a result hash (vetoes and absent results never reach the guard). */
  observe(outcome: GuardOutcome): GuardStep {
    this.baseline.push(signature(outcome));
    if (this.baseline.length > BASELINE_SIZE) this.baseline.shift();
    const window = this.window;
    if (!window) return { kind: "idle" };
    window.remaining--;
    window.entries.push(outcome);
    const identical = identicalOutcomes(window.entries, outcome);
    if (identical >= NEWEST_GUARD_WINDOW) {
      this.window = undefined;
      return { kind: "abort", tool: outcome.tool, count: identical, window: this.summary(window, "aborted") };
    }
    if (window.remaining <= 0) {
      this.window = undefined;
      return { kind: "closed", window: this.summary(window, "closed") };
    }
    return { kind: "observed" };
  }

  openWindow(): GuardWindow | undefined {
    return this.window ? this.summary(this.window, "open") : undefined;
  }

  /** The outcomes the armed window holds (`looplens explain`); undefined when not armed. */
  get entries(): readonly GuardOutcome[] | undefined {
    return this.window?.entries;
  }

  private summary(window: OpenWindow, result: GuardWindow["result"]): GuardWindow {
    return {
      armedAfterCall: window.armedAfterCall,
      attempts: NEWEST_GUARD_WINDOW,
      calls: window.entries.length,
      preCompactionRepeats: window.entries.filter((o) => window.snapshot.has(signature(o))).length,
      // The runtime's summary lists the tools sorted ("tools=a,b").
      tools: [...new Set(window.entries.map((o) => o.tool))].sort(),
      result,
    };
  }
}
