/**
 * Folds live events (already attributed to runs) into what the report shows of a Gateway log: one
 * "live run" per run id with its tool starts, compactions, guard lines and findings, plus the
 * findings logged while no run was open. Pure: the adapter did the reading and the attribution.
 */
import { detectorInfo } from "./detectorInfo.js";
import type { DetectorName, ThresholdName } from "./detectors.js";
import type { FindingLevel, LiveFinding, LiveRun } from "./findings.js";
import type { LiveEvent, LiveFindingEvent } from "./liveEvents.js";
import { eventTimeMs } from "./eventTime.js";
import { LiveRunTable, type LiveRunTableData } from "./liveRunTable.js";
import { NONE } from "./none.js";

export interface LiveAnalysis {
  /** Live runs in order of first appearance; each has `source: "log"`. */
  readonly runs: LiveRunList;
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

/**
 * The live runs of an analysis, in order of first appearance. Made one at a time as they are read
 * (a log of a million runs is never a million report objects at once); arrays are lists too (a
 * filtered selection is one).
 */
export interface LiveRunList extends Iterable<LiveRun> {
  readonly length: number;
}

/** A book as plain data (`LiveRunBook.part`): what a worker's unit read of Gateway logs. */
export interface LiveBookPart {
  /** Files in the order their first event came. */
  readonly files: readonly string[];
  readonly table: LiveRunTableData;
  readonly findings: ReadonlyArray<readonly [number, Draft[]]>;
  readonly orphans: readonly Draft[];
}

export class LiveRunBook {
  private readonly table = new LiveRunTable();
  /** Findings by run row: only runs with findings have an entry. */
  private readonly findings = new Map<number, Draft[]>();
  private readonly orphans: Draft[] = [];
  private readonly fileOrder = new Map<string, number>();

  push(event: LiveEvent): void {
    if (!this.fileOrder.has(event.file)) this.fileOrder.set(event.file, this.fileOrder.size);
    if (event.run === null) {
      if (event.type === "live_finding") this.orphans.push(toFinding(event));
      return; // markers outside any run have no run to count them in
    }
    const { table } = this;
    const row = table.rowOf(event.run, event.file);
    table.noteIdentity(row, event.agent, event.session);
    if (table.undated(row)) table.noteTime(row, eventTimeMs(event.ts));
    if (event.type === "live_finding") {
      const findings = this.findings.get(row);
      if (findings) findings.push(toFinding(event));
      else this.findings.set(row, [toFinding(event)]);
      return;
    }
    switch (event.marker) {
      case "run_start":
        return table.markStarted(row);
      case "run_end":
        return table.markEnded(row);
      case "tool_start":
        return table.count(row, "calls");
      case "compaction":
        return table.count(row, "compactions");
      case "guard_armed":
        return table.count(row, "armed");
      case "guard_closed":
        return table.count(row, "windowsClosed");
    }
  }

  /** What the book holds, as plain data (for a worker's unit); undefined when nothing was pushed. */
  part(): LiveBookPart | undefined {
    if (this.fileOrder.size === 0) return undefined;
    return { files: [...this.fileOrder.keys()], table: this.table.data(), findings: [...this.findings], orphans: this.orphans };
  }

  /** Folds in the book of the unit read next, as if its events had been pushed here. */
  absorb(part: LiveBookPart): void {
    for (const file of part.files) if (!this.fileOrder.has(file)) this.fileOrder.set(file, this.fileOrder.size);
    const rows = this.table.absorb(part.table);
    for (const [from, findings] of part.findings) {
      const row = rows[from]!;
      const known = this.findings.get(row);
      if (known) for (const finding of findings) known.push(finding);
      else this.findings.set(row, [...findings]);
    }
    // Not push(...): spreading ~100k items into arguments overflows the stack.
    for (const finding of part.orphans) this.orphans.push(finding);
  }

  finish(): LiveAnalysis {
    // Runs' findings in run order, then those outside any run; the sort below is stable.
    const rowsWithFindings = [...this.findings.keys()].sort((a, b) => a - b);
    const all: LiveFinding[] = [];
    for (const row of rowsWithFindings) for (const finding of settledFindings(this.findings.get(row)!, this.table.read(row))) all.push(finding);
    for (const finding of this.orphans) all.push(finding);
    const order = (f: LiveFinding) => this.fileOrder.get(f.file) ?? 0;
    all.sort((a, b) => order(a) - order(b) || a.line - b.line);
    return { runs: new BookRuns(this.table, this.findings, rowsWithFindings), findings: all };
  }
}

/** The book's runs, each made into its report when a reader gets to it. */
class BookRuns implements LiveRunList {
  constructor(
    private readonly table: LiveRunTable,
    private readonly findings: ReadonlyMap<number, readonly LiveFinding[]>,
    /** The rows with findings, in order (the keys of `findings`, sorted). */
    private readonly rowsWithFindings: readonly number[],
  ) {}

  get length(): number {
    return this.table.size;
  }

  *[Symbol.iterator](): Iterator<LiveRun> {
    for (let row = 0; row < this.table.size; row++) yield liveRun(this.table.read(row), this.findings.get(row) ?? NONE);
  }

  *withFindings(): Generator<LiveRun> {
    for (const row of this.rowsWithFindings) yield liveRun(this.table.read(row), this.findings.get(row)!);
  }
}

/**
 * The runs of a list that have findings, in order: for a book's list without making the others (most
 * readers only look at those), for an array by filtering it.
 */
export function runsWithFindings(list: LiveRunList): Iterable<LiveRun> {
  if (list instanceof BookRuns) return list.withFindings();
  return [...list].filter((run) => run.findings.length > 0);
}

type RunRow = ReturnType<LiveRunTable["read"]>;

/**
 * A run's findings in line order (read back from an edited events file, they may come out of it),
 * with the run's identity and `afterStop` filled in: settled once, when the book is finished.
 */
function settledFindings(findings: Draft[], state: RunRow): Draft[] {
  findings.sort((a, b) => a.line - b.line);
  let stopped = false;
  for (const finding of findings) {
    finding.agent ??= state.agent;
    finding.session ??= state.session;
    finding.afterStop = stopped;
    // The live runtime vetoed the call (critical) or aborted the run: what follows came after a stop.
    if (finding.level !== "warning") stopped = true;
  }
  return findings;
}

function liveRun(state: RunRow, findings: readonly LiveFinding[]): LiveRun {
  return {
    run: state.run,
    agent: state.agent,
    session: state.session,
    file: state.file,
    calls: state.calls,
    compactions: state.compactions,
    findings,
    firstStop: null,
    guardWindows: NONE,
    recordedVetoes: 0,
    startedAt: state.startedAt === undefined ? null : new Date(state.startedAt).toISOString(),
    source: "log",
    live: {
      started: state.started,
      ended: state.ended,
      guard: {
        armed: state.armed,
        persisted: findings.length === 0 ? 0 : findings.filter((f) => f.detector === "compaction_loop_persisted").length,
        windowsClosed: state.windowsClosed,
      },
    },
  };
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
