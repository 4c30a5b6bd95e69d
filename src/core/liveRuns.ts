/**
 * Folds live events (already attributed to runs) into what the report shows of a Gateway log: one
 * "live run" per run id with its tool starts, compactions, guard lines and findings, plus the
 * findings logged while no run was open. Pure: the adapter did the reading and the attribution.
 */
import { detectorInfo } from "./detectorInfo.js";
import type { DetectorName, ThresholdName } from "./detectors.js";
import type { FindingLevel, LiveFinding, LiveRun } from "./findings.js";
import type { LiveEvent, LiveFindingEvent } from "./liveEvents.js";
import { eventTime } from "./eventTime.js";

export interface LiveAnalysis {
  /** Live runs in order of first appearance; each has `source: "log"`. */
  readonly runs: LiveRun[];
  /** Every live finding, in input order (file, then line), including those outside any run. */
  readonly findings: LiveFinding[];
}

/**
 * The threshold a live event crossed, by name only: a log does not say what the runtime's config
 * was, so the value is unknown (reported as `null`, never guessed from the count).
 */
export function liveThresholdName(detector: DetectorName, level: FindingLevel): ThresholdName {
  // A warning-only detector (argument_churn) has no stop threshold of its own.
  return level === "warning" ? "warningThreshold" : (detectorInfo(detector).stop ?? "warningThreshold");
}

type Draft = { -readonly [K in keyof LiveFinding]: LiveFinding[K] };

interface LiveRunState {
  readonly run: string;
  readonly file: string;
  agent: string | null;
  session: string | null;
  calls: number;
  compactions: number;
  started: boolean;
  ended: boolean;
  armed: number;
  windowsClosed: number;
  findings: Draft[];
  /** The time of the run's first dated log line (eventTime.ts). */
  startedAt: string | null;
}

export class LiveRunBook {
  private readonly runs = new Map<string, LiveRunState>();
  private readonly orphans: Draft[] = [];
  private readonly fileOrder = new Map<string, number>();

  push(event: LiveEvent): void {
    if (!this.fileOrder.has(event.file)) this.fileOrder.set(event.file, this.fileOrder.size);
    if (event.run === null) {
      if (event.type === "live_finding") this.orphans.push(toFinding(event));
      return; // markers outside any run have no run to count them in
    }
    const state = this.runFor(event.run, event.file);
    state.agent ??= event.agent ?? null;
    state.session ??= event.session ?? null;
    state.startedAt ??= eventTime(event.ts);
    if (event.type === "live_finding") {
      state.findings.push(toFinding(event));
      return;
    }
    switch (event.marker) {
      case "run_start":
        state.started = true;
        return;
      case "run_end":
        state.ended = true;
        return;
      case "tool_start":
        state.calls++;
        return;
      case "compaction":
        state.compactions++;
        return;
      case "guard_armed":
        state.armed++;
        return;
      case "guard_closed":
        state.windowsClosed++;
        return;
    }
  }

  finish(): LiveAnalysis {
    const runs = [...this.runs.values()].map((state) => this.report(state));
    const all: LiveFinding[] = [...runs.flatMap((run) => run.findings), ...this.orphans];
    const order = (f: LiveFinding) => this.fileOrder.get(f.file) ?? 0;
    all.sort((a, b) => order(a) - order(b) || a.line - b.line);
    return { runs, findings: all };
  }

  private runFor(run: string, file: string): LiveRunState {
    let state = this.runs.get(run);
    if (!state) {
      state = { run, file, agent: null, session: null, calls: 0, compactions: 0, started: false, ended: false, armed: 0, windowsClosed: 0, findings: [], startedAt: null };
      this.runs.set(run, state);
    }
    return state;
  }

  private report(state: LiveRunState): LiveRun {
    // Read back from an edited events file, findings may come out of line order.
    const findings = state.findings.sort((a, b) => a.line - b.line);
    let stopped = false;
    for (const finding of findings) {
      finding.agent ??= state.agent;
      finding.session ??= state.session;
      finding.afterStop = stopped;
      // The live runtime vetoed the call (critical) or aborted the run: what follows came after a stop.
      if (finding.level !== "warning") stopped = true;
    }
    return {
      run: state.run,
      agent: state.agent,
      session: state.session,
      file: state.file,
      calls: state.calls,
      compactions: state.compactions,
      findings,
      firstStop: null,
      guardWindows: [],
      recordedVetoes: 0,
      startedAt: state.startedAt,
      source: "log",
      live: {
        started: state.started,
        ended: state.ended,
        guard: {
          armed: state.armed,
          persisted: findings.filter((f) => f.detector === "compaction_loop_persisted").length,
          windowsClosed: state.windowsClosed,
        },
      },
    };
  }
}

/** The finding of a live event; the run's identity and `afterStop` are settled when the run is reported. */
function toFinding(event: LiveFindingEvent): Draft {
  return {
    run: event.run,
    agent: event.agent ?? null,
    session: event.session ?? null,
    file: event.file,
    line: event.line,
    call: event.call,
    tool: event.tool,
    detector: event.detector,
    level: event.level,
    count: event.count,
    threshold: { name: liveThresholdName(event.detector, event.level), value: null },
    afterStop: false,
    message: event.message,
    argsHash: "",
    source: "log",
    echoLines: event.echoLines,
  };
}
