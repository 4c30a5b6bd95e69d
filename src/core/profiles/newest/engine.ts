/**
 * One run under the newest generation (generations.md §2, §7, §8): every call is recorded as written
 * and its outcome (a veto too) attached to it; detection runs only when `enabled` is on, with the
 * generation's fixed thresholds; the guard (on unless `enabled` is exactly false) has a fixed window of 3.
 */
import { guardOn, rollingDetectorsOn, type ResolvedConfig } from "../../config.js";
import { evaluate, measure, type Verdict } from "../../detectors.js";
import type { CallEvent, OutcomeEvent, RunEngine } from "../profile.js";
import { NEWEST_GUARD_WINDOW, NewestGuard } from "./guard.js";
import { NEWEST_HISTORY_SIZE, newRecord, type NewestHistory } from "./history.js";
import { NEWEST_FIXED } from "./config.js";
import { NEWEST_LOWEST_THRESHOLD, NEWEST_VERDICTS } from "./verdicts.js";

export class NewestRun implements RunEngine {
  private guard: NewestGuard | undefined;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly history: NewestHistory,
    private readonly run: string,
  ) {}

  private guardOf(): NewestGuard {
    this.guard ??= new NewestGuard();
    return this.guard;
  }

  call(event: CallEvent): Verdict | undefined {
    // Every count the table reads is a number of the run's records (ping-pong's counts the probe
    // too: one more), and no threshold is below NEWEST_LOWEST_THRESHOLD: with fewer records no row
    // can hold, so the signals are not measured (most calls of short runs).
    const verdict =
      rollingDetectorsOn(this.config) && this.history.countFor(this.run) + 1 >= NEWEST_LOWEST_THRESHOLD
        ? evaluate(measure(this.history.forRun(this.run), event, NEWEST_VERDICTS), NEWEST_FIXED, NEWEST_VERDICTS)
        : undefined;
    // Replay convention (§2): the call is recorded as written. Where the runtime vetoed it, the
    // transcript holds the veto outcome, which then attaches to this record: one record either way.
    this.history.append(newRecord(this.run, event.tool, event.argsHash, event.callId, event.mutationTarget));
    return verdict;
  }

  outcome(event: OutcomeEvent) {
    // Outcomes are recorded whatever `enabled` says (the runtime records them per session).
    // The event carries the outcome's fields itself (resultHash, outcomeKind, …): no copy is made.
    this.history.attachOutcome(this.run, event, event);
    // The guard sees only stored outcomes with a result hash: never a veto or an absent result.
    if (event.resultHash === undefined || !guardOn(this.config)) return undefined;
    return this.guardOf().observe({ tool: event.tool, argsHash: event.argsHash, resultHash: event.resultHash });
  }

  compaction(armedAfterCall: number) {
    // A disabled guard never arms (it stays unarmed, remaining 0).
    return guardOn(this.config) ? this.guardOf().arm(armedAfterCall) : undefined;
  }

  openWindow() {
    return this.guard?.openWindow();
  }

  inspect() {
    return { records: this.history.forRun(this.run), historySize: NEWEST_HISTORY_SIZE, guard: this.guard?.entries };
  }

  abortFinding(tool: string, count: number) {
    return {
      threshold: { name: "postCompactionGuard.windowSize" as const, value: NEWEST_GUARD_WINDOW },
      message: `CRITICAL: tool ${tool} repeated ${count} times with identical arguments and identical results within ${NEWEST_GUARD_WINDOW} attempts after auto-compaction. Run aborted: the loop persisted through compaction.`,
    };
  }
}
